// Command mcp-surface guards the advertised surface of MCP servers in CI.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcp-surface/mcp-surface/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.RunEnv(ctx, os.Args[1:], &cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Environ: os.Environ,
		IsTerminal: func() bool {
			fi, err := os.Stdout.Stat()
			return err == nil && fi.Mode()&os.ModeCharDevice != 0
		},
	})
	stop()
	os.Exit(code)
}
