package lock

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// maxEntryToken bounds each side of an entry change.
const maxEntryToken = 120

// EntryChange states in one line how a configuration entry changed, from
// the command line (or URL) that was locked to the one configured now:
// "args: …@2025.11.25 → …@2026.8.31". A common prefix of a changed
// argument is cut at its last separator. When the launch reads the same,
// what changed is the entry's env or headers, whose values are never
// shown. The line holds configuration text: escape it where printed.
func EntryChange(was, now string) string {
	if was == now {
		return "env or headers changed (values not shown)"
	}
	a, b := strings.Fields(was), strings.Fields(now)
	if len(a) == 0 || len(b) == 0 || a[0] != b[0] {
		what := "command"
		if strings.Contains(was, "://") || strings.Contains(now, "://") {
			what = "url"
		}
		return what + ": " + bound(was) + " → " + bound(now)
	}
	a, b = a[1:], b[1:]
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	x, y := strings.Join(a, " "), strings.Join(b, " ")
	if len(a) == 1 && len(b) == 1 {
		x, y = trimCommon(x, y)
	}
	if x == "" {
		x = "(none)"
	}
	if y == "" {
		y = "(none)"
	}
	return "args: " + bound(x) + " → " + bound(y)
}

// trimCommon replaces the common prefix of two arguments, up to its last
// separator (@ / : =), with an ellipsis.
func trimCommon(x, y string) (string, string) {
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	cut := strings.LastIndexAny(x[:n], "@/:=")
	if cut <= 0 {
		return x, y
	}
	return "…" + x[cut:], "…" + y[cut:]
}

func bound(s string) string {
	if r := []rune(s); len(r) > maxEntryToken {
		return string(r[:maxEntryToken-1]) + "…"
	}
	return s
}

// Sees says what the agents will see of a server: its tools (names),
// prompts, resources and templates, and its context cost. Server names
// are as served: escape the line where printed.
func Sees(m *manifest.Manifest, maxNames int) string {
	if m == nil {
		return ""
	}
	var names []string
	for i, t := range m.Tools {
		if i == maxNames {
			names = append(names, fmt.Sprintf("and %d more", len(m.Tools)-maxNames))
			break
		}
		names = append(names, t.ID)
	}
	s := plural(len(m.Tools), "tool", "tools")
	if len(names) > 0 {
		s += " (" + strings.Join(names, ", ") + ")"
	}
	s += fmt.Sprintf(", %s, %s, %s", plural(len(m.Prompts), "prompt", "prompts"), plural(len(m.Resources), "resource", "resources"),
		plural(len(m.ResourceTemplates), "resource template", "resource templates"))
	if t, err := cost.Compute(m, cost.Options{}); err == nil {
		s += fmt.Sprintf("; %s tokens of context in every session", cost.Short(t.Total))
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Counts says what a snapshot holds, for `lock`'s log.
func Counts(m *manifest.Manifest) string {
	return fmt.Sprintf("%s, %s, %s, %s", plural(len(m.Tools), "tool", "tools"), plural(len(m.Prompts), "prompt", "prompts"),
		plural(len(m.Resources), "resource", "resources"), plural(len(m.ResourceTemplates), "template", "templates"))
}

// Advice is what to do about a server's status, with the command.
func Advice(o *Outcome) string {
	arg := o.Config + ":" + o.Name
	switch o.Status {
	case StatusUnchanged:
		if o.Fails() {
			return "its surface is unchanged, but the registry serves other bytes for its locked package: do not start it before you know why"
		}
		return "unchanged"
	case StatusDrifted:
		return "drifted: its surface changed under the same configuration; review the changes, then accept them with `mcp-surface lock --update " + arg + "`"
	case StatusReconfigured:
		if o.Head != nil {
			return "its configuration entry changed since it was locked; review what the new entry serves, then re-lock it with `mcp-surface lock --update " + arg + "`"
		}
		return "its configuration entry changed since it was locked (command, arguments, URL or headers): re-lock it with `mcp-surface lock --update " + arg + "`"
	case StatusUnlocked:
		return "declared but not locked: review what it adds, then lock it with `mcp-surface lock --update " + arg + "`"
	case StatusGone:
		return "locked but no longer declared: drop it with `mcp-surface lock --update`"
	case StatusSkipped:
		return "not checked: set " + strings.Join(o.Missing, ", ")
	}
	return string(o.Status)
}

// TextLines renders a check for a terminal, one line per element, server
// text as written (the caller escapes each line): a headline naming the
// worst, one line per server with its verdict and what to do, and under
// each changed server its entry change, what the agents will see of a
// new server, and the findings a consumer reads, in Ranked order.
func TextLines(outs []*Outcome) []string {
	changed := 0
	for _, o := range outs {
		if o.Fails() {
			changed++
		}
	}
	lines := []string{fmt.Sprintf("mcp-surface lock --check: %d server(s), %d changed", len(outs), changed)}
	if h := Headline(outs); h != "" {
		lines = append(lines, "worst: "+h)
	}
	for _, o := range outs {
		mark := map[bool]string{true: "✗", false: "✓"}[o.Fails()]
		if o.Status == StatusSkipped {
			mark = "!"
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s", mark, o.Key(), Advice(o)))
		if o.EntryChange != "" {
			lines = append(lines, "    entry: "+o.EntryChange)
		}
		if o.PackageNote != "" {
			lines = append(lines, "    package: "+o.PackageNote)
		}
		if o.Head == nil && len(o.Section.Findings) == 0 {
			continue
		}
		if o.Status == StatusUnlocked {
			lines = append(lines, "    the agents will see: "+Sees(o.Head, maxTools))
		}
		fs := Ranked(o)
		if o.Status == StatusUnlocked {
			fs = dangerOnly(fs)
		}
		if o.Status == StatusUnchanged {
			fs = packageOnly(fs)
		}
		switch {
		case len(fs) > 0 && o.Status == StatusUnchanged:
			lines = append(lines, "    its package:")
		case len(fs) > 0:
			lines = append(lines, "    "+Verdict(o)+":")
		}
		for _, f := range fs {
			lines = append(lines, "      "+findingLine(&f))
			if d := report.FindingTextDiff(f); d != "" {
				lines = append(lines, "          "+d)
			}
		}
	}
	return lines
}

func dangerOnly(fs []finding.Finding) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if ClassOf(&f) == ClassDanger || packageRules[f.Rule] {
			out = append(out, f)
		}
	}
	return out
}

// packageRules are the findings about the package a server launches.
var packageRules = map[string]bool{rules.PackageSpecFloating: true, rules.PackageIntegrityChanged: true, rules.PackageVersionNewer: true}

// packageOnly keeps the package findings of a server whose surface is
// the locked one (there is nothing else).
func packageOnly(fs []finding.Finding) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if packageRules[f.Rule] {
			out = append(out, f)
		}
	}
	return out
}

// findingLine is one finding for a terminal.
func findingLine(f *finding.Finding) string {
	item := f.Subject.String()
	if f.Pointer != "" {
		item += " " + f.Pointer
	}
	tag := map[Class]string{ClassDanger: "security", ClassBreak: "break"}[ClassOf(f)]
	if tag != "" {
		tag = " " + tag
	}
	return fmt.Sprintf("[%s%s] %s: %s (%s)", f.Level, tag, item, f.Message, f.Rule)
}
