package report_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func dumpReviewComments(cs []report.ReviewComment) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "=== %s:%d key=%s\n%s", c.Path, c.Line, c.Key, c.Body)
	}
	return b.String()
}

// crowdedReport puts sixteen findings on one source line: more than one
// review comment shows.
func crowdedReport() *report.Report {
	r := reporttest.Large(2, 8)
	for k, l := range r.Servers[0].Locations {
		l.Path, l.Line = "src/all.ts", 5
		r.Servers[0].Locations[k] = l
	}
	return r
}

func anyLine(string, int) bool { return true }

func TestReviewComments(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *report.Report
	}{
		{"diff", reporttest.Diff()},
		{"hostile", reporttest.Hostile()},
		{"crowded", crowdedReport()},
		{"multi", reporttest.MultiServer()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := report.ReviewComments(tc.r, anyLine, 0)
			even := report.ReviewComments(tc.r, func(_ string, line int) bool { return line%2 == 0 }, 0)
			again := report.RefreshReviewComments(tc.r, all)
			got := "## all\n" + dumpReviewComments(all) + "## even lines\n" + dumpReviewComments(even) + "## republished\n" + dumpReviewComments(again)
			golden(t, "review."+tc.name+".md", []byte(got))
		})
	}
}

func TestReviewCommentsBounds(t *testing.T) {
	r := reporttest.Large(120, 2) // 240 lines with findings
	if got := len(report.ReviewComments(r, anyLine, 0)); got != 240 {
		t.Errorf("unbounded: %d comments, want 240", got)
	}
	cs := report.ReviewComments(r, anyLine, 100)
	if len(cs) != 100 {
		t.Fatalf("max 100: %d comments", len(cs))
	}
	// Worst first: the first comment is about an error.
	if !strings.HasPrefix(cs[0].Body, "🛑") {
		t.Errorf("first comment is not the worst: %q", cs[0].Body)
	}
	for _, c := range cs {
		if c.Path == "mcp-surface.json" {
			t.Errorf("a comment on the snapshot: %+v", c)
		}
	}
	if cs := report.ReviewComments(reporttest.Diff(), func(string, int) bool { return false }, 0); len(cs) != 0 {
		t.Errorf("nothing allowed, yet %d comments", len(cs))
	}
}

func TestRefreshReviewCommentsIgnoresForeignText(t *testing.T) {
	r := reporttest.Diff()
	good := report.ReviewComments(r, anyLine, 0)
	prior := []report.ReviewComment{
		{Path: good[0].Path, Line: good[0].Line, Key: good[0].Key, Body: "@everyone look <img src=x>"},
		{Path: "src/x.ts", Line: 1, Key: "0000000000000000", Body: "not a finding of the report"},
	}
	got := report.RefreshReviewComments(r, prior)
	if len(got) != 1 {
		t.Fatalf("kept %d comments, want the one whose key is a finding: %+v", len(got), got)
	}
	if strings.Contains(got[0].Body, "@everyone") || got[0].Path != good[0].Path || got[0].Line != good[0].Line {
		t.Errorf("refreshed comment: %+v", got[0])
	}
	// Acknowledged and info findings are not worth a comment, even when a
	// bundle names them.
	for _, s := range r.Servers {
		for _, it := range s.Items() {
			if it.Acknowledged == "" && it.Level != "info" {
				continue
			}
			if cs := report.RefreshReviewComments(r, []report.ReviewComment{{Path: "a.ts", Line: 1, Key: it.Fingerprint}}); len(cs) != 0 {
				t.Errorf("%s (%s, acknowledged %q) kept", it.Rule, it.Level, it.Acknowledged)
			}
		}
	}
}

// A description that spans lines gets a line diff in its review comment,
// as in the pull request comment.
func TestReviewCommentLineDiff(t *testing.T) {
	f := reporttest.F(reporttest.Spec{Rule: "tool-description-changed", Level: "note", Severity: "patch", Kind: "tool", Name: "search",
		Pointer: "/description", Message: "description changed", Before: "Searches.\nReturns ten.", After: "Searches.\nReturns twenty."})
	r := &report.Report{Servers: []report.Section{{Server: "s", Findings: []finding.Finding{f}, Snapshot: "mcp-surface.json",
		Locations: map[string]locate.Location{f.Fingerprint: {Path: "src/search.ts", Line: 3, Source: locate.SourceCode}}}}}
	cs := report.ReviewComments(r, anyLine, 0)
	if len(cs) != 1 || !strings.Contains(cs[0].Body, "```diff\n") {
		t.Errorf("multi-line description: %+v", cs)
	}
}
