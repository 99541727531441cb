//go:build unix

package diff

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: on a loaded machine it
// measures the work, where wall time also measures the wait for a CPU.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
