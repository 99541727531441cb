//go:build linux

package capture_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// KillAll ends a server whose capture is still waiting for its handshake
// (what a second Ctrl-C does before the program exits at once): the
// capture returns with an error and no process is left (stdio's cleanup
// checks the marker).
func TestKillAllEndsAStartingServer(t *testing.T) {
	target := stdio(t, testserver.ModeSlowStart)
	pidFile := filepath.Join(t.TempDir(), "pid")
	target.Env = append(target.Env, testserver.PidFileVar+"="+pidFile)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := capture.Run(ctx, target, capture.Options{Limits: capture.Limits{StartupTimeout: time.Minute}})
		done <- err
	}()
	var pid int
	for pid == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the server never wrote its pid")
		case <-time.After(10 * time.Millisecond):
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if n := capture.KillAll(); n != 1 {
		t.Errorf("KillAll signalled %d servers, want 1", n)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the capture of a killed server succeeded")
		}
	case <-ctx.Done():
		t.Fatal("the capture did not return after KillAll")
	}
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Errorf("server pid %d still exists after KillAll: %v", pid, err)
	}
	if n := capture.KillAll(); n != 0 {
		t.Errorf("KillAll after the reap signalled %d servers, want 0", n)
	}
}
