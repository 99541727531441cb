package rulesdoc

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

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
