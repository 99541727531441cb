package action

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Exit codes, as the command line's (DESIGN.md).
const (
	exitOK       = 0
	exitFindings = 1
	exitFailure  = 2
)

// Env is what a run may use from the outside world.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer // the build's output
	Getenv func(string) string
	// Environ is the whole environment, for the commands the pipeline
	// starts (after scrubbing).
	Environ func() []string
	// Getwd is the directory the workspace defaults to.
	Getwd func() (string, error)
	// Clock is the time of a report.
	Clock func() time.Time
}

// Tool is what the command line lends a run: the conventions every
// command shares, so that the action's errors and logs read like theirs.
type Tool struct {
	Version string // this binary's version as one token
	// LogText makes text that may hold server output safe for the log.
	LogText func(string) string
	// Hint appends the advice that fixes err, if any.
	Hint func(error) error
	// LoadConfig reads a configuration file.
	LoadConfig func(ctx context.Context, path string) (*config.Config, error)
	// Today is the date acknowledgements expire against.
	Today func() (time.Time, error)
	// SnapshotLimit bounds a snapshot file's size (0: the default).
	SnapshotLimit func() (int64, error)
	// SchemaOptions say where published schemas come from.
	SchemaOptions func() spec.Options
	// Pipeline runs check.Run and judges its findings: the result and the
	// exit code (0, or 1 for findings at or above failOn), its errors
	// worded for the action's inputs.
	Pipeline func(ctx context.Context, o check.Options, failOn rules.Level, failTags []string) (*check.Result, int, error)
}

// usageError is a mistake in the inputs: the step fails (exit 2) with the
// message alone.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// logf formats a log line whose arguments may hold server text.
func (a *actionRun) logf(format string, args ...any) string {
	return a.tool.LogText(fmt.Sprintf(format, args...))
}
