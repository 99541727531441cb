package cli

import (
	"context"
	"os"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/interrupt"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// Main is the program with the process's own arguments, streams,
// environment and signals; main only calls it.
func Main() int {
	// Process-wide and for good, so it is the program's choice, made here
	// and not in RunEnv (which tests run in process): on Linux, daemons a
	// server orphaned become ours, and its capture kills and reaps them.
	_ = capture.AdoptOrphans()
	// A second signal exits at once, but not before the servers still
	// running (one may be stuck starting) are killed: none outlives us.
	ctx, stop := interrupt.Watch(context.Background(), os.Stderr, func(code int) {
		capture.KillAll()
		os.Exit(code)
	})
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
