//go:build linux

package capture_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// marked counts the running (not zombie) processes whose environment
// holds the marker of a stdio target.
func marked(t *testing.T, cmd capture.Command) int {
	t.Helper()
	marker := cmd.Env[len(cmd.Env)-1]
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !strings.Contains(string(env), marker+"\x00") {
			continue
		}
		if stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat"); !strings.Contains(string(stat), ") Z ") {
			n++
		}
	}
	return n
}

// With DeferShutdown, Run returns with the capture while the server is
// still being stopped; Wait returns once it is reaped and completes the
// timings. The grace here is long so that the server is still there.
func TestDeferredShutdownOverlapsTheCaller(t *testing.T) {
	target := stdio(t, testserver.ModeIgnoreSigterm)
	o := opts("2025-06-18")
	o.Limits.ShutdownGrace = 300 * time.Millisecond
	o.DeferShutdown = true
	start := time.Now()
	c, err := runBounded(t, target, o)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	returned := time.Since(start)
	if len(c.Pages) == 0 || len(c.Frames) == 0 {
		t.Fatalf("the capture came back without its pages or frames: %d pages, %d frames", len(c.Pages), len(c.Frames))
	}
	if n := marked(t, target); n == 0 {
		t.Errorf("the server was already gone when Run returned (after %v); the shutdown was not deferred", returned)
	}
	if c.Timings.Shutdown != 0 {
		t.Errorf("Timings.Shutdown = %v before Wait, want 0", c.Timings.Shutdown)
	}
	frames := len(c.Frames)
	c.Wait()
	if n := marked(t, target); n != 0 {
		t.Errorf("%d server process(es) still running after Wait", n)
	}
	if c.Timings.Shutdown < 2*o.Limits.ShutdownGrace {
		t.Errorf("after Wait, Timings.Shutdown = %v, want at least twice the grace of %v", c.Timings.Shutdown, o.Limits.ShutdownGrace)
	}
	if len(c.Frames) < frames {
		t.Errorf("Wait lost frames: %d, had %d", len(c.Frames), frames)
	}
	c.Wait() // a second Wait returns at once
	var zero capture.Capture
	zero.Wait()
}

// A deferred capture that fails still has its server reaped, and a caller
// that drops the capture without Wait can rely on WaitShutdowns before it
// exits; noLeftovers (registered by stdio) checks that nothing survives.
func TestDeferredShutdownOnErrorAndWithoutWait(t *testing.T) {
	o := opts("2025-06-18")
	o.Limits.RequestTimeout = 500 * time.Millisecond
	o.DeferShutdown = true
	hang := stdio(t, testserver.ModeHangLists)
	if _, err := runBounded(t, hang, o); err == nil {
		t.Fatal("a server that never answers its lists: no error")
	}
	stubborn := stdio(t, testserver.ModeIgnoreSigterm)
	if _, err := runBounded(t, stubborn, o); err != nil {
		t.Fatalf("capture: %v", err)
	}
	done := make(chan struct{})
	go func() {
		capture.WaitShutdowns()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("WaitShutdowns did not return")
	}
	for _, target := range []capture.Command{hang, stubborn} {
		if n := marked(t, target); n != 0 {
			t.Errorf("%d process(es) of %s still running after WaitShutdowns", n, target.Env[len(target.Env)-2])
		}
	}
}

// A helper that escaped the group is named by the shutdown; with a
// deferred shutdown the diagnostic is in the capture after Wait.
func TestDeferredShutdownDiagnosticsAfterWait(t *testing.T) {
	o := opts("2025-06-18")
	o.DeferShutdown = true
	c, err := runBounded(t, stdio(t, testserver.ModeDetachedHelper), o)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	c.Wait()
	pid := helperPid(t, c.Stderr)
	if msg := escapedDiag(c, pid); !strings.Contains(msg, "outside its process group") {
		t.Errorf("no diagnostic names the escaped helper %d after Wait: %+v", pid, c.Diagnostics)
	}
	if testserver.Alive(pid) {
		t.Errorf("helper %d survived the capture", pid)
	}
}

// Deferred or not, a capture reads the same surface.
func TestDeferredShutdownSameCapture(t *testing.T) {
	o := opts("2025-11-25")
	want := mustRun(t, stdio(t, testserver.ModeFull), o)
	o.DeferShutdown = true
	got := mustRun(t, stdio(t, testserver.ModeFull), o)
	got.Wait()
	if a, b := string(capturetest.Encode(t, capturetest.Build(t, want))), string(capturetest.Encode(t, capturetest.Build(t, got))); a != b {
		t.Errorf("deferred capture's snapshot differs")
	}
	if len(got.Exchanges) != len(want.Exchanges) {
		t.Errorf("exchanges: %d deferred, %d not", len(got.Exchanges), len(want.Exchanges))
	}
}
