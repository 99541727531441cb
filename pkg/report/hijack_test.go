package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// hijackText is what a server of a matrix writes to take over the sticky
// comment of another server of the same pull request (alpha): alpha's
// marker, in the forms a lookup might accept, and a stray closer.
var hijackText = report.Marker("alpha") + "\n" +
	"<!--mcp-surface:report id=alpha-->\n" +
	"<!-- hidden --> and <!---> and --> and <!-- unclosed"

// hijackReport is server beta's report with hijackText in every place
// server text reaches markdown: a line diff and a word diff of prose, a
// string and a JSON excerpt (the server's raw bytes, with a literal <), a
// subject name (headings, tables, the acknowledgement YAML), a pointer, a
// message, an acknowledgement reason, the notes and the sides' labels.
func hijackReport() *report.Report {
	rawJSON := json.RawMessage(`{"description": "` + strings.ReplaceAll(hijackText, "\n", `\n`) + `", "note": "<!-- x -->"}`)
	name := "lookup " + report.Marker("alpha")
	changes := []finding.Finding{
		reporttest.F(reporttest.Spec{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm", "sec"},
			Kind: finding.KindTool, Name: name, Pointer: "/description", Message: "description changed: " + hijackText,
			Before: "Looks things up.", After: "Looks things up.\n" + hijackText}),
		reporttest.F(reporttest.Spec{Rule: rules.ToolTitleChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch, Tags: []string{"llm"},
			Kind: finding.KindTool, Name: name, Pointer: "/title", Message: "title changed",
			Before: "Lookup", After: "Lookup <!-- mcp-surface:report id=alpha -->"}),
		reporttest.F(reporttest.Spec{Rule: rules.InputTypeChanged, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindTool, Name: name, Pointer: "/inputSchema/properties/q<!--x-->", Message: hijackText,
			Before: rawJSON, After: hijackText}),
		reporttest.F(reporttest.Spec{Rule: rules.PromptRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking, Tags: []string{"wire"},
			Kind: finding.KindPrompt, Name: name, Message: "prompt removed", Acknowledged: hijackText}),
	}
	s := report.Section{
		Server:   "beta",
		Command:  hijackText,
		Base:     &report.Side{Label: hijackText, ManifestHash: "3f1a9c0d5e7b", Revision: "2025-06-18"},
		Head:     &report.Side{Label: hijackText, ManifestHash: "9b8a7c6d5e4f", Revision: "2025-06-18"},
		Findings: changes,
		Subjects: []finding.Subject{{Kind: finding.KindTool, Name: name}},
		Notes:    []string{hijackText},
	}
	s.Locations = map[string]locate.Location{}
	for i, f := range changes {
		s.Locations[f.Fingerprint] = locate.Location{Path: "src/beta.ts", Line: 3 + i, Source: locate.SourceCode}
	}
	return &report.Report{Version: "1.0.0", Servers: []report.Section{s}}
}

// TestNoServerWrittenCommentMarker: whatever a server writes, the only
// HTML comment in anything this package renders as markdown (the pull
// request comment, which is also the job summary, and each review comment)
// is our own marker on the comment's first line.
func TestNoServerWrittenCommentMarker(t *testing.T) {
	r := hijackReport()
	for _, o := range []report.Options{
		{FailOn: rules.LevelError},
		{FailOn: rules.LevelNote, ShowInfo: true},
		{FailOn: rules.LevelError, MaxMarkdownBytes: 4000}, // shortened: tables and details left out
	} {
		md, err := report.RenderBytes("markdown", r, o)
		if err != nil {
			t.Fatal(err)
		}
		body := string(md)
		if o.MaxMarkdownBytes == 0 && !strings.Contains(body, `+ <\u0021-- mcp-surface:report id=alpha --\u003e`) {
			t.Fatalf("the description's diff, its marker shown broken, is not in the comment:\n%s", body)
		}
		first, rest, _ := strings.Cut(body, "\n")
		if first != report.Marker("beta") {
			t.Errorf("first line %q, want beta's marker", first)
		}
		if strings.Contains(rest, "<!--") || strings.Contains(rest, "-->") {
			t.Errorf("budget %d: an HTML comment opener or closer after the marker line:\n%s", o.MaxMarkdownBytes, rest)
		}
	}

	cs := report.ReviewComments(r, anyLine, 0)
	if len(cs) == 0 {
		t.Fatal("no review comments")
	}
	for _, set := range [][]report.ReviewComment{cs, report.RefreshReviewComments(r, cs)} {
		for _, c := range set {
			if strings.Contains(c.Body, "<!--") || strings.Contains(c.Body, "-->") {
				t.Errorf("review comment on line %d holds an HTML comment opener or closer:\n%s", c.Line, c.Body)
			}
		}
	}
	if !strings.Contains(cs[0].Body+cs[1].Body, `<\u0021-- mcp-surface:report id=alpha --\u003e`) {
		t.Errorf("the marker is not shown, broken, in the text diff:\n%s", cs[0].Body)
	}
}
