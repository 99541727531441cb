package action

import (
	"fmt"
	"io"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	appversion "github.com/mcp-surface/mcp-surface/internal/app/version"
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

// version is this binary's version as one token, for the user agent.
var version = appversion.Get().Short()

// schemaBaseURL replaces the published location of the schemas (tests:
// never the network).
var schemaBaseURL = ""

// usageError is a mistake in the inputs: the step fails (exit 2) with the
// message alone.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// logf formats a log line whose arguments may hold server text.
func (a *actionRun) logf(format string, args ...any) string {
	return frontend.LogText(fmt.Sprintf(format, args...))
}
