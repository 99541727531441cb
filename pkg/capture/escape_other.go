//go:build !linux

package capture

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// Without Linux's /proc and pidfds, descendants that leave the server's
// process group are not tracked: shutdown still bounds how long it waits
// for them to release the server's output, then stops reading it.

type tracked struct{}

type adoption struct{}

func trackDescendants(leader int, a *adoption) *tracked   { return &tracked{} }
func (t *tracked) killEscaped(pgid int) []int             { return nil }
func (t *tracked) killPipeHolders(files []*os.File) []int { return nil }
func (t *tracked) reap(d time.Duration)                   {}
func (t *tracked) release()                               {}
func (t *tracked) unownedPids() []int                     { return nil }

func viaShim(cmd *exec.Cmd)             {}
func watchStart(pid int)                {}
func watchEnd(pid int)                  {}
func beginAdoption() *adoption          { return nil }
func (a *adoption) started(leader int)  {}
func endAdoption(a *adoption) *adoption { return nil }

// AdoptOrphans makes the process a child subreaper on Linux; elsewhere it
// returns an error wrapping errors.ErrUnsupported.
func AdoptOrphans() error {
	return fmt.Errorf("adopting orphaned processes: %w (Linux only)", errors.ErrUnsupported)
}

// ReapStrays does nothing where orphans are not adopted.
func ReapStrays(d time.Duration) []int { return nil }
