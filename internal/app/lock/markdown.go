package lock

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Bounds of the markdown: a cell's text, the findings listed per server,
// the tools named per server, and the whole body (GitHub's issue and
// comment limit is 65,536 characters; the publisher cuts at it too).
const (
	maxCell     = 300
	maxFindings = 60
	maxTools    = 50
	maxMarkdown = 60000
)

// Markdown renders a check for people who consume the servers: a headline,
// one row per server with its status, then per changed server what
// changed (drift, or everything an unlocked server adds) with the command
// that accepts it. Every name, message and value is escaped
// (report.Markdown and report.Code), each cell bounded, and the body kept
// within GitHub's limit, so that a server's text can neither format the
// issue nor mention anyone. The same outcomes give the same bytes.
func Markdown(outs []*Outcome, lockFile string) string {
	var b strings.Builder
	changed := 0
	for _, o := range outs {
		if o.Status.Fails() {
			changed++
		}
	}
	if changed == 0 {
		fmt.Fprintf(&b, "## mcp-surface: the %d locked servers are unchanged\n\n", len(outs))
	} else {
		fmt.Fprintf(&b, "## mcp-surface: %d of %d servers changed under %s\n\n", changed, len(outs), report.Code(lockFile, 200))
	}
	b.WriteString("| Server | Status |\n|---|---|\n")
	for _, o := range outs {
		fmt.Fprintf(&b, "| %s | %s |\n", report.Code(o.Key(), maxCell), statusCell(o))
	}
	for _, o := range outs {
		if !o.Status.Fails() {
			continue
		}
		if b.Len() > maxMarkdown {
			b.WriteString("\n*More servers changed than fit here: run `mcp-surface lock --check` for all of them.*\n")
			break
		}
		writeServer(&b, o)
	}
	return b.String()
}

// statusCell is the status column: the status and the worst findings.
func statusCell(o *Outcome) string {
	switch o.Status {
	case StatusDrifted, StatusUnlocked, StatusReconfigured:
		counts := map[rules.Level]int{}
		for _, f := range shownFindings(o) {
			counts[f.Level]++
		}
		var parts []string
		for _, l := range []rules.Level{rules.LevelError, rules.LevelWarning, rules.LevelNote} {
			if n := counts[l]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s%s", n, l, map[bool]string{true: "s", false: ""}[n > 1]))
			}
		}
		word := map[Status]string{StatusDrifted: "**drifted**", StatusUnlocked: "**added**, not locked", StatusReconfigured: "**re-configured**: re-lock it"}[o.Status]
		if len(parts) == 0 {
			return word
		}
		return word + ": " + strings.Join(parts, ", ")
	case StatusGone:
		return "removed from its configuration"
	case StatusSkipped:
		return "not checked: " + report.Markdown("set "+strings.Join(o.Missing, ", "), maxCell)
	}
	return "unchanged"
}

func writeServer(b *strings.Builder, o *Outcome) {
	arg := o.Config + ":" + o.Name
	fmt.Fprintf(b, "\n### %s\n\n", report.Markdown(o.Key(), maxCell))
	if o.Launch != "" {
		fmt.Fprintf(b, "Started as %s.\n\n", report.Code(o.Launch, maxCell))
	}
	switch o.Status {
	case StatusReconfigured:
		fmt.Fprintf(b, "Its configuration entry (command, arguments, URL or headers) changed since it was locked. Re-lock it: %s\n", report.Code("mcp-surface lock --update "+arg, maxCell))
		if o.Head == nil {
			return
		}
		b.WriteString("\nCompared with its lock entry:\n\n")
	case StatusGone:
		fmt.Fprintf(b, "No configuration declares it any more. Drop it from the lock: %s\n", report.Code("mcp-surface lock --update", maxCell))
		return
	case StatusUnlocked:
		if o.Head != nil {
			var names []string
			for i, t := range o.Head.Tools {
				if i == maxTools {
					names = append(names, fmt.Sprintf("and %d more", len(o.Head.Tools)-maxTools))
					break
				}
				names = append(names, report.Code(t.ID, 100))
			}
			fmt.Fprintf(b, "What the agents will see: %d tool%s", len(o.Head.Tools), map[bool]string{true: "", false: "s"}[len(o.Head.Tools) == 1])
			if len(names) > 0 {
				b.WriteString(": " + strings.Join(names, ", "))
			}
			b.WriteString(".\n\n")
		}
		fmt.Fprintf(b, "Review it, then lock it: %s\n\n", report.Code("mcp-surface lock --update "+arg, maxCell))
	case StatusDrifted:
		fmt.Fprintf(b, "Its surface changed under the same configuration. Review the changes, then accept them: %s\n\n", report.Code("mcp-surface lock --update "+arg, maxCell))
	}
	writeFindings(b, shownFindings(o))
}

// shownFindings are the findings of a server worth a reader's time, worst
// first. Compared with nothing, every capability and protocol revision of
// an unlocked server is an "addition": what matters there is the tools,
// their text, the instructions and the context cost.
func shownFindings(o *Outcome) []finding.Finding {
	fs := o.Section.Changes()
	if o.Status == StatusUnlocked {
		fs = slices.DeleteFunc(fs, func(f finding.Finding) bool {
			return f.Subject.Kind == finding.KindServer && !strings.HasPrefix(f.Rule, "context-cost") &&
				!slices.Contains(f.Tags, "llm") && !slices.Contains(f.Tags, "sec")
		})
	}
	// Worst first; at one level, the items before the server itself.
	server := func(f finding.Finding) int {
		if f.Subject.Kind == finding.KindServer {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(fs, func(x, y finding.Finding) int {
		return cmp.Or(y.Level.Rank()-x.Level.Rank(), server(x)-server(y))
	})
	return fs
}

func writeFindings(b *strings.Builder, fs []finding.Finding) {
	shown := 0
	for _, f := range fs {
		if f.Level == rules.LevelInfo {
			continue
		}
		if shown == 0 {
			b.WriteString("| Level | Rule | Item | What changed |\n|---|---|---|---|\n")
		}
		if shown == maxFindings {
			fmt.Fprintf(b, "| | | | and more: run %s |\n", report.Code("mcp-surface lock --check", 100))
			break
		}
		shown++
		item := f.Subject.String()
		if f.Pointer != "" {
			item += " " + f.Pointer
		}
		what := report.Markdown(f.Message, maxCell)
		if d := report.FindingTextDiff(f); d != "" {
			// The words that changed, {+added+} and [-removed-]: a
			// reviewer reads the instruction a description gained.
			what += "<br>" + report.Code(d, maxCell)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", f.Level, report.Code(f.Rule, 100), report.Code(item, 200), what)
	}
	if shown == 0 {
		b.WriteString("Only changes hidden by default (info) were found.\n")
	}
}
