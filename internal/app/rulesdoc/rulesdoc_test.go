package rulesdoc

import (
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md (as go generate ./internal/app/rulesdoc does)")

// committedPage is docs/rules.md as committed.
func committedPage(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedtest.Root(t), filepath.FromSlash(Path)))
	if err != nil {
		t.Fatalf("%v (run go generate ./internal/app/rulesdoc)", err)
	}
	return string(data)
}

func TestPageIsCurrent(t *testing.T) {
	root := sharedtest.Root(t)
	got, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(Path)), got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(committedPage(t), string(got)); d != "" {
		t.Errorf("%s is stale: run go generate ./internal/app/rulesdoc (-committed +generated):\n%s", Path, d)
	}
	// GitHub renders a markdown file of up to about 2 MB; stay well under.
	if len(got) > 1<<20 {
		t.Errorf("%s is %d bytes: GitHub may not render it (and its anchors) past about 2 MB", Path, len(got))
	}
	again, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(got) {
		t.Error("two generations differ")
	}
}

// Every rule has its heading, in the order of the contents, and the help
// `mcp-surface explain` prints.
func TestPageHasEveryRule(t *testing.T) {
	page := committedPage(t)
	have := anchors(page)
	for _, r := range rules.All() {
		if !slices.Contains(have, r.ID) {
			t.Errorf("%s: no heading with anchor #%s", r.ID, r.ID)
		}
		if !strings.Contains(page, "\n### "+r.ID+"\n") {
			t.Errorf("%s: no heading ### %s", r.ID, r.ID)
		}
		if !strings.Contains(page, strings.TrimSpace(r.Help)) {
			t.Errorf("%s: the help text is not on the page", r.ID)
		}
		if strings.Contains("\n"+r.Help, "\n#") {
			t.Errorf("%s: the help has a heading line, which would add an anchor and break the page's structure", r.ID)
		}
	}
}

func TestExamplesAreRealFixtures(t *testing.T) {
	root := sharedtest.Root(t)
	ex, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rules.All() {
		e, ok := ex[r.ID]
		if !ok || r.Kind != rules.KindChange {
			continue
		}
		n++
		if !slices.Contains(ruleIDs(e.Findings), r.ID) {
			t.Errorf("%s: the example from %s does not report it", r.ID, e.Fixture)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(e.Fixture))); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
	}
	if n == 0 {
		t.Fatal("no change rule has an example")
	}
	t.Logf("%d change rules have an example", n)
}

func TestAnchor(t *testing.T) {
	tabletest.Map(t, "anchor", anchor, map[string]string{
		"tool-removed":                 "tool-removed",
		"Tool input schemas":           "tool-input-schemas",
		"SARIF output":                 "sarif-output",
		"Fork pull requests":           "fork-pull-requests",
		"`forbidden`":                  "forbidden",
		"Inputs & outputs (v1.2)":      "inputs--outputs-v12",
		"snake_case and Ünïcödé":       "snake_case-and-ünïcödé",
		"What to do? Keep it: yes!":    "what-to-do-keep-it-yes",
		"mcp-surface-report-truncated": "mcp-surface-report-truncated",
	})
	md := "# A\n\n```\n# not a heading\n```\n\n## A\n### B ###\n    # indented code\n#nospace\n"
	if d := cmp.Diff([]string{"a", "a-1", "b"}, anchors(md)); d != "" {
		t.Errorf("anchors (-want +got):\n%s", d)
	}
}

// copyFixtures copies the two fixture directories (and the diff
// fixtures' default snapshot) under a new root.
func copyFixtures(t *testing.T) string {
	t.Helper()
	root, tmp := sharedtest.Root(t), t.TempDir()
	for _, dir := range []string{diffFixtures, schemadiffFixtures} {
		src := os.DirFS(filepath.Join(root, filepath.FromSlash(dir)))
		if err := os.CopyFS(filepath.Join(tmp, filepath.FromSlash(dir)), src); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// A new fixture smaller than a rule's example does not become its
// example: the examples are chosen in the rules' rows, and a fixture
// that would have won as the smallest changes no rule's documentation.
func TestNewFixtureChangesNoExample(t *testing.T) {
	root := copyFixtures(t)
	before, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	// One tool, removed: smaller than any example of tool-removed.
	small := "A tool is removed.\n-- base --\n{\"tools\": {\"a\": {\"inputSchema\": {\"type\": \"object\"}}}}\n-- head --\n{\"tools\": {\"a\": null}}\n" +
		"-- want --\ntool-removed tool a \"\"\nserver-version-not-bumped server \"\" /serverInfo/version\n-- want.reverse --\ntool-added tool a \"\"\n"
	name := path.Join(diffFixtures, "a-new-small-fixture.txtar")
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("a new fixture changed the examples (-before +after):\n%s", d)
	}
	// It would have won as the smallest for some rule.
	all, err := readAll(root)
	if err != nil {
		t.Fatal(err)
	}
	won := 0
	for rule, e := range smallestExamples(all) {
		if e.Fixture == name {
			won++
			if before[rule].Fixture == name {
				t.Errorf("%s: the new fixture is its example", rule)
			}
		}
	}
	if won == 0 {
		t.Error("the new fixture is the smallest for no rule: the test shows nothing")
	}
}

// An example that does not report its rule, and a reported rule without
// an example, are errors that say what to write.
func TestExampleErrors(t *testing.T) {
	root := copyFixtures(t)
	// Remove the fixture tool-removed's row names: other fixtures still
	// report the rule.
	ex, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	chosen := ex["tool-removed"].Fixture
	if chosen == "" {
		t.Fatal("tool-removed has no example")
	}
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(chosen))); err != nil {
		t.Fatal(err)
	}
	_, err = examples(root)
	if err == nil || !strings.Contains(err.Error(), "rule tool-removed") || !strings.Contains(err.Error(), "example") {
		t.Errorf("examples without tool-removed's fixture: %v", err)
	}
}

// Every link to the rules page that a renderer writes (the PR comment,
// every format, review comments, SARIF) lands on a heading of
// docs/rules.md.

// ruleLink finds links to the page, in markdown, HTML, JSON and SARIF.
var ruleLink = regexp.MustCompile(regexp.QuoteMeta(report.RulesDocURL) + `(#[^\s)"'<>\]\\]*)?`)

// everyRule is a report with one finding of every rule of the table, each
// about its own tool so that no collapsible section leaves one out.
func everyRule() *report.Report {
	var spec, lint, changes []finding.Finding
	locs := map[string]locate.Location{}
	for i, r := range rules.All() {
		f := reporttest.F(reporttest.Spec{
			Rule: r.ID, Level: r.Level, Severity: r.Severity, Tags: r.Tags,
			Kind: finding.KindTool, Name: fmt.Sprintf("tool_%03d", i), Pointer: "/description",
			Message: r.Summary, Before: "before", After: "after",
		})
		// Defined in source, so that review comments carry it too.
		locs[f.Fingerprint] = locate.Location{Path: fmt.Sprintf("src/tool_%03d.ts", i), Line: 1, Source: locate.SourceCode}
		switch r.Kind {
		case rules.KindSpec:
			spec = append(spec, f)
		case rules.KindLint:
			lint = append(lint, f)
		default:
			changes = append(changes, f)
		}
	}
	d := reporttest.Diff()
	s := d.Servers[0]
	s.Findings, s.Locations = slices.Concat(spec, lint, changes), locs
	return &report.Report{Version: d.Version, Servers: []report.Section{s}}
}

type linkCheck struct {
	have    map[string]bool
	checked int
	rules   map[string]bool
}

func (c *linkCheck) walk(t *testing.T, where, text string) {
	t.Helper()
	for _, m := range ruleLink.FindAllStringSubmatch(text, -1) {
		c.checked++
		frag := strings.TrimPrefix(m[1], "#")
		if frag == "" {
			continue // the page itself
		}
		if !c.have[frag] {
			t.Errorf("%s: %s points at #%s, which docs/rules.md does not have", where, m[0], frag)
		}
		c.rules[frag] = true
	}
}

func TestEveryRuleLinkLands(t *testing.T) {
	c := &linkCheck{have: map[string]bool{}, rules: map[string]bool{}}
	for _, a := range anchors(committedPage(t)) {
		c.have[a] = true
	}
	reports := map[string]*report.Report{
		"diff": reporttest.Diff(), "hostile": reporttest.Hostile(), "large": reporttest.Large(40, 6),
		"multi": reporttest.MultiServer(), "empty": reporttest.Empty(), "every rule": everyRule(),
	}
	for name, r := range reports {
		// The PR comment, within GitHub's budget and whole.
		for _, budget := range []int{0, 1 << 26} {
			md, err := report.RenderBytes("markdown", r, report.Options{FailOn: rules.LevelError, ShowInfo: true, MaxMarkdownBytes: budget})
			if err != nil {
				t.Fatal(err)
			}
			c.walk(t, fmt.Sprintf("markdown of %s (budget %d)", name, budget), string(md))
		}
		for _, format := range report.Formats() {
			out, err := report.RenderBytes(format, r, report.Options{FailOn: rules.LevelError, ShowInfo: true})
			if err != nil {
				t.Fatalf("%s of %s: %v", format, name, err)
			}
			c.walk(t, format+" of "+name, string(out))
		}
		// Review comments on the lines that define the subjects.
		before := c.checked
		for _, rc := range report.ReviewComments(r, func(string, int) bool { return true }, 0) {
			c.walk(t, fmt.Sprintf("review comment of %s on %s:%d", name, rc.Path, rc.Line), rc.Body)
		}
		if name == "every rule" && c.checked == before {
			t.Error("the review comments of every rule link no rule: the walk missed them")
		}
		for _, o := range []sarif.Options{{AllRules: true, IncludeInfo: true}, {MaxResults: 3}} {
			out, err := sarif.Encode(r, o)
			if err != nil {
				t.Fatal(err)
			}
			c.walk(t, "SARIF of "+name, string(out))
		}
	}
	for _, r := range rules.All() {
		if !c.rules[r.ID] {
			t.Errorf("no rendered link points at %s: the walk missed it", r.ID)
		}
	}
	if !c.rules[sarif.TruncatedRuleID] {
		t.Errorf("no rendered link points at %s: the walk missed the truncated SARIF", sarif.TruncatedRuleID)
	}
	t.Logf("%d links checked, to %d anchors", c.checked, len(c.rules))
}

// The link form itself: the page, then the rule ID as the fragment.
func TestRuleURLForm(t *testing.T) {
	have := map[string]bool{}
	for _, a := range anchors(committedPage(t)) {
		have[a] = true
	}
	if !strings.HasSuffix(report.RulesDocURL, "/"+Path) {
		t.Errorf("report.RulesDocURL = %s, want a link to %s", report.RulesDocURL, Path)
	}
	for _, r := range rules.All() {
		u := report.Options{}.RuleURL(r.ID)
		if u != report.RulesDocURL+"#"+r.ID || !have[r.ID] {
			t.Errorf("%s: link %s does not land", r.ID, u)
		}
	}
}
