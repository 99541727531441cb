package rulesdoc

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

// Path is the page's path from the repository root.
const Path = "docs/rules.md"

// section groups rules on the page: the first whose match accepts a rule
// holds it.
type section struct {
	title string
	intro string
	match func(rules.Rule) bool
}

func changePrefix(prefix string) func(rules.Rule) bool {
	return func(r rules.Rule) bool { return r.Kind == rules.KindChange && strings.HasPrefix(r.ID, prefix) }
}

var sections = []section{
	{"Specification", "What the published MCP schema and the specification's MUSTs require of what the server sends (`validate`, `check`). Levels are fixed by the specification: a MUST is an error.",
		func(r rules.Rule) bool { return r.Kind == rules.KindSpec }},
	{"Lint", "SHOULDs, good practice, probes, the committed snapshot and the configuration itself.",
		func(r rules.Rule) bool { return r.Kind == rules.KindLint }},
	{"Protocol and server", "Changes between two snapshots: the negotiated protocol revision, the server's identity and its instructions.",
		func(r rules.Rule) bool { return changePrefix("protocol-")(r) || changePrefix("server-")(r) }},
	{"Capabilities", "Changes of the capabilities the server advertises in its handshake.", changePrefix("capability-")},
	{"Tool annotations", "Changes of a tool's behaviour hints (`annotations`), compared by their effective value.", changePrefix("tool-annotation-")},
	{"Tools", "Tools appearing, disappearing, renamed, deprecated, and changes of their metadata and execution.", changePrefix("tool-")},
	{"Tool input schemas", "Changes inside a tool's `inputSchema`. Direction input: every call that was valid must stay valid, so what narrows the accepted arguments breaks callers.", changePrefix("input-")},
	{"Tool output schemas", "Changes inside a tool's `outputSchema`. Direction output: every result must still satisfy what clients expected, so what widens the possible results breaks them.", changePrefix("output-")},
	{"Prompts", "Prompts and their arguments.", changePrefix("prompt-")},
	{"Resource templates", "Resource templates: their URI template (RFC 6570), variables and metadata.", changePrefix("resource-template-")},
	{"Resources", "Resources and their metadata.", changePrefix("resource-")},
	{"Model-visible text", "Text the model reads (descriptions, titles, instructions) that gained something suspicious: how a tool is turned against its users.", changePrefix("text-")},
	{"Other changes", "", func(r rules.Rule) bool { return r.Kind == rules.KindChange }},
	{"Other rules", "", func(rules.Rule) bool { return true }},
}

// sarifSection documents the one result the SARIF output adds itself.
const sarifSection = "SARIF output"

// Generate renders the page from the rule table and the fixtures under
// the repository root.
func Generate(root string) ([]byte, error) {
	ex, err := examples(root)
	if err != nil {
		return nil, err
	}
	page := render(rules.All(), ex)
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

type grouped struct {
	section
	rules []rules.Rule
}

func group(all []rules.Rule) []grouped {
	gs := make([]grouped, len(sections))
	for i, s := range sections {
		gs[i].section = s
	}
	for _, r := range all {
		for i := range gs {
			if gs[i].match(r) {
				gs[i].rules = append(gs[i].rules, r)
				break
			}
		}
	}
	for i := range gs {
		slices.SortFunc(gs[i].rules, func(a, b rules.Rule) int { return strings.Compare(a.ID, b.ID) })
	}
	return slices.DeleteFunc(gs, func(g grouped) bool { return len(g.rules) == 0 })
}

func render(all []rules.Rule, ex map[string]example) []byte {
	var b bytes.Buffer
	gs := group(all)
	counts := map[rules.Kind]int{}
	withExample := 0
	for _, r := range all {
		counts[r.Kind]++
		if _, ok := ex[r.ID]; ok && r.Kind == rules.KindChange {
			withExample++
		}
	}
	b.WriteString("<!-- Generated from the rule table (pkg/rules) and the diff fixtures by `go generate ./internal/rulesdoc`. Do not edit. -->\n\n")
	b.WriteString("# Rules\n\n")
	fmt.Fprintf(&b, "Every rule mcp-surface reports: %d in all, %d specification, %d lint and %d change rules. "+
		"`mcp-surface explain RULE` prints the same text, and every rule link in the pull request comment and in SARIF (`helpUri`) "+
		"lands on the rule's heading here.\n\n", len(all), counts[rules.KindSpec], counts[rules.KindLint], counts[rules.KindChange])
	b.WriteString("Levels form one scale shared by every producer and by SARIF: `error`, `warning`, `note` and `info` (hidden unless asked for). " +
		"A change rule has a severity, which gives its level: breaking → error, risky → warning, minor and patch → note, info → info; " +
		"the worst change suggests the version bump. `--fail-on` sets the level that fails a run. " +
		"Set a rule's severity, or turn it off, under `severity:` in `.mcp-surface.yaml` ([schema](../schema/config.schema.json)).\n\n")
	fmt.Fprintf(&b, "The examples are the smallest test fixture that reports the rule (%d of the %d change rules have one); "+
		"the fixture tests check that the comparison reports exactly the findings shown.\n\n", withExample, counts[rules.KindChange])

	b.WriteString("## Contents\n\n")
	for _, g := range gs {
		fmt.Fprintf(&b, "- [%s](#%s) (%d)\n", g.title, anchor(g.title), len(g.rules))
	}
	fmt.Fprintf(&b, "- [%s](#%s)\n\n", sarifSection, anchor(sarifSection))
	for _, g := range gs {
		fmt.Fprintf(&b, "**[%s](#%s)**\n\n", g.title, anchor(g.title))
		b.WriteString("| Rule | Default | Summary |\n| --- | --- | --- |\n")
		for _, r := range g.rules {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.ID, r.ID, defaultOf(r), cell(r.Summary))
		}
		b.WriteString("\n")
	}

	for _, g := range gs {
		fmt.Fprintf(&b, "## %s\n\n", g.title)
		if g.intro != "" {
			b.WriteString(g.intro + "\n\n")
		}
		for _, r := range g.rules {
			writeRule(&b, r, ex)
		}
	}

	fmt.Fprintf(&b, "## %s\n\n", sarifSection)
	b.WriteString("A result the SARIF writer adds itself; it is not in the rule table and `explain` does not know it.\n\n")
	fmt.Fprintf(&b, "### %s\n\n", sarif.TruncatedRuleID)
	fmt.Fprintf(&b, "**%s.**\n\nlevel **note**\n\n%s\n", sarif.TruncatedRuleSummary, sarif.TruncatedRuleHelp)
	return b.Bytes()
}

func defaultOf(r rules.Rule) string {
	if r.Severity != "" {
		return fmt.Sprintf("%s (%s)", r.Severity, r.Level)
	}
	return string(r.Level)
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
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
