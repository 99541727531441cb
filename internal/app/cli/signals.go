package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// Main is the program with the process's own arguments, streams,
// environment and signals; main only calls it.
func Main() int {
	// Process-wide and for good, so it is the program's choice, made here
	// and not in RunEnv (which tests run in process): on Linux, daemons a
	// server orphaned become ours, and its capture kills and reaps them.
	_ = capture.AdoptOrphans()
	// A write to a closed pipe on stdout or stderr (a reader such as head
	// that went away, a test runner that gave up) would end a Go program
	// at once with SIGPIPE, before any cleanup, leaving its servers
	// running. With SIGPIPE notified, the write fails with EPIPE instead,
	// like a write to any other file: the command goes on, stops its
	// servers and exits with its usual code. Notified rather than ignored:
	// an ignored signal stays ignored in the servers we start.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
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
	// A second signal exits at once, but not before the servers still
	// running (one may be stuck starting) are killed: none outlives us.
	exitNow := func(code int) {
		capture.KillAll()
		os.Exit(code)
	}
	ctx, stop := interruptible(context.Background(), sigs, os.Stderr, exitNow)
	defer stop()
	code := RunEnv(ctx, os.Args[1:], &Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Environ: os.Environ,
		IsTerminal: func() bool {
			fi, err := os.Stdout.Stat()
			return err == nil && fi.Mode()&os.ModeCharDevice != 0
		},
	})
	// Every capture has ended (RunEnv waits for their shutdowns): a child
	// still here is an orphan none of them claimed, such as the daemon of
	// a server cancelled while it started one. None outlives the program.
	capture.ReapStrays(time.Second)
	return code
}

// interruptedError is the cause of a context cancelled by a signal.
type interruptedError struct{ sig os.Signal }

func (e *interruptedError) Error() string { return "interrupted by " + signalName(e.sig) }

// parentExited stands for the death of the process that started this one
// among the signals that stop the program.
type parentExited struct{}

func (parentExited) String() string { return "the exit of the process that started mcp-surface" }
func (parentExited) Signal()        {}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// interruptible returns a context that the first signal on sigs cancels
// (with an *interruptedError as its cause), so that the command stops
// what it waits for, cleans up and reports; a second signal calls exit at
// once, for whatever does not stop. stop ends the watch.
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
			cancel(&interruptedError{s})
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
