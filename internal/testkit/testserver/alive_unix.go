//go:build unix

package testserver

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Alive reports whether pid runs: it exists and, where /proc says so, is
// not a zombie (a process that has exited and waits for its reaper is
// gone for every purpose a test checks). The tests that assert that no
// server outlives its capture share it.
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no procfs: trust kill(0)
	}
	// Format: pid (comm) state ...; comm may itself hold ") ".
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}
