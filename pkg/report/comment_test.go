package report_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/pkg/cost"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// published is what the action knows when it renders the comment.
func published() report.Options {
	return report.Options{
		FailOn:      rules.LevelError,
		RunURL:      "https://github.com/acme/weather/actions/runs/123456789",
		SummaryURL:  "https://github.com/acme/weather/actions/runs/123456789/attempts/1#summary",
		BaseSHA:     "5d41402abc4b2a76b9719d911017c592aaaaaaaa",
		HeadSHA:     "7d793037a0760186574b0282f2f435e7bbbbbbbb",
		AcceptLabel: "mcp-surface: accept-breaking",
	}
}

// Everything compares our own captures of the reference server
// @modelcontextprotocol/server-everything before and after its
// 2025.11.25 → 2026.1.26 upgrade: removed, renamed and added tools, a
// hundred resources gone.
func everything(t *testing.T) *report.Report {
	t.Helper()
	dir := filepath.Join("testdata", "everything")
	base, err := manifest.ReadFile(filepath.Join(dir, "2025.11.25.json"))
	if err != nil {
		t.Fatal(err)
	}
	headData, err := os.ReadFile(filepath.Join(dir, "2026.1.26.json"))
	if err != nil {
		t.Fatal(err)
	}
	head := capturetest.Read(t, headData)
	res := diff.Diff(base, head, diff.Options{Cost: &diff.CostOptions{}}) // as check compares
	costBase, err := cost.Compute(base, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	costHead, err := cost.Compute(head, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	loc, err := locate.New(locate.Options{Snapshot: "mcp-surface.json", SnapshotData: headData})
	if err != nil {
		t.Fatal(err)
	}
	return &report.Report{Version: "v0.3.0", Servers: []report.Section{{
		Server: "everything", Command: "check",
		Base:      &report.Side{Label: "origin/main:mcp-surface.json", ManifestHash: res.BaseManifestHash},
		Head:      &report.Side{Label: "node dist/index.js stdio", ManifestHash: res.HeadManifestHash},
		Findings:  res.Findings,
		Snapshot:  "mcp-surface.json",
		Locations: loc.LocateAll(res.Findings),
		Notes:     []string{"Captured `node dist/index.js stdio` over stdio."},
		CostBase:  costBase,
		CostHead:  costHead,
	}}}
}

func TestCommentGoldens(t *testing.T) {
	multi := published()
	multi.SnapshotCommands = map[string]string{"files": "mcp-surface snapshot --server files"}
	cases := []struct {
		name string
		r    func(t *testing.T) *report.Report
		o    report.Options
	}{
		{"comment.breaking.md", func(*testing.T) *report.Report { return reporttest.Diff() }, published()},
		{"comment.description.md", func(*testing.T) *report.Report { return reporttest.DescriptionOnly() }, published()},
		{"comment.unchanged.md", func(*testing.T) *report.Report { return reporttest.Empty() }, published()},
		{"comment.everything.md", everything, published()},
		{"comment.multi.md", func(*testing.T) *report.Report { return reporttest.MultiServer() }, multi},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, "markdown", c.r(t), c.o)
			golden(t, c.name, out)
			if n := utf8.RuneCount(out); n > report.GitHubCommentLimit || len(out) > report.DefaultMarkdownBudget {
				t.Errorf("%d bytes, %d characters: over the comment limit", len(out), n)
			}
			checkMarkdownStructure(t, string(out))
		})
	}
}

// The everything upgrade names every removed tool on the first screen and
// keeps tools ahead of prompts and resources.
func TestCommentEverythingFirstScreen(t *testing.T) {
	r := everything(t)
	out := string(render(t, "markdown", r, published()))
	lines := strings.Split(out, "\n")
	first := strings.Join(lines[:min(40, len(lines))], "\n")
	var removed []string
	for _, f := range r.Servers[0].Findings {
		if f.Rule == rules.ToolRemoved || f.Rule == rules.ToolRenamed {
			removed = append(removed, f.Subject.Name)
		}
	}
	if len(removed) < 7 {
		t.Fatalf("fixture: %d removed tools, want at least 7", len(removed))
	}
	for _, name := range removed {
		if !strings.Contains(first, "<code>"+report.Markdown(name, report.MaxName)) {
			t.Errorf("tool %q is not named in the first 40 lines", name)
		}
	}
	if !strings.HasPrefix(lines[1], "### ❌ 11 tools break existing clients") {
		t.Errorf("headline = %q", lines[1])
	}
	tool, resource := strings.Index(out, "tool-removed"), strings.Index(out, "resource-removed")
	if tool < 0 || resource < 0 || tool > resource {
		t.Error("the resource removals come before the tool removals")
	}
	// Natural order, shortened by their common prefix: /1, /2, /3 … /50
	// and 50 more.
	if !strings.Contains(out, report.Code("test://static/resource/1", 100)+", <code>/2</code>, <code>/3</code>, <code>/4</code>") ||
		!strings.Contains(out, "<code>/50</code> and 50 more") {
		t.Error("the hundred resources are not collapsed into one row in natural order")
	}
}

// The budget cuts details, then folded rows, and never a tool row of the
// breaking table to keep a resource row.
func TestCommentBudgetKeepsTools(t *testing.T) {
	r := everything(t)
	full := string(render(t, "markdown", r, published()))
	for _, budget := range []int{30000, 12000, 6000} {
		o := published()
		o.MaxMarkdownBytes = budget
		out := string(render(t, "markdown", r, o))
		if len(out) > budget {
			t.Errorf("budget %d: %d bytes", budget, len(out))
		}
		checkMarkdownStructure(t, out)
		if !strings.HasPrefix(out, report.MarkerPrefix) || !strings.Contains(out, "### ❌ 11 tools break existing clients") {
			t.Errorf("budget %d: lost the marker or the headline", budget)
		}
		rows := tableRows(out, "| 🔴 |")
		if len(rows) == 0 {
			t.Fatalf("budget %d: no breaking rows", budget)
		}
		// Rows kept are a prefix of the full table: tools before resources.
		want := tableRows(full, "| 🔴 |")
		if !slices.Equal(rows, want[:len(rows)]) {
			t.Errorf("budget %d: the breaking rows kept are not the first ones", budget)
		}
		if budget >= 12000 && len(rows) != len(want) {
			t.Errorf("budget %d: %d of %d breaking rows; details should have gone first", budget, len(rows), len(want))
		}
	}
}

func tableRows(md, prefix string) []string {
	var out []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// The job summary is the full report: every finding, info included,
// with its details; nothing is cut.
func TestSummaryIsTheFullReport(t *testing.T) {
	r := everything(t)
	o := published()
	o.Full = true
	out := string(render(t, "markdown", r, o))
	golden(t, "summary.everything.md", []byte(out))
	if len(out) > report.GitHubSummaryLimit {
		t.Fatalf("summary is %d bytes", len(out))
	}
	if strings.Contains(out, "Shortened") {
		t.Error("the summary was shortened")
	}
	checkMarkdownStructure(t, out)
	for _, f := range r.Servers[0].Findings {
		if f.Subject.Kind == finding.KindServer {
			continue
		}
		if !strings.Contains(out, report.Code(f.Subject.Name, report.MaxName)) {
			t.Errorf("summary lacks %s %q", f.Subject.Kind, f.Subject.Name)
		}
	}
	if !strings.Contains(out, "server-version-changed") {
		t.Error("summary hides info findings")
	}
	if strings.Contains(out, "[full report]") {
		t.Error("the full report links to itself")
	}
}

func TestCommentPublicationFields(t *testing.T) {
	o := published()
	out := string(render(t, "markdown", reporttest.Diff(), o))
	for _, want := range []string{
		"base <code>5d41402</code> ← head <code>7d79303</code>",
		"[run](https://github.com/acme/weather/actions/runs/123456789)",
		"[full report](https://github.com/acme/weather/actions/runs/123456789/attempts/1#summary)",
		"mcp-surface v0.3.0",
		"Add the label <code>mcp-surface: accept-breaking</code>",
		"<code>mcp-surface snapshot --server weather</code>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("comment lacks %q", want)
		}
	}
	o.AcceptedByLabel = true
	o.AckYAML = map[string]string{"weather": "acknowledged:\n  - rule: tool-removed\n    tool: legacy_lookup\n    reason: retired\n"}
	out = string(render(t, "markdown", reporttest.Diff(), o))
	if !strings.Contains(out, "Accepted by label <code>mcp-surface: accept-breaking</code>: breaking findings acknowledged for this PR.") {
		t.Error("the label's acceptance is not said")
	}
	if !strings.Contains(out, "reason: retired") {
		t.Error("the caller's acknowledgement lines are not used")
	}
	o.RunURL = "javascript:alert(1)"
	o.SummaryURL = ""
	if out := string(render(t, "markdown", reporttest.Diff(), o)); strings.Contains(out, "javascript") {
		t.Error("a non-http URL is linked")
	}
}

func TestRenderUnchanged(t *testing.T) {
	out := string(report.RenderUnchanged(reporttest.Diff(), published()))
	golden(t, "comment.unchanged-line.md", []byte(out))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || lines[0] != report.Marker("weather") || !strings.HasPrefix(lines[1], "✅ **surface unchanged**") {
		t.Errorf("unchanged comment = %q", out)
	}
}

// The ten error annotations GitHub shows go to tools, each at a line that
// says where the tool is, never line 1 of a file.
func TestAnnotationsToolsFirst(t *testing.T) {
	out := string(render(t, "github", everything(t), published()))
	errors := 0
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "::") {
			continue
		}
		if strings.Contains(l, ",line=1,") {
			t.Errorf("annotation at line 1: %.120s", l)
		}
		if strings.HasPrefix(l, "::error ") {
			errors++
			if !strings.Contains(l, "(tool ") {
				t.Errorf("error annotation %d is not about a tool: %.120s", errors, l)
			}
		}
	}
	if errors != 10 {
		t.Errorf("%d error annotations, want 10", errors)
	}
	if !strings.Contains(out, "findings are not annotated") {
		t.Error("no notice counts the rest")
	}
}

// A breaking change without the version bump it calls for gets a caution
// line, though the versioning finding itself is info and hidden.
func TestCommentCautionsAboutTheVersion(t *testing.T) {
	r := reporttest.Diff()
	s := &r.Servers[0]
	s.Findings = append(s.Findings, reporttest.F(reporttest.Spec{Rule: rules.ServerMajorVersionNotBumped, Level: rules.LevelInfo,
		Severity: rules.SeverityInfo, Kind: finding.KindServer, Pointer: "/serverInfo/version",
		Message: "breaking changes but serverInfo.version went from 1.4.0 to 1.5.0"}))
	out := string(render(t, "markdown", r, published()))
	want := "> [!CAUTION]\n> breaking changes but serverInfo.version went from 1.4.0 to 1.5.0: the worst change is breaking, which calls for a **major** version bump."
	if !strings.Contains(out, want) {
		t.Errorf("no caution line:\n%s", out)
	}
	if strings.Contains(string(render(t, "markdown", reporttest.Diff(), published())), "[!CAUTION]") {
		t.Error("a caution without a versioning finding")
	}
}

// Verbose text lists each finding of a run with its values; the default
// collapses the run and leaves out the names repeated as values.
func TestTextVerbose(t *testing.T) {
	r := everything(t)
	short := string(render(t, "text", r, report.Options{FailOn: rules.LevelError}))
	long := string(render(t, "text", r, report.Options{FailOn: rules.LevelError, Verbose: true}))
	if !strings.Contains(short, "100 resources removed\n") || !strings.Contains(short, "test://static/resource/1, /2, /3, /4") || !strings.Contains(short, "/50 and 50 more") {
		t.Error("the resource removals are not one entry")
	}
	if strings.Contains(short, `before: "add"`) {
		t.Error("a plain removal shows its name as a before value")
	}
	if !strings.Contains(long, "resource test://static/resource/57\n") || !strings.Contains(long, `before: "add"`) {
		t.Error("verbose does not list every finding with its values")
	}
	// The server's title and what was compared, then the verdict.
	if line := strings.SplitN(short, "\n", 4)[2]; !strings.HasPrefix(line, "11 tools break existing clients") {
		t.Errorf("the verdict does not lead: %q", line)
	}
}

// The action takes no --show-info: a published comment never advises it.
func TestCommentHintsAreTheActions(t *testing.T) {
	o := report.Options{FailOn: rules.LevelError, RunURL: "https://github.com/acme/weather/actions/runs/1"}
	if md := string(render(t, "markdown", reporttest.Diff(), o)); strings.Contains(md, "--show-info") || !strings.Contains(md, "the job summary lists them") {
		t.Errorf("the comment advises a flag the action cannot pass:\n%s", md)
	}
	if md := string(render(t, "markdown", reporttest.Diff(), report.Options{FailOn: rules.LevelError})); !strings.Contains(md, "`--show-info` shows them") {
		t.Errorf("the command line's markdown does not say how to show info findings:\n%s", md)
	}
}

// The comment, the job summary and the terminal count the same changes:
// an info finding the comment leaves out is counted all the same.
func TestOneCountOfChanges(t *testing.T) {
	r := reporttest.Diff()
	count := func(s, prefix string) string {
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, prefix) {
				return strings.TrimPrefix(l, prefix)
			}
		}
		return ""
	}
	comment := string(render(t, "markdown", r, report.Options{FailOn: rules.LevelError}))
	summary := string(render(t, "markdown", r, report.Options{FailOn: rules.LevelError, Full: true}))
	text := string(render(t, "text", r, report.Options{FailOn: rules.LevelError}))
	for _, k := range [][2]string{{"- **Server**: ", "  server: "}, {"- **Tools**: ", "  tools: "}} {
		c, s, tx := count(comment, k[0]), count(summary, k[0]), count(text, k[1])
		if c == "" || c != s || c != tx {
			t.Errorf("%q: comment %q, summary %q, terminal %q", k[0], c, s, tx)
		}
	}
}
