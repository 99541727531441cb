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

// A mistyped command or flag is one line that names what was meant,
// never the whole list of flags.
func TestMistypedCommandAndFlag(t *testing.T) {
	code, stdout, stderr := runCLI(t, nil, "snapshto", "--check")
	if code != frontend.ExitFailure || stderr != "mcp-surface: unknown command \"snapshto\" (did you mean \"snapshot\"?); run `mcp-surface help` for the list\n" || stdout != "" {
		t.Errorf("unknown command: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, nil, "diff", "--fial-on", "error", "a.json", "b.json")
	if code != frontend.ExitFailure || stderr != "mcp-surface diff: unknown flag -fial-on (did you mean \"--fail-on\"?); run `mcp-surface diff -h` for the flags\n" {
		t.Errorf("unknown flag: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, nil, "check", "--jobs", "x")
	if code != frontend.ExitFailure || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a bad flag value: exit %d, want one line:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, nil, "diff", "-h"); code != frontend.ExitOK || !strings.Contains(stderr, "-fail-on string") {
		t.Errorf("-h: exit %d, want the flags:\n%s", code, stderr)
	}
}
