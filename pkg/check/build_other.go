//go:build !unix

package check

import "os/exec"

// inGroup leaves the build as exec starts it: process groups are a unix
// notion, and the context kills the build's own process.
func inGroup(cmd *exec.Cmd) {}
