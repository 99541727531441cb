//go:build unix

package testserver

import "syscall"

// newSession starts a process as the leader of a new session, outside its
// parent's process group.
func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
