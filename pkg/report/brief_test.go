package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func brief(t *testing.T, r *report.Report, o report.Options, bt report.BriefText) string {
	t.Helper()
	var a, b bytes.Buffer
	if err := report.WriteBrief(&a, r, o, bt); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteBrief(&b, r, o, bt); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("two briefs of the same report differ")
	}
	return a.String()
}

// The brief is what snapshot --check and the test helpers print: the
// verdict first, a line per finding with its witness, the remedy.
func TestBriefGolden(t *testing.T) {
	bt := report.BriefText{Snapshot: "mcp-surface.json", Intended: "run `MCP_SURFACE_UPDATE=1 npm test` and commit mcp-surface.json", More: "npx mcp-surface snapshot --check --verbose -- node dist/index.js"}
	golden(t, "diff.brief.txt", []byte(brief(t, reporttest.Diff(), report.Options{FailOn: rules.LevelError}, bt)))
	golden(t, "hostile.brief.txt", []byte(brief(t, reporttest.Hostile(), report.Options{FailOn: rules.LevelError}, bt)))
}

// At most MaxBriefLines change lines, then how many more and the command
// that shows them all.
func TestBriefBounded(t *testing.T) {
	bt := report.BriefText{Snapshot: "s.json", Intended: "run `go test -surfacetest.update` and commit s.json", More: "mcp-surface snapshot --check --verbose -o s.json -- ./server"}
	got := brief(t, reporttest.Large(30, 2), report.Options{FailOn: rules.LevelError}, bt)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 1+report.MaxBriefLines+2 {
		t.Fatalf("%d lines, want the verdict, %d changes, the rest counted and the remedy:\n%s", len(lines), report.MaxBriefLines, got)
	}
	if more := lines[len(lines)-2]; !strings.HasPrefix(more, "  and 40 more: `mcp-surface snapshot --check --verbose") || !strings.HasSuffix(more, "` shows every change") {
		t.Errorf("more line: %s", more)
	}
	bt.MaxLines = -1
	if all := brief(t, reporttest.Large(30, 2), report.Options{FailOn: rules.LevelError}, bt); strings.Count(all, "\n  ") != 60 || strings.Contains(all, "more") {
		t.Errorf("every line: %d change lines\n%s", strings.Count(all, "\n  "), all)
	}
}
