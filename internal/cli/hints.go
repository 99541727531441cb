package cli

import (
	"errors"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// limitFlags are the flags that raise each capture limit.
var limitFlags = map[string]string{
	capture.LimitStartupTimeout: "--startup-timeout",
	capture.LimitRequestTimeout: "--request-timeout",
	capture.LimitTotalBytes:     "--max-bytes",
	capture.LimitPageCount:      "--max-pages",
}

// flagHint says how to raise a limit on the command line.
func flagHint(limit string) string {
	if f, ok := limitFlags[limit]; ok {
		return "; raise it with " + f + " if the server needs more"
	}
	return ""
}

// inputHint says how to raise a limit in the action: only the startup
// timeout is an input.
func inputHint(limit string) string {
	if limit == capture.LimitStartupTimeout {
		return "; raise it with input startup-timeout if the server needs more"
	}
	return ""
}

// hintedError is an error with advice appended to its text.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// withHint appends hint's advice when err is a capture limit.
func withHint(err error, hint func(limit string) string) error {
	var le *capture.LimitError
	if err == nil || hint == nil || !errors.As(err, &le) {
		return err
	}
	if h := hint(le.Limit); h != "" {
		return &hintedError{err, h}
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
