package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// MaxBriefLines is how many change lines a brief shows by default.
const MaxBriefLines = 20

// BriefText is what a brief says around the findings: the snapshot it
// judged, what to do when the change is intended, and what shows every
// change when more than MaxLines are found. Each is written in the
// reader's own terms by the caller (the command line, a test helper).
type BriefText struct {
	// Snapshot is the committed snapshot, as the reader names it (a path
	// relative to the working directory).
	Snapshot string
	// Intended is the last line: what to do when the change is intended
	// ("run `MCP_SURFACE_UPDATE=1 npm test` and commit mcp-surface.json").
	Intended string
	// More shows every change (a command); "" leaves it out.
	More string
	// MoreNote, when More is "", says where every change is shown ("the
	// report logged above").
	MoreNote string
	// MaxLines bounds the change lines: 0 means MaxBriefLines, a negative
	// value every line.
	MaxLines int
	// Rewritten says the snapshot was just rewritten: the first line says
	// so ("rewrote mcp-surface.json: 2 tools break existing clients").
	Rewritten bool
	// Extra are lines said when the engine found no change although the
	// snapshot differs from the surface (a field no rule reads).
	Extra []string
}

// briefVerdict is a section's verdict in words, as a brief's first line
// says it: "2 tools break existing clients", "surface changed, nothing
// breaks", "surface unchanged", or the findings that fail at failOn.
func briefVerdict(s *Section, failOn rules.Level) string {
	items := s.Items()
	var lists []string
	for _, it := range items {
		if it.Rule == rules.SurfaceListFailed {
			lead, _, _ := strings.Cut(it.Message, " (")
			lists = append(lists, LogLine(lead, MaxMessage))
		}
	}
	if len(lists) > 0 {
		return "incomplete: " + strings.Join(lists, "; ")
	}
	if brk := breakingByKind(items, false); len(brk) > 0 {
		return breakPhrase(brk)
	}
	if n := countFailing(ofCategory(items, ""), failOn); n > 0 {
		return plural(n, "spec or lint finding", "spec or lint findings") + " at or above " + string(failOn)
	}
	if len(ofCategory(items, CategoryChange)) > 0 {
		return "surface changed, nothing breaks"
	}
	if s.Base != nil && s.Head != nil && s.Base.ManifestHash != s.Head.ManifestHash {
		return "surface changed, nothing breaks"
	}
	return "surface unchanged"
}

// BriefLines are a section's findings, one line each: the subject, the
// change in words (a rename as a rename, a description as its text edit),
// the witness when there is one, and the rule (`explain` tells more). Spec and lint findings are left out
// below failOn; acknowledged ones say so.
func BriefLines(s *Section, failOn rules.Level) []string {
	items := s.Items()
	// Worst first; at one level tools lead, then prompts, resources, ...
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Or(cmp.Compare(b.Level.Rank(), a.Level.Rank()),
			cmp.Compare(finding.KindRank(a.Subject.Kind), finding.KindRank(b.Subject.Kind)),
			naturalCompare(a.Subject.Name, b.Subject.Name))
	})
	var out []string
	for _, it := range items {
		if it.Category != CategoryChange && !atOrAbove(it.Level, failOn) {
			continue
		}
		out = append(out, briefLine(it))
	}
	return out
}

func briefLine(it Item) string {
	subject := subjectLine(kindLabel(it.Subject.Kind), it.Subject.Name)
	if it.Subject.Kind == "" {
		subject = "server"
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString(": ")
	// "prompt "triage" was removed: ..." after the subject is "was
	// removed: ...".
	named := kindLabel(it.Subject.Kind) + " " + strconv.Quote(it.Subject.Name)
	m := strings.TrimPrefix(strings.TrimPrefix(it.Message, named+": "), named+" ")
	msg := LogLine(m, MaxMessage)
	if to := renamedTo(it); to != "" {
		// "tool "a" looks renamed to "b" (similarity 0.93): calls with the
		// old name fail" says the rename first, then what it breaks.
		msg = "renamed to " + LogLine(to, MaxName)
		if _, why, ok := strings.Cut(it.Message, "): "); ok {
			msg += ": " + LogLine(why, MaxMessage)
		}
	}
	b.WriteString(msg)
	if it.TextDiff != "" {
		b.WriteString(": ")
		b.WriteString(LogLine(oneLineDiff(it.TextDiff), MaxMessage))
	}
	if s := WitnessSentence(it.Finding); s != "" {
		b.WriteString("; ")
		b.WriteString(strings.ToLower(s[:1]) + s[1:])
		b.WriteString(": ")
		b.WriteString(LogLine(WitnessLine(it.Finding, maxWitnessInline), MaxText))
	}
	b.WriteString(" [" + it.Rule + "]")
	if it.Acknowledged != "" {
		b.WriteString(" (acknowledged: " + LogLine(it.Acknowledged, MaxName) + ")")
	}
	return b.String()
}

// oneLineDiff is a text diff on one line: its changed lines, joined.
func oneLineDiff(d string) string {
	lines := strings.Split(d, "\n")
	if len(lines) == 1 {
		return d
	}
	var changed []string
	for _, l := range lines {
		if strings.HasPrefix(l, "+ ") || strings.HasPrefix(l, "- ") || l == "+" || l == "-" {
			changed = append(changed, l)
		}
	}
	if len(changed) == 0 {
		changed = lines
	}
	return strings.Join(changed, " ⏎ ")
}

// WriteBrief writes the brief of the report's first server: the verdict
// and the snapshot's path on the first line, one line per change, and
// what to do if the change is intended. It is what `snapshot --check`
// and every test helper (npm, Python, Go) print, so they read the same.
func WriteBrief(w io.Writer, r *Report, o Options, t BriefText) error {
	bw := bufio.NewWriter(w)
	if len(r.Servers) == 0 {
		return fmt.Errorf("report: a brief needs a server")
	}
	s := &r.Servers[0]
	first := briefVerdict(s, o.FailOn)
	switch {
	case t.Rewritten:
		first = "rewrote " + LogLine(t.Snapshot, MaxName) + ": " + first
	case t.Snapshot != "" && s.Base != nil && s.Head != nil && s.Base.ManifestHash != s.Head.ManifestHash:
		first += ": " + LogLine(t.Snapshot, MaxName) + " is out of date"
	}
	fmt.Fprintln(bw, first)
	lines := append(BriefLines(s, o.FailOn), t.Extra...)
	max := t.MaxLines
	if max == 0 {
		max = MaxBriefLines
	}
	shown := lines
	if max > 0 && len(lines) > max {
		shown = lines[:max]
	}
	for _, l := range shown {
		fmt.Fprintln(bw, "  "+l)
	}
	if n := len(lines) - len(shown); n > 0 {
		more := fmt.Sprintf("  and %d more", n)
		switch {
		case t.More != "":
			more += ": `" + t.More + "` shows every change"
		case t.MoreNote != "":
			more += ": " + t.MoreNote
		}
		fmt.Fprintln(bw, more)
	}
	if t.Intended != "" {
		fmt.Fprintln(bw, "If the change is intended: "+t.Intended)
	}
	return bw.Flush()
}

// atOrAbove reports whether l fails at failOn (never at none).
func atOrAbove(l, failOn rules.Level) bool {
	return failOn != "" && l.Rank() >= failOn.Rank()
}
