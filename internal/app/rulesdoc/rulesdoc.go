package rulesdoc

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// Path is the page's path from the repository root.
const Path = "docs/rules.md"

// compatArea is the area whose intro lists the client profiles.
const compatArea = "Client compatibility"

// sarifSection documents the one result the SARIF output adds itself.
const sarifSection = "SARIF output"

// Generate renders the page from the rule table and the fixtures under
// the repository root.
func Generate(root string) ([]byte, error) {
	ex, err := examples(root)
	if err != nil {
		return nil, err
	}
	page := render(rules.Areas(), ex)
	// Every link we print must land: check the anchors here, where the
	// page is made, as well as in the tests that render links.
	have := map[string]bool{}
	for _, a := range anchors(string(page)) {
		have[a] = true
	}
	for _, r := range rules.All() {
		if !have[r.ID] {
			return nil, fmt.Errorf("rendering %s: rule %s has no anchor of its own", Path, r.ID)
		}
	}
	if !have[sarif.TruncatedRuleID] {
		return nil, fmt.Errorf("rendering %s: %s has no anchor", Path, sarif.TruncatedRuleID)
	}
	return page, nil
}

func render(areas []rules.Area, ex map[string]example) []byte {
	var b bytes.Buffer
	gs := slices.DeleteFunc(slices.Clone(areas), func(a rules.Area) bool { return len(a.Rules) == 0 })
	counts := map[rules.Kind]int{}
	total, withExample := 0, 0
	for _, a := range gs {
		for _, r := range a.Rules {
			total++
			counts[r.Kind]++
			if _, ok := ex[r.ID]; ok && r.Kind == rules.KindChange {
				withExample++
			}
		}
	}
	b.WriteString("<!-- Generated from the rule table (pkg/rules) and the diff fixtures by `go generate ./internal/app/rulesdoc`. Do not edit. -->\n\n")
	b.WriteString("# Rules\n\n")
	fmt.Fprintf(&b, "Every rule mcp-surface reports: %d in all, %d specification, %d lint and %d change rules. "+
		"`mcp-surface explain RULE` prints the same text, and every rule link in the pull request comment and in SARIF (`helpUri`) "+
		"lands on the rule's heading here.\n\n", total, counts[rules.KindSpec], counts[rules.KindLint], counts[rules.KindChange])
	b.WriteString("Levels form one scale shared by every producer and by SARIF: `error`, `warning`, `note` and `info` (hidden unless asked for). " +
		"A change rule has a severity, which gives its level: breaking → error, risky → warning, minor and patch → note, info → info; " +
		"the worst change suggests the version bump. `--fail-on` sets the level that fails a run. " +
		"Set a rule's severity, or turn it off, under `severity:` in `.mcp-surface.yaml` ([schema](../schema/config.schema.json)).\n\n")
	fmt.Fprintf(&b, "The examples are test fixtures, chosen in each rule's row (%d of the %d change rules have one); "+
		"the fixture tests check that the comparison reports exactly the findings shown.\n\n", withExample, counts[rules.KindChange])

	b.WriteString("## Contents\n\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "- [%s](#%s) (%d)\n", g.Title, anchor(g.Title), len(g.Rules))
	}
	fmt.Fprintf(&b, "- [%s](#%s)\n\n", sarifSection, anchor(sarifSection))
	for _, g := range gs {
		fmt.Fprintf(&b, "**[%s](#%s)**\n\n", g.Title, anchor(g.Title))
		b.WriteString("| Rule | Default | Summary |\n| --- | --- | --- |\n")
		for _, r := range g.Rules {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.ID, r.ID, defaultOf(r), cell(r.Summary))
		}
		b.WriteString("\n")
	}

	for _, g := range gs {
		fmt.Fprintf(&b, "## %s\n\n", g.Title)
		if g.Intro != "" {
			b.WriteString(g.Intro + "\n\n")
		}
		if g.Title == compatArea {
			writeProfiles(&b)
		}
		for _, r := range g.Rules {
			writeRule(&b, r, ex)
		}
	}

	fmt.Fprintf(&b, "## %s\n\n", sarifSection)
	b.WriteString("A result the SARIF writer adds itself; it is not in the rule table and `explain` does not know it.\n\n")
	fmt.Fprintf(&b, "### %s\n\n", sarif.TruncatedRuleID)
	fmt.Fprintf(&b, "**%s.**\n\nlevel **note**\n\n%s\n", sarif.TruncatedRuleSummary, sarif.TruncatedRuleHelp)
	return b.Bytes()
}

// writeProfiles lists the client profiles with every constraint, the rule
// that reports it and the documentation it comes from.
func writeProfiles(b *bytes.Buffer) {
	b.WriteString("**Client profiles.**\n\n| Profile | Constraint | Rule | Documentation | Checked |\n| --- | --- | --- | --- | --- |\n")
	for _, p := range clients.All() {
		for i, c := range p.Constraints {
			name := ""
			if i == 0 {
				name = fmt.Sprintf("`%s` (%s)", p.Name, cell(p.Title))
			}
			doc := fmt.Sprintf("[%s](%s)", host(c.Source), c.Source)
			if c.Also != "" {
				doc += fmt.Sprintf(", [%s](%s)", host(c.Also), c.Also)
			}
			fmt.Fprintf(b, "| %s | %s | [`%s`](#%s) | %s | %s |\n", name, cell(c.Reason), c.Rule(), c.Rule(), doc, c.Checked)
		}
	}
	b.WriteString("\n`claude-code:SERVER` names the server as it is added to Claude Code; without it the server's `serverInfo.name` is used.\n\n")
}

// host is a link's text: the page's host and path.
func host(u string) string {
	u = strings.TrimPrefix(u, "https://")
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return u
}

func defaultOf(r rules.Rule) string {
	if r.Severity != "" {
		return fmt.Sprintf("%s (%s)", r.Severity, r.Level)
	}
	return string(r.Level)
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "_", `\_`, "*", `\*`).Replace(s)
}

func writeRule(b *bytes.Buffer, r rules.Rule, ex map[string]example) {
	fmt.Fprintf(b, "### %s\n\n", r.ID)
	fmt.Fprintf(b, "**%s.**\n\n", r.Summary)
	meta := []string{string(r.Kind)}
	if r.Severity != "" {
		meta = append(meta, fmt.Sprintf("severity **%s**", r.Severity))
	}
	meta = append(meta, fmt.Sprintf("level **%s**", r.Level))
	if r.Direction != "" {
		meta = append(meta, "direction "+r.Direction)
	}
	if len(r.Tags) > 0 {
		tags := make([]string, len(r.Tags))
		for i, t := range r.Tags {
			tags[i] = "`" + t + "`"
		}
		meta = append(meta, "tags "+strings.Join(tags, ", "))
	}
	b.WriteString(strings.Join(meta, " · ") + "\n\n")
	b.WriteString(strings.TrimSpace(r.Help) + "\n\n")
	if e, ok := ex[r.ID]; ok && r.Kind == rules.KindChange {
		writeExample(b, e)
	}
}

func writeExample(b *bytes.Buffer, e example) {
	how := ""
	if e.Reversed {
		how = ", read from head to base"
	}
	if e.Options != "" {
		how += ", with " + e.Options
	}
	what := "The snapshot"
	if e.Schema != "" {
		what = "The tool's `" + e.Schema + "`"
	}
	diff := textdiff.Diff(strings.TrimRight(e.Before, "\n"), strings.TrimRight(e.After, "\n"))
	fmt.Fprintf(b, "**Example** ([`%s`](../%s)%s). %s, before → after:\n\n%s\n\n", e.Fixture, e.Fixture, how, what, report.CodeBlock(diff, "diff"))
	fmt.Fprintf(b, "Findings (rule, then %s):\n\n%s\n\n", pointerLegend(e), report.CodeBlock(strings.Join(e.Findings, "\n"), "text"))
}

func pointerLegend(e example) string {
	if e.Schema != "" {
		return "the JSON Pointers into the base and head schemas"
	}
	return "the subject and the JSON Pointer into it"
}
