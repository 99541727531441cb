package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/locate"
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

// renderText is the terminal view: per server, findings grouped by
// subject, worst first; a summary line per server. Every untrusted value
// goes through Line, so no server text can start a line of its own (a
// "::" workflow command in a CI log) or carry escape sequences.
func renderText(w io.Writer, r *Report, o Options) error {
	bw := bufio.NewWriter(w)
	p := painter(o.Color)
	secs := r.sections()
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
		for _, n := range s.Notes {
			fmt.Fprintln(bw, p.paint(ansiDim, "note: "+LogLine(n, MaxMessage)))
		}
		items, hidden := visibleItems(s.Items(), o.ShowInfo)
		groups := groupBySubject(items)
		for _, g := range groups {
			fmt.Fprintln(bw)
			fmt.Fprintln(bw, p.paint(ansiBold, subjectLine(g.subject.Kind, g.subject.Name)))
			for _, it := range g.items {
				writeTextItem(bw, p, it)
			}
		}
		if len(groups) > 0 {
			fmt.Fprintln(bw)
		}
		prefix := ""
		if multi {
			prefix = serverTitle(s.Server) + ": "
		}
		fmt.Fprintln(bw, prefix+summaryLine(s, hidden, o))
	}
	return bw.Flush()
}

func writeTextItem(w io.Writer, p painter, it Item) {
	head := "  " + p.level(it.Level, it.Acknowledged != "") + " " + it.Rule
	if it.Pointer != "" {
		head += "  " + LogLine(it.Pointer, MaxName)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, textIndent+LogLine(it.Message, MaxMessage))
	switch {
	case it.TextDiff != "":
		for _, l := range strings.Split(it.TextDiff, "\n") {
			fmt.Fprintln(w, textIndent+LogLine(l, MaxText))
		}
	case it.Before != nil || it.After != nil:
		fmt.Fprintln(w, textIndent+"before: "+rawValue(it.Before))
		fmt.Fprintln(w, textIndent+"after:  "+rawValue(it.After))
	}
	if it.Location.Source != locate.SourceFallback && !it.Location.IsZero() {
		fmt.Fprintf(w, "%sat %s:%d\n", textIndent, LogLine(it.Location.Path, MaxName), it.Location.Line)
	}
	if it.Acknowledged != "" {
		fmt.Fprintln(w, textIndent+p.paint(ansiGreen, "acknowledged: ")+LogLine(it.Acknowledged, MaxMessage))
	}
}

func rawValue(v json.RawMessage) string {
	if v == nil {
		return "(absent)"
	}
	return LogLine(string(v), 160)
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
