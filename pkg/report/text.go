package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// ANSI styles of the text format (only with Options.Color).
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
)

type painter bool

func (p painter) paint(style, s string) string {
	if !p || s == "" {
		return s
	}
	return style + s + ansiReset
}

func (p painter) level(l rules.Level, acknowledged bool) string {
	name := fmt.Sprintf("%-7s", l)
	switch {
	case acknowledged:
		return p.paint(ansiGreen, name)
	case l == rules.LevelError:
		return p.paint(ansiBold+ansiRed, name)
	case l == rules.LevelWarning:
		return p.paint(ansiYellow, name)
	case l == rules.LevelNote:
		return p.paint(ansiCyan, name)
	}
	return p.paint(ansiDim, name)
}

const textIndent = "          "

// renderText is the terminal view: per server the verdict, the summary
// and one line of counts per kind first, then the findings, tools first:
// a rule that hit several subjects of a kind is one entry naming them
// (unless Verbose), the rest grouped by subject, worst first. Every
// untrusted value goes through LogLine, so no server text can start a
// line of its own (a "::" workflow command in a CI log) or carry escape
// sequences.
func renderText(w io.Writer, r *Report, o Options) error {
	bw := bufio.NewWriter(w)
	p := painter(o.Color)
	b := newMDBuilder(r, o)
	b.code = func(s string) string { return "`" + LogLine(s, MaxName) + "`" }
	secs := b.secs
	if len(secs) == 0 {
		fmt.Fprintln(bw, "no servers were checked")
	}
	for si, s := range secs {
		if si > 0 {
			fmt.Fprintln(bw)
		}
		multi := len(secs) > 1 || s.Server != ""
		if multi {
			fmt.Fprintln(bw, p.paint(ansiBold, "== "+serverTitle(s.Server)+" =="))
		}
		if line := comparedLine(s); line != "" {
			fmt.Fprintln(bw, p.paint(ansiDim, line))
		}
		items, hidden := b.items[si], b.hidden[si]
		sv := b.verdict(si)
		fmt.Fprintln(bw, p.paint(ansiBold, sv.text))
		prefix := ""
		if multi {
			prefix = serverTitle(s.Server) + ": "
		}
		fmt.Fprintln(bw, prefix+summaryLine(s, hidden, o))
		for _, l := range textCounts(b.all[si]) {
			fmt.Fprintln(bw, "  "+l)
		}
		for _, n := range s.Notes {
			fmt.Fprintln(bw, p.paint(ansiDim, "note: "+LogLine(n, MaxMessage)))
		}
		for _, kind := range append(slices.Clone(kindOrder), "") {
			var mine []Item
			for _, it := range items {
				if it.Subject.Kind == kind || (kind == "" && finding.KindRank(it.Subject.Kind) == len(kindOrder)) {
					mine = append(mine, it)
				}
			}
			// Collapsed runs and subjects, worst first; at one level the
			// runs lead.
			type entry struct {
				rank   int
				run    *run
				repeat []Item
				g      *group
			}
			var entries []entry
			var single []Item
			for _, ru := range runsOf(mine) {
				if o.Verbose {
					single = append(single, ru.items...)
					continue
				}
				repeats, rest := splitRun(ru)
				for _, its := range repeats {
					entries = append(entries, entry{rank: ru.level.Rank(), repeat: its})
				}
				if !rest.collapsed() {
					single = append(single, rest.items...)
					continue
				}
				entries = append(entries, entry{rank: ru.level.Rank(), run: rest})
			}
			groups := groupBySubject(single)
			slices.SortStableFunc(groups, func(x, y *group) int {
				return cmp.Or(cmp.Compare(y.worst, x.worst), naturalCompare(x.subject.Name, y.subject.Name))
			})
			for _, g := range groups {
				entries = append(entries, entry{rank: g.worst, g: g})
			}
			slices.SortStableFunc(entries, func(x, y entry) int { return cmp.Compare(y.rank, x.rank) })
			for _, e := range entries {
				if e.run != nil {
					writeTextRun(bw, p, e.run)
					continue
				}
				if e.repeat != nil {
					writeTextRepeat(bw, p, e.repeat)
					continue
				}
				fmt.Fprintln(bw)
				fmt.Fprintln(bw, p.paint(ansiBold, subjectHeading(e.g.subject.Kind, e.g.subject.Name)))
				slices.SortStableFunc(e.g.items, compareItems)
				for _, it := range e.g.items {
					writeTextItem(bw, p, it, o.Verbose)
				}
			}
		}
	}
	return bw.Flush()
}

// textCounts is one line per kind with changes, then spec and lint.
func textCounts(items []Item) []string {
	return kindCountLines(items, func(k string) string {
		if k == finding.KindServer {
			return "server"
		}
		return kindLabel(k) + "s"
	})
}

// kindCountLines is one line per kind with changes among items, headed
// by heading(kind): the counts by class ("7 removed · 3 renamed"), the
// server's as one count of changes.
func kindCountLines(items []Item, heading func(kind string) string) []string {
	var out []string
	for k, c := range changedKinds(items) {
		if k == finding.KindServer {
			out = append(out, heading(k)+": "+plural(serverChanges(items), "change", "changes"))
			continue
		}
		var parts []string
		for cl, n := range c {
			if n > 0 {
				parts = append(parts, classCount(cl, n))
			}
		}
		out = append(out, heading(k)+": "+strings.Join(parts, " · "))
	}
	return out
}

// writeTextRun writes a collapsed run: the rule, its level and every
// subject it hit, one line.
func writeTextRun(w io.Writer, p painter, ru *run) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.paint(ansiBold, ru.title(func(s string) string { return s })))
	acked := true
	for _, it := range ru.items {
		acked = acked && it.Acknowledged != ""
	}
	fmt.Fprintln(w, "  "+p.level(ru.level, acked)+" "+ru.rule)
	fmt.Fprintln(w, textIndent+nameList(ru.names(), maxRowNames, func(n string) string { return LogLine(n, MaxName) }))
}

// writeTextRepeat writes one change made identically on several subjects:
// how many, the finding as for one subject, and the subjects it hit.
func writeTextRepeat(w io.Writer, p painter, its []Item) {
	names := subjectNames(its)
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.paint(ansiBold, kindNoun(its[0].Subject.Kind, len(names))+", one change"))
	one := its[0]
	one.Location = locate.Location{}
	writeTextItem(w, p, one, false)
	fmt.Fprintln(w, textIndent+"in "+nameList(names, maxRowNames, func(n string) string { return LogLine(n, MaxName) }))
}

func writeTextItem(w io.Writer, p painter, it Item, verbose bool) {
	head := "  " + p.level(it.Level, it.Acknowledged != "") + " " + it.Rule
	if it.Pointer != "" {
		head += "  " + LogLine(it.Pointer, MaxName)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, textIndent+LogLine(it.Message, MaxMessage))
	// A plain addition or removal carries the item's name as its value:
	// the heading already says it.
	plain := (it.Before == nil || isName(it.Before, it.Subject.Name)) && (it.After == nil || isName(it.After, it.Subject.Name))
	valueMax := 160
	if verbose {
		valueMax = MaxText
	}
	switch {
	case it.TextDiff != "":
		for _, l := range strings.Split(it.TextDiff, "\n") {
			fmt.Fprintln(w, textIndent+LogLine(l, MaxText))
		}
	case plain && !verbose:
	case it.Before != nil || it.After != nil:
		fmt.Fprintln(w, textIndent+"before: "+rawValue(it.Before, valueMax))
		fmt.Fprintln(w, textIndent+"after:  "+rawValue(it.After, valueMax))
	}
	if s := WitnessSentence(it.Finding); s != "" {
		fmt.Fprintln(w, textIndent+s+": "+LogLine(WitnessLine(it.Finding, max(valueMax, maxWitnessInline)), MaxText))
	}
	if it.Location.Source != locate.SourceFallback && !it.Location.IsZero() {
		fmt.Fprintf(w, "%sat %s:%d\n", textIndent, LogLine(it.Location.Path, MaxName), it.Location.Line)
	}
	if it.Acknowledged != "" {
		fmt.Fprintln(w, textIndent+p.paint(ansiGreen, "acknowledged: ")+LogLine(it.Acknowledged, MaxMessage))
	}
}

func rawValue(v json.RawMessage, max int) string {
	if v == nil {
		return "(absent)"
	}
	return LogLine(string(v), max)
}

func serverTitle(name string) string {
	if name == "" {
		return "server"
	}
	return "server " + LogLine(name, MaxName)
}

func subjectLine(kind, name string) string {
	if name == "" {
		return kind
	}
	return kind + " " + LogLine(name, MaxName)
}

// subjectHeading is a subject in prose for the text output's headings.
func subjectHeading(kind, name string) string {
	return subjectLine(kindLabel(kind), name)
}

// comparedLine says what was compared, or "" when nothing was.
func comparedLine(s *Section) string {
	side := func(x *Side) string {
		var parts []string
		if x.ManifestHash != "" {
			parts = append(parts, "manifest "+shortHash(x.ManifestHash))
		}
		if x.Revision != "" {
			parts = append(parts, "revision "+LogLine(x.Revision, 40))
		}
		label := LogLine(x.Label, MaxName)
		if label == "" {
			label = "(unnamed)"
		}
		if len(parts) > 0 {
			label += " (" + strings.Join(parts, ", ") + ")"
		}
		return label
	}
	switch {
	case s.Base != nil && s.Head != nil:
		return "compared base " + side(s.Base) + " with head " + side(s.Head)
	case s.Head != nil:
		return "checked " + side(s.Head)
	}
	return ""
}

func summaryLine(s *Section, hidden int, o Options) string {
	sum := s.Summary()
	line := countsPhrase(sum, o.ShowInfo)
	if sum.Acknowledged > 0 {
		if line != "" {
			line += ", "
		}
		line += plural(sum.Acknowledged, "acknowledged", "acknowledged")
	}
	switch {
	case line != "":
	case hidden > 0:
		line = "nothing above info"
	default:
		line = "no findings"
	}
	if hidden > 0 {
		line += fmt.Sprintf(" (%d info hidden; --show-info shows them)", hidden)
	}
	if sum.SuggestedBump != "" {
		line += fmt.Sprintf("; worst change: %s; suggested version bump: %s", sum.WorstSeverity, sum.SuggestedBump)
	}
	return line
}
