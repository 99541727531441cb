package frontend

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Hints say how to fix a pipeline error in a front end's terms: the flag
// or input that raises each capture limit, and how to ask for the base
// built in a worktree. The packages name limits, never flags.
type Hints struct {
	// Limit maps a capture limit (capture.Limit*) to what raises it.
	Limit map[string]string
	// Baseline is how to ask for the base built in a worktree.
	Baseline string
}

// FlagHints are the command line's.
var FlagHints = Hints{
	Limit: map[string]string{
		capture.LimitStartupTimeout: "--startup-timeout",
		capture.LimitRequestTimeout: "--request-timeout",
		capture.LimitTotalBytes:     "--max-bytes",
		capture.LimitPageCount:      "--max-pages",
	},
	Baseline: "--baseline build with --base-ref",
}

// InputHints are the action's: only the startup timeout is an input.
var InputHints = Hints{
	Limit:    map[string]string{capture.LimitStartupTimeout: "input startup-timeout"},
	Baseline: "input baseline: build with base-ref",
}

// hintedError is an error with advice appended to its text.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// Wrap appends the advice that fits err, if any. The errors it knows end
// the text of whatever wraps them, so the advice reads as their end.
func (h Hints) Wrap(err error) error {
	var le *capture.LimitError
	if errors.As(err, &le) {
		if f := h.Limit[le.Limit]; f != "" {
			return &hintedError{err, "; raise it with " + f + " if the server needs more"}
		}
	}
	var me *check.MissingSnapshotError
	if errors.As(err, &me) {
		return &hintedError{err, ", or use " + h.Baseline}
	}
	return err
}

// SchemaHint turns "no schema is reachable" into the command that fixes
// it.
func SchemaHint(err error, opts spec.Options) error {
	var nf *spec.NotFoundError
	if !errors.As(err, &nf) {
		return err
	}
	where := "the cache directory"
	if opts.CacheDir != "" {
		where = opts.CacheDir
	}
	return fmt.Errorf("%w\nfix: run `mcp-surface schemas fetch` where the network is reachable (it fills %s; in an air-gapped job copy that directory, or run it with --cache-dir DIR and pass --cache-dir DIR here), or pass --schema-dir DIR holding DIR/%s/schema.json for every revision", err, where, nf.Revision)
}

// SnapshotHint says how to raise the bound a snapshot file exceeded.
func SnapshotHint(err error) error {
	var te *infile.TooLargeError
	if errors.As(err, &te) && te.What == manifest.FileLimit {
		return &hintedError{err, fmt.Sprintf("; raise it with %s=BYTES (the default is %s)", MaxSnapshotEnv, infile.FormatBytes(manifest.DefaultMaxFileBytes))}
	}
	return err
}

// RunCheck runs check.Run; its errors say how to fix them in the front
// end's terms (h) and name the command that fetches a missing schema.
func RunCheck(ctx context.Context, o check.Options, h Hints) (*check.Result, error) {
	res, err := check.Run(ctx, o)
	if err != nil {
		return nil, h.Wrap(SchemaHint(err, o.SchemaOptions))
	}
	return res, nil
}
