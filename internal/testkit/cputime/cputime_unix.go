//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used is the process's user+system CPU time so far; 0 where it cannot
// be read.
func Used() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
