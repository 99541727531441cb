package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestTable(t *testing.T) {
	if err := theCatalog().err; err != nil {
		t.Fatal(err)
	}
	all := All()
	if len(all) == 0 {
		t.Fatal("empty rule table")
	}
	seen := map[string]bool{}
	for i, r := range all {
		if seen[r.ID] {
			t.Errorf("duplicate rule ID %q", r.ID)
		}
		seen[r.ID] = true
		if i > 0 && all[i-1].ID > r.ID {
			t.Errorf("table not sorted: %q before %q", all[i-1].ID, r.ID)
		}
		if !kebab.MatchString(r.ID) {
			t.Errorf("%s: ID is not kebab-case", r.ID)
		}
		if strings.TrimSpace(r.Summary) == "" {
			t.Errorf("%s: no summary", r.ID)
		}
		if strings.HasSuffix(r.Summary, ".") || strings.Contains(r.Summary, "\n") {
			t.Errorf("%s: summary must be one line without a trailing period: %q", r.ID, r.Summary)
		}
		if strings.TrimSpace(r.Help) == "" {
			t.Errorf("%s: no help", r.ID)
		}
		switch r.Kind {
		case KindChange:
			if r.Severity.Rank() == 0 {
				t.Errorf("%s: change rule has invalid severity %q", r.ID, r.Severity)
			}
			if r.Level != r.Severity.Level() {
				t.Errorf("%s: level %q does not match severity %q (%q)", r.ID, r.Level, r.Severity, r.Severity.Level())
			}
			switch r.Direction {
			case "input", "output", "surface", "meta":
			default:
				t.Errorf("%s: change rule has invalid direction %q", r.ID, r.Direction)
			}
			if r.Action == "" {
				t.Errorf("%s: a change rule needs an action (removed, renamed, added or changed)", r.ID)
			}
		case KindSpec, KindLint:
			if r.Level.Rank() == 0 {
				t.Errorf("%s: invalid level %q", r.ID, r.Level)
			}
			if r.Action != "" {
				t.Errorf("%s: only change rules have an action", r.ID)
			}
		default:
			t.Errorf("%s: unknown kind %q", r.ID, r.Kind)
		}
		for _, tag := range r.Tags {
			if !kebab.MatchString(tag) {
				t.Errorf("%s: tag %q is not kebab-case", r.ID, tag)
			}
		}
		if got, ok := Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%q) = %v, %v", r.ID, got.ID, ok)
		}
	}
}

// The sections the diff engine owns use the prefixes of catalog b0, and
// context- for the cost of the whole surface (not an item of the catalog),
// skill- and group- for the kinds of the extensions (catalog/extension.md).
func TestChangeRulePrefixes(t *testing.T) {
	prefixes := []string{"protocol-", "server-", "capability-", "tool-", "input-", "output-",
		"prompt-", "resource-", "text-", "context-", "skill-", "group-"}
	for _, r := range All() {
		if r.Kind != KindChange {
			continue
		}
		ok := false
		for _, p := range prefixes {
			if strings.HasPrefix(r.ID, p) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: change rule without a surface prefix", r.ID)
		}
	}
}

func TestSeverityLevels(t *testing.T) {
	tabletest.Map(t, "Severity.Level", Severity.Level, map[Severity]Level{
		SeverityBreaking: LevelError, SeverityRisky: LevelWarning,
		SeverityMinor: LevelNote, SeverityPatch: LevelNote, SeverityInfo: LevelInfo,
	})
}

// Every rule that fails a run by default tells the PR comment what breaks
// and how to fix it, in one line each, and its help says what to do.
func TestRemedies(t *testing.T) {
	for _, r := range All() {
		if r.Level == LevelError || r.Severity == SeverityBreaking {
			if r.Breaks == "" || r.Fix == "" {
				t.Errorf("%s: an error rule needs breaks and fix in its row", r.ID)
			}
			if !strings.Contains(r.Help, whatToDo) {
				t.Errorf("%s: an error rule's help needs %s", r.ID, whatToDo)
			}
		}
		for _, s := range []string{r.Breaks, r.Fix} {
			if strings.TrimSpace(s) != s || strings.ContainsAny(s, "\n|") || strings.HasSuffix(s, ".") || len(s) > 100 {
				t.Errorf("%s: remedy text must be one short line without a trailing period or a pipe: %q", r.ID, s)
			}
		}
	}
}

// A rule's example is its row's, or the fixture named after it (a schema
// rule without its direction, the fixture being compared both ways).
func TestExampleFixture(t *testing.T) {
	for _, c := range []struct {
		r    Rule
		want string
	}{
		{Rule{ID: "tool-removed", Direction: "surface", Producers: []string{"pkg/diff"}}, "pkg/diff/testdata/tool-removed.txtar"},
		{Rule{ID: "input-format-changed", Direction: "input", Producers: []string{"pkg/diff/schemadiff"}}, "pkg/diff/schemadiff/testdata/format-changed.txtar"},
		{Rule{ID: "output-format-changed", Direction: "output", Producers: []string{"pkg/diff/schemadiff"}}, "pkg/diff/schemadiff/testdata/format-changed.txtar"},
		{Rule{ID: "tool-removed", Producers: []string{"pkg/diff"}, Example: "pkg/diff/testdata/x.txtar"}, "pkg/diff/testdata/x.txtar"},
		{Rule{ID: "reserved-rule", Unreported: "why"}, ""},
	} {
		if got := c.r.ExampleFixture(); got != c.want {
			t.Errorf("%s: ExampleFixture() = %q, want %q", c.r.ID, got, c.want)
		}
	}
}
