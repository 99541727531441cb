package interrupt

import (
	"os"

	"golang.org/x/sys/unix"
)

// parentGone returns a channel that is closed when the process that
// started this one exits, or nil when that cannot be watched (no parent
// but init, or a kernel without pidfds).
//
// A pidfd of the parent, rather than a parent-death signal
// (PR_SET_PDEATHSIG): that signal is sent when the parent's thread that
// started us exits, not the parent (a parent may start us from a worker
// thread it later ends), and it would not tell a parent's death from the
// same signal sent by a user. A pidfd becomes readable when its process
// exits, whatever thread started us, whatever killed it (SIGKILL
// included). A parent that died before this runs is not seen: we were
// reparented already and cannot tell.
func parentGone() <-chan struct{} {
	ppid := os.Getppid()
	if ppid <= 1 {
		return nil
	}
	fd, err := unix.PidfdOpen(ppid, 0)
	if err != nil {
		return nil
	}
	gone := make(chan struct{})
	if os.Getppid() != ppid {
		// It died between the two calls: fd may name another process.
		unix.Close(fd)
		close(gone)
		return gone
	}
	go func() {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, -1)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n == 0 {
				return // cannot watch: never report a death not seen
			}
			close(gone)
			return
		}
	}()
	return gone
}
