package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
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

// maxSnapshotEnv raises the bound on a snapshot file's size for every
// command (and the action), since several commands read snapshots and a
// flag on each would say the same thing.
const maxSnapshotEnv = "MCP_SURFACE_MAX_SNAPSHOT_BYTES"

// snapshotLimit is the bound on a snapshot file's size: maxSnapshotEnv, or
// 0 for manifest.DefaultMaxFileBytes.
func snapshotLimit(env *Env) (int64, error) {
	s := env.Getenv(maxSnapshotEnv)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, usagef("%s=%q: give a positive number of bytes", maxSnapshotEnv, s)
	}
	return n, nil
}

// inputHint says how to raise the bound a snapshot file exceeded.
func inputHint(err error) error {
	var te *infile.TooLargeError
	if errors.As(err, &te) && te.What == manifest.FileLimit {
		return &hintedError{err, fmt.Sprintf("; raise it with %s=BYTES (the default is %s)", maxSnapshotEnv, infile.FormatBytes(manifest.DefaultMaxFileBytes))}
	}
	return err
}
