package capture

import (
	"errors"
	"io"
	"os"
	"sync"
)

// Process is a stdio server started for a program that carries its
// traffic itself (a proxy) rather than capturing it: the caller writes
// its stdin and reads its stdout, and its stderr goes where the caller
// said. It is started and ended as a capture's server is: in a process
// group of its own, through the exec shim and registered with the
// watchdog when orphans are adopted (AdoptOrphans), among the servers
// KillAll ends; Stop ends the group and whatever left it.
type Process struct {
	sc       *stdioConn
	stdout   *io.PipeReader
	stopOnce sync.Once
	diags    []Diagnostic
}

// StartProcess starts the server c (its Env and Dir as given: a nil Env
// is an empty environment) with its stderr copied to stderr (nil:
// discarded). lim supplies ShutdownGrace. Read Stdout until it ends,
// then call Stop; Stop must be called whatever happened.
func StartProcess(c Command, lim Limits, stderr io.Writer) (*Process, error) {
	lim = lim.withDefaults()
	if len(c.Argv) == 0 {
		return nil, errors.New("no server command given: pass it after --")
	}
	// The server's stdout is read to its end whatever the caller does,
	// so that the server never blocks on a full pipe and stop sees it
	// close; the caller reads it through pr until Stop.
	pr, pw := io.Pipe()
	sc, err := c.start(lim, pw, stderr, func(sc *stdioConn, stdout *os.File) {
		defer close(sc.readDone)
		if _, err := io.Copy(pw, stdout); err != nil {
			_, _ = io.Copy(io.Discard, stdout)
		}
		pw.Close()
	})
	if err != nil {
		return nil, err
	}
	return &Process{sc: sc, stdout: pr}, nil
}

// Stdin is the server's stdin. Closing it asks the server to exit, as the
// end of a session does.
func (p *Process) Stdin() io.WriteCloser { return stdinWriter{p.sc} }

// Stdout is the server's stdout. It ends when the server and everything
// holding the pipe are gone; once Stop is called, reads fail.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Exited is closed when the server process has exited (and was reaped).
func (p *Process) Exited() <-chan struct{} { return p.sc.exited }

// ExitErr is the server's exit status once Exited is closed (nil for a
// clean exit).
func (p *Process) ExitErr() error {
	select {
	case <-p.sc.exited:
		return p.sc.waitErr
	default:
		return nil
	}
}

// Stop ends the server as a capture's shutdown does: its stdin closed,
// a grace to exit, SIGTERM, then SIGKILL to its process group and to
// the descendants that left it; it returns once they are reaped, with
// the diagnostics of that shutdown (escaped processes). What the server
// writes from then on is read and dropped. Safe to call more than once.
func (p *Process) Stop() []Diagnostic {
	p.stopOnce.Do(func() {
		p.stdout.CloseWithError(errStoppedReading)
		p.sc.stop()
		p.diags = p.sc.diagnostics()
	})
	return p.diags
}
