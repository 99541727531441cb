package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// outliveRuns is how many times TestNothingOutlivesTheProgram repeats each
// case: a few in the default suite, 20 from bench/outlive.sh.
var outliveRuns = flag.Int("outlive-runs", 2, "runs of each case of TestNothingOutlivesTheProgram")

// Whatever ends the real program (Main), or whatever happens to its
// output, no process of its server's group is left: the program is
// SIGKILLed (its watchdog ends the server), its parent is SIGKILLed (it
// stops as on SIGTERM), its stdout and stderr are closed, or they are a
// pipe whose reader exits early (a write fails with EPIPE instead of
// killing it before its cleanup, and it exits with its usual code). Each
// while the server starts (it never answers initialize) and while it
// serves (it never answers tools/list); the server has a child in its
// group that ignores SIGTERM. Each check waits for the event (a file the
// server writes, the group's last process gone), bounded, never for a time.
func TestNothingOutlivesTheProgram(t *testing.T) {
	ends := []string{"program SIGKILLed", "parent SIGKILLed", "stdout and stderr closed", "reader exits early"}
	for _, phase := range []string{"starting", "serving"} {
		for _, end := range ends {
			t.Run(phase+"/"+end, func(t *testing.T) {
				t.Parallel()
				for i := range *outliveRuns {
					outliveOnce(t, phase, end, i)
				}
			})
		}
	}
}

func outliveOnce(t *testing.T, phase, end string, run int) {
	t.Helper()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	listing := filepath.Join(dir, "listing")
	mode, event, limit := testserver.ModeHang, pidFile, []string{"--startup-timeout", "2s"}
	if phase == "serving" {
		mode, event, limit = testserver.ModeHangLists, listing, []string{"--request-timeout", "1s"}
	}
	if end == "program SIGKILLed" || end == "parent SIGKILLed" {
		// Ended by what happens to it, never by its own timeouts.
		limit = []string{"--startup-timeout", "5m", "--request-timeout", "5m"}
	}
	args := append(append([]string{"capture", "-o", filepath.Join(dir, "out.json")}, limit...),
		"--", "env", testserver.EnvFor(mode), testserver.PidFileVar+"="+pidFile,
		testserver.ListingFileVar+"="+listing, testserver.GroupChildVar+"=1", os.Args[0])

	var cmd *exec.Cmd
	switch end {
	case "parent SIGKILLed":
		// The shell waits for the program (a command follows it, so it
		// is not exec'ed in the shell's place).
		cmd = exec.Command("sh", append([]string{"-c", `"$0" "$@"; :`, os.Args[0]}, args...)...)
	case "stdout and stderr closed":
		cmd = exec.Command("sh", append([]string{"-c", `exec "$0" "$@" >&- 2>&-`, os.Args[0]}, args...)...)
	default:
		cmd = exec.Command(os.Args[0], args...)
	}
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var reader *os.File
	if end == "reader exits early" {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr, reader = w, w, r
		defer w.Close()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if reader != nil {
		cmd.Stdout.(*os.File).Close()
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
	}()

	// The event: the server started (or answered the handshake). On a
	// loaded machine the timeout may come first: then the run is over
	// before the server wrote its pid, and its leader has been reaped.
	var waitErr error
	var done bool
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(event); err == nil && fi.Size() > 0 {
			break
		}
		select {
		case waitErr = <-exited:
			done = true
		default:
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %d: the server did not reach %s within a minute", run, phase)
		}
	}
	data, _ := os.ReadFile(pidFile)
	server, _ := strconv.Atoi(string(data))
	if server == 0 {
		if !done {
			t.Fatalf("run %d: %s without a pid", run, event)
		}
		t.Logf("run %d: the program ended (%v) before the server wrote its pid", run, waitErr)
		return
	}

	program := cmd.Process.Pid
	if !done {
		switch end {
		case "program SIGKILLed":
			_ = cmd.Process.Signal(syscall.SIGKILL)
		case "parent SIGKILLed":
			program = childOf(cmd.Process.Pid)
			_ = cmd.Process.Signal(syscall.SIGKILL)
		case "reader exits early":
			reader.Close()
		}
	}
	if !done {
		waitErr = <-exited
	}
	switch end {
	case "stdout and stderr closed", "reader exits early":
		// It ended on its own timeout, with its usual code.
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) || ee.ExitCode() != frontend.ExitFailure {
			t.Errorf("run %d: the program ended with %v, want exit %d", run, waitErr, frontend.ExitFailure)
		}
	}
	start := time.Now()
	left := groupMembers(server)
	for deadline := start.Add(10 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = groupMembers(server) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("run %d: processes of the server's group still run 10s after the program ended: %v", run, left)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if program > 0 {
		for deadline := time.Now().Add(10 * time.Second); testserver.Alive(program) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if testserver.Alive(program) {
			t.Errorf("run %d: the program (pid %d) still runs 10s after its parent was killed", run, program)
		}
	}
	t.Logf("run %d: the server's group was gone %v after the program's end", run, time.Since(start).Round(time.Millisecond))
}

// groupMembers lists the processes of group pgid, zombies left out (they
// have exited; their reaper, init here, may be slow or absent).
func groupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// childOf is the first child of pid (0 for none).
func childOf(pid int) int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}
