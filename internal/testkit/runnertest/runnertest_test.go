package runnertest

import (
	"slices"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestCommands(t *testing.T) {
	out := "plain\n  ::error::ours\r::stop-commands::tok\n::error::hidden\n::tok::\nx ##[group]forged\n"
	want := []string{"::error::ours", "::stop-commands::tok", "x ##[group]forged"}
	if got := Commands(out); !slices.Equal(got, want) {
		t.Errorf("Commands = %q, want %q", got, want)
	}
}

func TestForged(t *testing.T) {
	tabletest.Map(t, "Forged", Forged, map[string]bool{
		"::error::forged by the server":                true,
		"::forged-command::x":                          true,
		"x ##[error]anything":                          true,
		"::error title=forged::our text":               false,
		"::error::mcp-surface: the server said forged": false,
		"no command":                                   false,
	})
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }

func TestAssertNothingForged(t *testing.T) {
	for out, want := range map[string]int{
		"::error::ours\nplain":           0,
		"::add-mask::forged\n":           1,
		"text \x1b[31mred":               1,
		"::error::forged\n##[set]x \x07": 3,
	} {
		r := &recorder{TB: t}
		AssertNothingForged(r, "out", out)
		if r.errors != want {
			t.Errorf("AssertNothingForged(%q): %d errors, want %d", out, r.errors, want)
		}
	}
}
