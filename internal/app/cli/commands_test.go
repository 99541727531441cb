package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
)

// The command table is the one list of subcommands: sorted (the order of
// `mcp-surface help`), unique, each with a summary and a function.
func TestCommandTable(t *testing.T) {
	t.Parallel()
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
		if c.summary == "" || c.run == nil {
			t.Errorf("command %q has no summary or no function", c.name)
		}
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("commands not sorted and unique: %v", names)
	}
	r := run(t, nil, "help")
	for _, n := range names {
		if !strings.Contains(r.stdout, "  "+n+" ") {
			t.Errorf("help does not list %s", n)
		}
		// Every command's usage, its text from help/ included, prints.
		if h := run(t, nil, n, "-h"); h.code != frontend.ExitOK || !strings.Contains(h.stderr, "Usage: mcp-surface "+n) {
			t.Errorf("%s -h: exit %d\n%s", n, h.code, h.stderr)
		}
	}
}
