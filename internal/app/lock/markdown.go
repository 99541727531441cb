package lock

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
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
		if o.Fails() {
			changed++
		}
	}
	if changed == 0 {
		fmt.Fprintf(&b, "## mcp-surface: the %d locked servers are unchanged\n\n", len(outs))
	} else {
		fmt.Fprintf(&b, "## mcp-surface: %d of %d servers changed under %s\n\n", changed, len(outs), report.Code(lockFile, 200))
		if _, f, ok := Worst(outs); ok && ClassOf(&f) <= ClassBreak {
			fmt.Fprintf(&b, "**%s**\n\n", report.Markdown(Headline(outs), 2*maxCell))
		}
	}
	b.WriteString("| Server | Status |\n|---|---|\n")
	for _, o := range outs {
		fmt.Fprintf(&b, "| %s | %s |\n", report.Code(o.Key(), maxCell), statusCell(o))
	}
	for _, o := range outs {
		if !o.Fails() {
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

// statusCell is the status column: the status and the verdict.
func statusCell(o *Outcome) string {
	switch o.Status {
	case StatusDrifted, StatusUnlocked, StatusReconfigured:
		word := map[Status]string{StatusDrifted: "**drifted**", StatusUnlocked: "**added**, not locked", StatusReconfigured: "**re-configured**: re-lock it"}[o.Status]
		if o.Head == nil && len(o.Section.Findings) == 0 {
			return word
		}
		if o.Status == StatusReconfigured {
			word = "**re-configured**"
		}
		if o.Status == StatusUnlocked {
			if fs := dangerOnly(Ranked(o)); len(fs) > 0 {
				return word + ": " + plural(len(fs), "security finding", "security findings")
			}
			return word
		}
		return word + ": " + Verdict(o)
	case StatusGone:
		return "removed from its configuration"
	case StatusSkipped:
		return "not checked: " + report.Markdown("set "+strings.Join(o.Missing, ", "), maxCell)
	}
	if fs := packageOnly(Ranked(o)); len(fs) > 0 {
		return "unchanged surface: " + report.Markdown(Verdict(o), maxCell)
	}
	return "unchanged"
}

func writeServer(b *strings.Builder, o *Outcome) {
	arg := o.Config + ":" + o.Name
	fmt.Fprintf(b, "\n### %s\n\n", report.Markdown(o.Key(), maxCell))
	if o.Launch != "" {
		fmt.Fprintf(b, "Started as %s.\n\n", report.Code(o.Launch, maxCell))
	}
	if o.PackageNote != "" {
		fmt.Fprintf(b, "Package: %s.\n\n", report.Markdown(o.PackageNote, maxCell))
	}
	switch o.Status {
	case StatusReconfigured:
		if o.EntryChange != "" {
			fmt.Fprintf(b, "Its configuration entry changed since it was locked: %s\n\n", report.Code(o.EntryChange, maxCell))
		}
		if o.Head == nil {
			fmt.Fprintf(b, "Re-lock it: %s\n", report.Code("mcp-surface lock --update "+arg, maxCell))
			return
		}
		b.WriteString("What the new entry serves, compared with its lock entry:\n\n")
		writeFindings(b, Ranked(o))
		fmt.Fprintf(b, "\nOnce reviewed, re-lock it: %s\n", report.Code("mcp-surface lock --update "+arg, maxCell))
		return
	case StatusGone:
		fmt.Fprintf(b, "No configuration declares it any more. Drop it from the lock: %s\n", report.Code("mcp-surface lock --update", maxCell))
		return
	case StatusUnlocked:
		if o.Head != nil {
			fmt.Fprintf(b, "What the agents will see: %s.\n\n", report.Markdown(Sees(o.Head, maxTools), 4*maxCell))
			if fs := dangerOnly(Ranked(o)); len(fs) > 0 {
				writeFindings(b, fs)
				b.WriteString("\n")
			}
		}
		fmt.Fprintf(b, "Review it, then lock it: %s\n", report.Code("mcp-surface lock --update "+arg, maxCell))
		return
	case StatusUnchanged:
		b.WriteString("Its surface is the locked one, but its package is not:\n\n")
	case StatusDrifted:
		fmt.Fprintf(b, "Its surface changed under the same configuration. Review the changes, then accept them: %s\n\n", report.Code("mcp-surface lock --update "+arg, maxCell))
	}
	writeFindings(b, Ranked(o))
}

func writeFindings(b *strings.Builder, fs []finding.Finding) {
	shown := 0
	for _, f := range fs {
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
		level := string(f.Level)
		switch ClassOf(&f) {
		case ClassDanger:
			level = "**security** " + level
		case ClassBreak:
			level = "**break** " + level
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", level, report.Code(f.Rule, 100), report.Code(item, 200), what)
	}
	if shown == 0 {
		b.WriteString("Only changes a consumer need not act on (info, or for the server's author) were found.\n")
	}
}
