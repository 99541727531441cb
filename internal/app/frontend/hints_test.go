package frontend

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
)

// The packages name a limit; the command line adds its flag, the action
// its input (and nothing where no input raises the limit).
func TestHints(t *testing.T) {
	startup := fmt.Errorf("capturing x: %w", &capture.LimitError{Limit: capture.LimitStartupTimeout, Value: "30s"})
	pages := fmt.Errorf("capturing x: %w", &capture.LimitError{Limit: capture.LimitPageCount, Value: "1000"})
	missing := fmt.Errorf("baseline of x: %w", &check.MissingSnapshotError{Path: "mcp-surface.json"})
	for _, tc := range []struct {
		h    Hints
		err  error
		want string
	}{
		{FlagHints, startup, "capturing x: startup timeout limit of 30s reached; raise it with --startup-timeout if the server needs more"},
		{FlagHints, pages, "capturing x: page count limit of 1000 reached; raise it with --max-pages if the server needs more"},
		{InputHints, startup, "capturing x: startup timeout limit of 30s reached; raise it with input startup-timeout if the server needs more"},
		{InputHints, pages, "capturing x: page count limit of 1000 reached"},
		{FlagHints, missing, "baseline of x: mcp-surface.json does not exist: run `mcp-surface snapshot` and commit it, or use --baseline build with --base-ref"},
		{FlagHints, errors.New("other"), "other"},
	} {
		got := tc.h.Wrap(tc.err)
		if got.Error() != tc.want || !errors.Is(got, tc.err) {
			t.Errorf("Wrap(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	if FlagHints.Wrap(nil) != nil {
		t.Errorf("Wrap(nil) is not nil")
	}
}
