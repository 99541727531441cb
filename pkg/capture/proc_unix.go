//go:build unix

package capture

import (
	"os/exec"
	"syscall"
	"time"
)

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

// setProcessGroup starts the server in its own process group so that the
// whole group (the server and anything it spawned) can be signalled.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// waitGroupGone waits, at most d, until no process of the group is left
// (signal delivery is asynchronous: a grandchild may outlive the leader by
// a few milliseconds). Call it only once the leader has been reaped.
func waitGroupGone(cmd *exec.Cmd, d time.Duration) {
	if cmd.Process == nil {
		return
	}
	deadline := time.Now().Add(d)
	for {
		// Members that outlived the leader are reparented to the nearest
		// subreaper; when that is this process (see AdoptOrphans) their
		// zombies are ours to reap. Waiting on the group's id can only
		// reap members of this server's group: the leader was reaped
		// already, and no other child of ours is in it.
		for {
			pid, err := syscall.Wait4(-cmd.Process.Pid, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		if err := syscall.Kill(-cmd.Process.Pid, 0); err == syscall.ESRCH || !time.Now().Before(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
