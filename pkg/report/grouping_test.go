package report_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// upgrade is one server whose upgrade adds the same required property to
// nine tools, a different one to two more, and removes two tools: the
// shape of a real file-system server upgrade.
func upgrade() *report.Report {
	var changes []finding.Finding
	for i := range 9 {
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.InputRequiredPropertyAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: fmt.Sprintf("fs_tool_%d", i), Pointer: "/inputSchema/required",
			Message: `property "path" is now required: calls without it fail`, Before: []string{}, After: []string{"path"}}))
	}
	for i, prop := range []string{"mode", "depth"} {
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.InputRequiredPropertyAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: fmt.Sprintf("other_%d", i), Pointer: "/inputSchema/required",
			Message: fmt.Sprintf("property %q is now required: calls without it fail", prop), Before: []string{}, After: []string{prop}}))
	}
	for _, name := range []string{"gone_a", "gone_b"} {
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: name, Message: fmt.Sprintf("tool %q was removed: calls to it fail", name), Before: name}))
	}
	return &report.Report{Servers: []report.Section{{Command: "check", Findings: changes,
		Base: &report.Side{Label: "base.json", ManifestHash: "aa"}, Head: &report.Side{Label: "head", ManifestHash: "bb"}}}}
}

// One change repeated across nine tools is nine findings in the JSON
// report and one row of the comment naming all nine; the headline counts
// the tools that break.
func TestRepeatedChangeIsOneRowOfFindingsPerTool(t *testing.T) {
	r := upgrade()
	var rep struct {
		Findings []struct {
			Rule    string          `json:"rule"`
			Subject finding.Subject `json:"subject"`
			Extra   json.RawMessage `json:"subjects"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(render(t, "json", r, published()), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 13 {
		t.Fatalf("%d findings in the JSON report, want one per tool and change (13)", len(rep.Findings))
	}
	for _, f := range rep.Findings {
		if f.Subject.Kind != finding.KindTool || f.Extra != nil {
			t.Errorf("finding %s on %v (subjects %s): want one tool each", f.Rule, f.Subject, f.Extra)
		}
	}

	md := string(render(t, "markdown", r, published()))
	if !strings.Contains(md, "### ❌ 13 tools break existing clients") {
		t.Errorf("the headline does not count the 13 tools:\n%s", md)
	}
	var row string
	for _, l := range strings.Split(md, "\n") {
		if strings.Contains(l, "in **9 tools**") {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no row for the change the nine tools share:\n%s", md)
	}
	for i := range 9 {
		if !strings.Contains(row, report.Code(fmt.Sprintf("fs_tool_%d", i), report.MaxName)) {
			t.Errorf("the shared row does not name fs_tool_%d: %s", i, row)
		}
	}
	if strings.Contains(row, "other_") || !strings.Contains(md, "tool <code>other&#95;0</code>: property &quot;mode&quot;") {
		t.Errorf("a tool with its own change is folded into the shared row:\n%s", md)
	}
	if strings.Count(md, "details of") > 4 {
		t.Errorf("the shared change has a detail per tool:\n%s", md)
	}

	text := string(render(t, "text", r, report.Options{FailOn: rules.LevelError}))
	if !strings.Contains(text, "9 tools, one change") || !strings.Contains(text, "in fs_tool_0, fs_tool_1, fs_tool_2") {
		t.Errorf("the text format does not show the shared change once:\n%s", text)
	}
}

// With 33 breaking tools, every one is named before the comment's first
// fold; a row names 50 and says how many more, the job summary all.
func TestEveryBreakingToolNamedBeforeTheFirstFold(t *testing.T) {
	var changes []finding.Finding
	var names []string
	for i := range 33 {
		name := fmt.Sprintf("tool_%02d", i)
		names = append(names, name)
		if i%2 == 0 {
			changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking,
				Kind: finding.KindTool, Name: name, Message: fmt.Sprintf("tool %q was removed: calls to it fail", name), Before: name}))
			continue
		}
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.InputTypeNarrowed, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: name, Pointer: fmt.Sprintf("/inputSchema/properties/p%d/type", i),
			Message: fmt.Sprintf("property \"p%d\" no longer accepts integers", i), Before: []string{"string", "integer"}, After: "string"}))
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.ToolDescriptionChanged, Level: rules.LevelNote, Severity: rules.SeverityPatch,
			Kind: finding.KindTool, Name: name, Pointer: "/description", Message: "description changed", Before: "Old " + name + ".", After: "New " + name + "."}))
	}
	r := &report.Report{Servers: []report.Section{{Command: "check", Findings: changes}}}
	md := string(render(t, "markdown", r, published()))
	first, _, ok := strings.Cut(md, "<details>")
	if !ok {
		t.Fatalf("no fold:\n%s", md)
	}
	for _, n := range names {
		if !strings.Contains(first, report.Code(n, report.MaxName)) {
			t.Errorf("%s is not named before the first fold", n)
		}
	}
	if !strings.Contains(first, "33 tools break existing clients") {
		t.Errorf("headline: %s", strings.SplitN(md, "\n", 3)[1])
	}

	changes = nil
	for i := range 60 {
		name := fmt.Sprintf("gone_%02d", i)
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: name, Message: fmt.Sprintf("tool %q was removed: calls to it fail", name), Before: name}))
	}
	r = &report.Report{Servers: []report.Section{{Command: "check", Findings: changes}}}
	md = string(render(t, "markdown", r, published()))
	if !strings.Contains(md, report.Code("gone_49", report.MaxName)+" and 10 more") || strings.Contains(md, report.Code("gone_50", report.MaxName)) {
		t.Errorf("the comment's row does not name 50 and count the rest:\n%s", md)
	}
	o := published()
	o.Full = true
	summary := string(render(t, "markdown", r, o))
	for i := range 60 {
		if !strings.Contains(summary, report.Code(fmt.Sprintf("gone_%02d", i), report.MaxName)) {
			t.Errorf("the job summary does not name gone_%02d", i)
		}
	}
}

// stalePR is a pull request that changed its server: with forgot, it
// did not refresh the committed snapshot; else it did.
func stalePR(forgot bool) *report.Report {
	sec := report.Section{Command: "check", Snapshot: "mcp-surface.json", SnapshotCurrent: !forgot,
		Base: &report.Side{Label: "base", ManifestHash: "aa"}, Head: &report.Side{Label: "head", ManifestHash: "bb"},
		Findings: []finding.Finding{
			reporttest.F(reporttest.Spec{Rule: rules.ToolRemoved, Level: rules.LevelError, Severity: rules.SeverityBreaking,
				Kind: finding.KindTool, Name: "old_tool", Message: `tool "old_tool" was removed: calls to it fail`, Before: "old_tool"}),
			reporttest.F(reporttest.Spec{Rule: rules.ToolAdded, Level: rules.LevelNote, Severity: rules.SeverityMinor,
				Kind: finding.KindTool, Name: "new_tool", Message: `tool "new_tool" was added`, After: "new_tool"}),
			reporttest.F(reporttest.Spec{Rule: rules.DescriptionMissing, Level: rules.LevelNote, Kind: finding.KindTool, Name: "new_tool",
				Message: "tool has no description"}),
		},
	}
	if forgot {
		sec.Findings = append(sec.Findings, reporttest.F(reporttest.Spec{Rule: rules.SnapshotOutOfDate, Level: rules.LevelError, Kind: finding.KindServer,
			Message: "mcp-surface.json no longer matches the live server: run `mcp-surface snapshot` and commit it"}))
	}
	return &report.Report{Servers: []report.Section{sec}}
}

// The advice fits the pull request: a stale snapshot is its own line,
// never "spec or lint", and the refresh command is offered; once the pull
// request refreshed, no word of refreshing. Acknowledgement lines are
// offered only for what fails the check.
func TestAdviceFitsThePullRequest(t *testing.T) {
	for _, format := range []string{"markdown", "text"} {
		forgot := string(render(t, format, stalePR(true), published()))
		head := strings.SplitN(forgot, "\n", 4)
		if strings.Contains(forgot, "spec or lint") {
			t.Errorf("%s: the stale snapshot counts as a spec or lint finding:\n%s", format, forgot)
		}
		if !strings.Contains(strings.Join(head, "\n"), "is out of date") {
			t.Errorf("%s: the verdict does not say the snapshot is out of date:\n%s", format, forgot)
		}
		if format == "markdown" && (!strings.Contains(forgot, "refresh the snapshot and commit it") || strings.Contains(forgot, `rule: "snapshot-out-of-date"`)) {
			t.Errorf("forgot to refresh: the comment does not offer the refresh, or offers to acknowledge the stale snapshot:\n%s", forgot)
		}
		refreshed := string(render(t, format, stalePR(false), published()))
		if strings.Contains(strings.ToLower(refreshed), "refresh") || strings.Contains(refreshed, "out of date") {
			t.Errorf("%s: the pull request refreshed its snapshot, yet:\n%s", format, refreshed)
		}
		if format == "markdown" {
			_, yaml, _ := strings.Cut(refreshed, "```yaml")
			yaml, _, _ = strings.Cut(yaml, "```")
			if !strings.Contains(yaml, `rule: "tool-removed"`) || strings.Contains(yaml, "description-missing") || strings.Contains(yaml, "tool-added") {
				t.Errorf("the acknowledgement lines are not those of the failing findings:\n%s", yaml)
			}
		}
	}
	// A publishing job renders the comment from the JSON report: it knows
	// the pull request refreshed its snapshot all the same.
	decoded, err := report.DecodeJSON(render(t, "json", stalePR(false), published()))
	if err != nil {
		t.Fatal(err)
	}
	if md := string(render(t, "markdown", decoded, published())); strings.Contains(strings.ToLower(md), "refresh") {
		t.Errorf("decoded from JSON, the refreshed pull request is asked to refresh:\n%s", md)
	}
	// Only the stale snapshot fails: the verdict says so, and refreshing
	// is all there is to do.
	r := stalePR(true)
	r.Servers[0].Findings = r.Servers[0].Findings[1:]
	md := string(render(t, "markdown", r, published()))
	if !strings.Contains(md, "### ❌ the committed snapshot <code>mcp-surface.json</code> is out of date: this check fails") ||
		!strings.Contains(md, "**Refresh the committed snapshot and commit it:**") || strings.Contains(md, "```yaml") {
		t.Errorf("a check failing only on its stale snapshot:\n%s", md)
	}
	// A validation that fails compares nothing: nothing to refresh.
	v := &report.Report{Servers: []report.Section{{Command: "validate", Snapshot: "mcp-surface.json",
		Head: &report.Side{Label: "head", ManifestHash: "bb"},
		Findings: []finding.Finding{reporttest.F(reporttest.Spec{Rule: rules.ToolInputSchemaInvalid, Level: rules.LevelError, Kind: finding.KindTool, Name: "t",
			Pointer: "/inputSchema/type", Message: "inputSchema is not a valid JSON Schema", After: 42})}}}}
	if md := string(render(t, "markdown", v, published())); strings.Contains(strings.ToLower(md), "refresh") || !strings.Contains(md, "acknowledged:") {
		t.Errorf("a failing validation:\n%s", md)
	}
	// With --fail-on none nothing fails, and nothing is offered to
	// acknowledge.
	o := published()
	o.FailOn = ""
	if md := string(render(t, "markdown", stalePR(false), o)); strings.Contains(md, "acknowledged:") {
		t.Errorf("acknowledgement lines though nothing fails:\n%s", md)
	}
}

// A review comment on a line that defines several tools shows their
// shared change once, naming them.
func TestReviewSharedChangeOnce(t *testing.T) {
	r := upgrade()
	sec := &r.Servers[0]
	sec.Locations = map[string]locate.Location{}
	for _, f := range sec.Findings {
		sec.Locations[f.Fingerprint] = locate.Location{Path: "src/tools.ts", Line: 7, Source: locate.SourceCode}
	}
	cs := report.ReviewComments(r, func(string, int) bool { return true }, 0)
	if len(cs) != 1 {
		t.Fatalf("%d review comments, want 1", len(cs))
	}
	if n := strings.Count(cs[0].Body, `property &quot;path&quot; is now required`); n != 1 {
		t.Errorf("the shared change appears %d times:\n%s", n, cs[0].Body)
	}
	if !strings.Contains(cs[0].Body, "9 tools") {
		t.Errorf("the shared change does not name its tools:\n%s", cs[0].Body)
	}
}

// Five tools that each gain a different required property are five
// changes: one row per tool with its property and its call, in the comment
// and the terminal, never "5 tools input required property added".
func TestDifferentChangesAreNotGrouped(t *testing.T) {
	var changes []finding.Finding
	for i, prop := range []string{"path", "source", "destination", "content", "pattern"} {
		w := &finding.Witness{Value: json.RawMessage(`{"other":""}`), Accepts: finding.SideBase, Rejects: finding.SideHead}
		changes = append(changes, reporttest.F(reporttest.Spec{Rule: rules.InputRequiredPropertyAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: fmt.Sprintf("tool_%d", i), Pointer: "/inputSchema/required",
			Message: fmt.Sprintf("property %q is now required: calls without it fail", prop), Before: []string{}, After: []string{prop}, Witness: w}))
	}
	r := &report.Report{Servers: []report.Section{{Command: "check", Findings: changes,
		Base: &report.Side{Label: "base.json", ManifestHash: "aa"}, Head: &report.Side{Label: "head", ManifestHash: "bb"}}}}
	for _, format := range []string{"markdown", "text"} {
		out := string(render(t, format, r, published()))
		if strings.Contains(out, "5 tools") && strings.Contains(out, "required property added") {
			t.Errorf("%s: different properties grouped under one title:\n%s", format, out)
		}
		for _, prop := range []string{"path", "source", "destination", "content", "pattern"} {
			if !strings.Contains(out, prop) {
				t.Errorf("%s: property %s is not named:\n%s", format, prop, out)
			}
		}
		if n := strings.Count(out, "other"); n < 5 {
			t.Errorf("%s: %d witnesses shown, want one per tool:\n%s", format, n, out)
		}
	}
}
