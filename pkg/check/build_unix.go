//go:build unix

package check

import (
	"os/exec"
	"syscall"
)

// inGroup starts a build in a process group of its own, killed as a
// whole when its context is done: a build's compilers are its children.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
