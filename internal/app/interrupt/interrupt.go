// Package interrupt turns what asks the program to stop (SIGINT, SIGTERM,
// SIGHUP, and the exit of the process that started it) into the
// cancellation of a context, so that a command stops what it waits for,
// ends its servers and reports; a second request exits at once. It is
// the command line's: the one place that touches the process's signals.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
)

// Watch starts watching the process's signals and its parent: the first
// cancels the context it returns (with an *Error as its cause), a second
// calls exit with frontend.ExitInterrupted. What it says goes to stderr.
// stop ends the watch and gives the signals back.
//
// A write to a closed pipe on stdout or stderr (a reader such as head
// that went away, a test runner that gave up) would end a Go program at
// once with SIGPIPE, before any cleanup, leaving its servers running.
// With SIGPIPE notified, the write fails with EPIPE instead, like a write
// to any other file: the command goes on, stops its servers and exits
// with its usual code. Notified rather than ignored: an ignored signal
// stays ignored in the servers we start.
func Watch(parent context.Context, stderr io.Writer, exit func(int)) (ctx context.Context, stop func()) {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// A parent that goes away (a cancelled CI job, a test runner's worker
	// that was killed) is taken as a request to stop, as SIGTERM is: no
	// one reads what we would still print, and the servers must end now,
	// not at the next timeout.
	if gone := parentGone(); gone != nil {
		go func() {
			<-gone
			sigs <- parentExited{}
		}()
	}
	ctx, end := interruptible(parent, sigs, stderr, exit)
	return ctx, func() {
		end()
		signal.Stop(sigs)
	}
}

// Error is the cause of a context cancelled by a signal.
type Error struct{ sig os.Signal }

func (e *Error) Error() string { return "interrupted by " + signalName(e.sig) }

// parentExited stands for the death of the process that started this one
// among the signals that stop the program.
type parentExited struct{}

func (parentExited) String() string { return "the exit of the process that started mcp-surface" }
func (parentExited) Signal()        {}

// signalNames are the names the messages give the signals that stop the
// program.
var signalNames = map[os.Signal]string{os.Interrupt: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

func signalName(s os.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return s.String()
}

// interruptible returns a context that the first signal on sigs cancels
// (with an *Error as its cause), so that the command stops what it waits
// for, cleans up and reports; a second signal calls exit at once, for
// whatever does not stop. stop ends the watch.
func interruptible(parent context.Context, sigs <-chan os.Signal, stderr io.Writer, exit func(int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			// Said first, so that it comes before whatever the
			// stopped command reports.
			if _, ok := s.(parentExited); ok {
				fmt.Fprintf(stderr, "mcp-surface: the process that started it exited: stopping\n")
			} else {
				fmt.Fprintf(stderr, "mcp-surface: %s: stopping; send it again to exit at once\n", signalName(s))
			}
			cancel(&Error{s})
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "mcp-surface: %s again: exiting\n", signalName(s))
			exit(frontend.ExitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}
