//go:build linux

package capture_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// adoptEnv, set to "1", makes TestMain call capture.AdoptOrphans: the
// subreaper is process-wide, so the tests that need it run in a child test
// process of their own.
const adoptEnv = "MCP_SURFACE_TEST_ADOPT"

// runBounded runs a capture that must return: if it does not before the
// test's deadline, the test fails instead of hanging.
func runBounded(t *testing.T, target capture.Target, o capture.Options) (*capture.Capture, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type result struct {
		c   *capture.Capture
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := capture.Run(ctx, target, o)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-ctx.Done():
		t.Fatalf("the capture did not return")
		return nil, nil
	}
}

func helperPid(t *testing.T, stderr string) int {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(testserver.HelperPidPrefix) + `(\d+)`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no helper pid in the server's stderr %q", stderr)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// escapedDiag returns the message of the diagnostic naming pid as a
// process that escaped the group.
func escapedDiag(c *capture.Capture, pid int) string {
	for _, d := range c.Diagnostics {
		if d.Code == capture.DiagEscapedProcesses && regexp.MustCompile(`\b`+strconv.Itoa(pid)+`\b`).MatchString(d.Message) {
			return d.Message
		}
	}
	return ""
}

// captureWithHelper captures mode, a server that leaves a helper behind,
// checks that its result was delivered, and returns the helper's pid.
func captureWithHelper(t *testing.T, mode string) (*capture.Capture, int) {
	t.Helper()
	c, err := runBounded(t, stdio(t, mode), opts("2025-06-18"))
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	if n := pagesPerList(c)[capture.MethodToolsList]; n != 1 {
		t.Errorf("tools/list pages = %d, want the result delivered", n)
	}
	return c, helperPid(t, c.Stderr)
}

// A server whose helper leaves the process group in a session of its own
// and keeps stdout and stderr open: the capture still returns with its
// result, and the helper is killed and named.
func TestHelperOutsideTheGroupIsKilled(t *testing.T) {
	for _, mode := range []string{testserver.ModeDetachedHelper, testserver.ModeDaemonizedHelper} {
		t.Run(mode, func(t *testing.T) {
			c, pid := captureWithHelper(t, mode)
			if msg := escapedDiag(c, pid); !strings.Contains(msg, "outside its process group") || !strings.Contains(msg, "killed") {
				t.Errorf("no diagnostic names the escaped helper %d: %+v", pid, c.Diagnostics)
			}
			// Its zombie is init's to reap here, not ours.
			if testserver.Alive(pid) {
				t.Errorf("helper %d survived the capture", pid)
			}
		})
	}
}

// The same servers, and a daemon that holds nothing open, captured by a
// process that adopted orphans: every helper is killed and reaped (its pid
// is gone, not a zombie).
func TestAdoptedOrphansAreKilledAndReaped(t *testing.T) {
	if os.Getenv(adoptEnv) != "1" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
		cmd.Env = append(os.Environ(), adoptEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
			t.Fatalf("the test in a subreaper process: %v\n%s", err, out)
		}
		return
	}
	for _, mode := range []string{testserver.ModeDetachedHelper, testserver.ModeDaemonizedHelper, testserver.ModeQuietDaemon} {
		t.Run(mode, func(t *testing.T) {
			c, pid := captureWithHelper(t, mode)
			if escapedDiag(c, pid) == "" {
				t.Errorf("no diagnostic names the escaped helper %d: %+v", pid, c.Diagnostics)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("helper %d: kill(pid, 0) = %v after the capture, want ESRCH (killed and reaped)", pid, err)
			}
		})
	}
	// Captures that overlap still tell whose an orphan is: each server is
	// a subreaper of its own (the exec shim), so its daemon is its child
	// until the shutdown, and each capture kills and reaps its own.
	t.Run("overlapping", func(t *testing.T) {
		slow := opts("2025-06-18")
		slow.Limits.RequestTimeout = 3 * time.Second
		slowDone := make(chan error, 1)
		go func() {
			_, err := capture.Run(context.Background(), stdio(t, testserver.ModeHangLists), slow)
			slowDone <- err
		}()
		// Let the slow capture start its server first.
		time.Sleep(500 * time.Millisecond)
		const n = 3
		caps := make([]*capture.Capture, n)
		errs := make([]error, n)
		done := make(chan int, n)
		for i := range n {
			go func() {
				caps[i], errs[i] = runBounded(t, stdio(t, testserver.ModeQuietDaemon), opts("2025-06-18"))
				done <- i
			}()
		}
		for range n {
			<-done
		}
		for i, c := range caps {
			if errs[i] != nil {
				t.Fatalf("capture %d: %v", i, errs[i])
			}
			pid := helperPid(t, c.Stderr)
			if msg := escapedDiag(c, pid); !strings.Contains(msg, "were killed") {
				t.Errorf("capture %d: no diagnostic names its orphan %d as killed: %+v", i, pid, c.Diagnostics)
			}
			for _, d := range c.Diagnostics {
				if strings.Contains(d.Message, "not by this capture") {
					t.Errorf("capture %d: an orphan left unattributed: %s", i, d.Message)
				}
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("helper %d: kill(pid, 0) = %v after the capture, want ESRCH (killed and reaped)", pid, err)
			}
		}
		<-slowDone
	})
}

// Without a subreaper, a daemon that holds nothing open cannot be traced
// to its server once its parent has exited; the capture is not held up.
func TestQuietDaemonDoesNotHoldTheCaptureUp(t *testing.T) {
	c, err := runBounded(t, stdio(t, testserver.ModeQuietDaemon), opts("2025-06-18"))
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	pid := helperPid(t, c.Stderr)
	// It is known to survive: end it here, before noLeftovers (registered
	// by stdio) looks.
	_ = syscall.Kill(pid, syscall.SIGKILL)
	for i := 0; i < 500 && testserver.Alive(pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// The grace is the configured limit: a server that ignores both stdin's
// EOF and SIGTERM is given it twice before SIGKILL.
func TestShutdownGraceIsTheLimit(t *testing.T) {
	if capture.DefaultLimits.ShutdownGrace != 100*time.Millisecond {
		t.Errorf("default shutdown grace %v, want 100ms", capture.DefaultLimits.ShutdownGrace)
	}
	o := opts("2025-06-18")
	o.Limits.ShutdownGrace = 400 * time.Millisecond
	c, err := runBounded(t, stdio(t, testserver.ModeIgnoreSigterm), o)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	if c.Timings.Shutdown < 2*o.Limits.ShutdownGrace {
		t.Errorf("shutdown took %v, less than twice the grace of %v", c.Timings.Shutdown, o.Limits.ShutdownGrace)
	}
}
