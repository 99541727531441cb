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
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
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

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
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
			fmt.Fprintf(stderr, "mcp-surface: %s: stopping; send it again to exit at once\n", signalName(s))
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
