package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// TestGuardLeavesNoServer: whatever ends the guard (SIGKILL, SIGTERM, the
// client closing its stdin), no process of its server's group is left;
// the server has a child in its group that ignores SIGTERM. A closed
// stdin and SIGTERM are how a client ends a stdio server: exit 0.
func TestGuardLeavesNoServer(t *testing.T) {
	path := guardLock(t)
	for _, end := range []string{"guard SIGKILLed", "guard SIGTERMed", "stdin closed", "parent SIGKILLed"} {
		t.Run(end, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			args := []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--",
				"env", testserver.EnvFor(testserver.ModeHangLists), testserver.PidFileVar + "=" + pidFile, testserver.GroupChildVar + "=1", os.Args[0]}
			cmd := exec.Command(os.Args[0], args...)
			if end == "parent SIGKILLed" {
				// The shell waits for the guard (a command follows it).
				cmd = exec.Command("sh", append([]string{"-c", `"$0" "$@"; :`, os.Args[0]}, args...)...)
			}
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			defer func() { _ = cmd.Process.Kill() }()
			server := 0
			for deadline := time.Now().Add(time.Minute); server == 0; time.Sleep(5 * time.Millisecond) {
				data, _ := os.ReadFile(pidFile)
				server, _ = strconv.Atoi(string(data))
				if time.Now().After(deadline) {
					t.Fatal("the server did not start within a minute")
				}
			}
			guard := cmd.Process.Pid
			switch end {
			case "parent SIGKILLed":
				guard = childOf(cmd.Process.Pid)
				_ = cmd.Process.Signal(syscall.SIGKILL)
			case "guard SIGKILLed":
				_ = cmd.Process.Signal(syscall.SIGKILL)
			case "guard SIGTERMed":
				_ = cmd.Process.Signal(syscall.SIGTERM)
			case "stdin closed":
				stdin.Close()
			}
			err = <-exited
			var ee *exec.ExitError
			if end != "guard SIGKILLed" && end != "parent SIGKILLed" && err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 0) {
				t.Errorf("the guard ended with %v, want exit 0", err)
			}
			left := groupMembers(server)
			for deadline := time.Now().Add(10 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = groupMembers(server) {
				time.Sleep(10 * time.Millisecond)
			}
			if len(left) > 0 {
				t.Errorf("processes of the server's group still run 10s after the guard ended: %v", left)
				for _, pid := range left {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			for deadline := time.Now().Add(10 * time.Second); guard > 0 && testserver.Alive(guard) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			if guard > 0 && testserver.Alive(guard) {
				t.Errorf("the guard (pid %d) still runs 10s after its end", guard)
			}
		})
	}
}
