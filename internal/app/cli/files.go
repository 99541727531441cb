package cli

import (
	"context"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
)

// stdoutPath is the output file name that means standard output.
const stdoutPath = "-"

// checkOutput refuses, before any work, an output that cannot be written
// (a missing or read-only directory): a capture must not run for minutes
// to fail at the end. flagName names the flag in the message.
func checkOutput(flagName, path string) error {
	if path == "" || path == stdoutPath {
		return nil
	}
	if err := outfile.Check(path); err != nil {
		return fmt.Errorf("%s: %w", flagName, err)
	}
	return nil
}

// writeOutput writes data to path whole (outfile), or to stdout for "-".
func writeOutput(ctx context.Context, env *Env, path string, data []byte) error {
	if path == stdoutPath {
		_, err := env.Stdout.Write(data)
		return err
	}
	return outfile.Write(ctx, path, data)
}

// maxSnapshotEnv raises the bound on a snapshot file's size (see
// frontend.MaxSnapshotEnv).
const maxSnapshotEnv = frontend.MaxSnapshotEnv
