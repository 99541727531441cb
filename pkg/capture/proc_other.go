//go:build !unix

package capture

import (
	"os"
	"os/exec"
	"time"
)

const (
	sigTerm = 1
	sigKill = 2
)

func setProcessGroup(cmd *exec.Cmd) {}

// signalGroup kills the process; process groups are a unix notion.
func signalGroup(cmd *exec.Cmd, sig int) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(os.Kill)
	}
}

func waitGroupGone(cmd *exec.Cmd, d time.Duration) {}
