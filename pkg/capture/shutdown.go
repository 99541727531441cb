package capture

import "sync"

// pendingShutdown is the part of a capture that a deferred shutdown
// (Options.DeferShutdown) is still producing.
type pendingShutdown struct {
	done chan struct{}
	// seen is how many frames the capture held when Run returned.
	seen int
	// final is the capture as the shutdown left it: all frames (the first
	// seen forgotten), diagnostics, stderr and timings.
	final Capture
}

// inFlight counts the deferred shutdowns of this process not yet done.
var inFlight = newShutdownCount()

// shutdownCount is a count that may be waited for while it grows: a
// sync.WaitGroup forbids an Add from zero during a Wait, which is what
// happens when one in-process run (a test, a program running two
// pipelines) waits for its shutdowns while another starts a capture.
type shutdownCount struct {
	mu   sync.Mutex
	zero sync.Cond // broadcast when n drops to 0
	n    int
}

func newShutdownCount() *shutdownCount {
	c := &shutdownCount{}
	c.zero.L = &c.mu
	return c
}

func (c *shutdownCount) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *shutdownCount) Done() {
	c.mu.Lock()
	c.n--
	if c.n == 0 {
		c.zero.Broadcast()
	}
	c.mu.Unlock()
}

// Wait returns when the count is 0.
func (c *shutdownCount) Wait() {
	c.mu.Lock()
	for c.n > 0 {
		c.zero.Wait()
	}
	c.mu.Unlock()
}

// Wait waits until the server of a capture made with Options.DeferShutdown
// has been stopped and reaped, then completes the capture with what came
// after Run returned: frames received during the shutdown, diagnostics
// made by it (processes that escaped the server's group, stdout noise),
// the final end of stderr, Timings.Shutdown and Timings.Total. Until then
// those fields hold what the session saw. It returns at once for any other
// capture, including the zero Capture, and may be called more than once.
// It changes c, so it must not run while another goroutine reads c.
func (c *Capture) Wait() {
	p := c.pending
	if p == nil {
		return
	}
	<-p.done
	c.pending = nil
	if late := p.final.Frames[min(p.seen, len(p.final.Frames)):]; len(late) > 0 {
		c.Frames = append(c.Frames, late...)
		c.Exchanges = exchanges(c.Frames)
		shareFrames(c.Exchanges, c.Frames)
	}
	c.Diagnostics = p.final.Diagnostics
	c.Stderr = p.final.Stderr
	c.Timings.Shutdown = p.final.Timings.Shutdown
	c.Timings.Total = p.final.Timings.Total
}

// WaitShutdowns waits until every deferred shutdown of this process (see
// Options.DeferShutdown) is done: every server it started is reaped. A
// program that defers shutdowns calls it on its way out, whatever path it
// took, so that no server outlives it even when a capture was dropped
// without Wait. It does not complete any capture; Wait does.
func WaitShutdowns() { inFlight.Wait() }
