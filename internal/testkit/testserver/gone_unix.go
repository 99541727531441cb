//go:build unix

package testserver

import (
	"testing"
	"time"
)

// AssertGone fails t when pid still runs five seconds after the command
// that started it returned (a zombie counts as gone, see Alive).
func AssertGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if !Alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("server pid %d still runs after the command returned", pid)
}
