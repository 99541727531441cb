//go:build !unix

package testserver

import "syscall"

// newSession: sessions are a unix notion; the helper modes then only test
// that a helper outliving the server does not hold the capture up.
func newSession() *syscall.SysProcAttr { return nil }
