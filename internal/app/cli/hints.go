package cli

import (
	"errors"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// hints say how to fix a pipeline error in the caller's terms: the flag
// or input that raises each capture limit, and how to ask for the base
// built in a worktree. The packages name limits, never flags.
type hints struct {
	limit    map[string]string
	baseline string
}

// flagHints are the command line's.
var flagHints = hints{
	limit: map[string]string{
		capture.LimitStartupTimeout: "--startup-timeout",
		capture.LimitRequestTimeout: "--request-timeout",
		capture.LimitTotalBytes:     "--max-bytes",
		capture.LimitPageCount:      "--max-pages",
	},
	baseline: "--baseline build with --base-ref",
}

// inputHints are the action's: only the startup timeout is an input.
var inputHints = hints{
	limit:    map[string]string{capture.LimitStartupTimeout: "input startup-timeout"},
	baseline: "input baseline: build with base-ref",
}

// hintedError is an error with advice appended to its text.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// wrap appends the advice that fits err, if any. The errors it knows end
// the text of whatever wraps them, so the advice reads as their end.
func (h hints) wrap(err error) error {
	var le *capture.LimitError
	if errors.As(err, &le) {
		if f := h.limit[le.Limit]; f != "" {
			return &hintedError{err, "; raise it with " + f + " if the server needs more"}
		}
	}
	var me *check.MissingSnapshotError
	if errors.As(err, &me) {
		return &hintedError{err, ", or use " + h.baseline}
	}
	return err
}

// schemaHint turns "no schema is reachable" into the command that fixes
// it.
func schemaHint(err error, opts spec.Options) error {
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
