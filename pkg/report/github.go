package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// GitHub shows at most this many annotations of each kind per step; the
// rest are dropped silently, so we choose which ones and say so.
const annotationsPerKind = 10

// command is the workflow command of a level.
func command(l rules.Level) string { return l.Pick("error", "warning", "notice", "notice") }

// renderGitHub writes workflow commands (::error file=...,line=...,
// title=...::message), worst first and tools first, at most 10 of each
// kind, then one notice that counts what was left out, then a plain
// summary line per server. Each points at the source line that defines
// its subject, else at the subject's line in the committed snapshot, else
// at no file. Acknowledged findings are not annotated; info only when
// asked.
func renderGitHub(w io.Writer, r *Report, o Options) error {
	bw := bufio.NewWriter(w)
	secs := r.sections()
	var all []Item
	for _, s := range secs {
		items, _ := visibleItems(s.Items(), o.ShowInfo)
		all = append(all, unacknowledged(items)...)
	}
	// GitHub shows ten of each level: worst first across servers, and at
	// one level tools first (what clients call), then prompts, resources,
	// templates and the server, each by name in natural order.
	slices.SortStableFunc(all, func(a, b Item) int {
		return cmp.Or(
			cmp.Compare(b.Level.Rank(), a.Level.Rank()),
			cmp.Compare(finding.KindRank(a.Subject.Kind), finding.KindRank(b.Subject.Kind)),
			naturalCompare(a.Subject.Name, b.Subject.Name),
		)
	})

	count := map[string]int{}
	for _, it := range all {
		count[command(it.Level)]++
	}
	limit := map[string]int{"error": annotationsPerKind, "warning": annotationsPerKind, "notice": annotationsPerKind}
	if count["error"] > annotationsPerKind || count["warning"] > annotationsPerKind || count["notice"] > annotationsPerKind {
		limit["notice"]-- // the summary notice takes one slot
	}
	used := map[string]int{}
	omitted := 0
	for _, it := range all {
		c := command(it.Level)
		if used[c] == limit[c] {
			omitted++
			continue
		}
		used[c]++
		writeAnnotation(bw, c, it, len(secs) > 1)
	}
	if omitted > 0 {
		fmt.Fprintf(bw, "::notice title=%s::%s\n", workflowProperty("mcp-surface: more findings"), workflowData(fmt.Sprintf(
			"%s not annotated: GitHub shows at most %d errors, %d warnings and %d notices per step. The job summary and the text output list every finding.",
			plural(omitted, "finding is", "findings are"), annotationsPerKind, annotationsPerKind, annotationsPerKind)))
	}
	for _, s := range secs {
		_, hidden := visibleItems(s.Items(), o.ShowInfo)
		prefix := "mcp-surface: "
		if len(secs) > 1 || s.Server != "" {
			prefix += serverTitle(s.Server) + ": "
		}
		fmt.Fprintln(bw, prefix+summaryLine(s, hidden, o))
	}
	return bw.Flush()
}

func writeAnnotation(w io.Writer, cmd string, it Item, multi bool) {
	title := LogLine(it.Rule, MaxName)
	if it.Subject.Name != "" {
		title += " (" + subjectLine(it.Subject.Kind, it.Subject.Name) + ")"
	}
	if multi {
		title = serverTitle(it.Server) + ": " + title
	}
	props := "title=" + workflowProperty(title)
	// Line 1 of a file says nothing about where the item is: without a
	// source or snapshot line the annotation goes on the run itself.
	if !it.Location.IsZero() && it.Location.Source != locate.SourceFallback {
		props = "file=" + workflowProperty(LogLine(it.Location.Path, MaxName)) + ",line=" + strconv.Itoa(max(1, it.Location.Line)) + "," + props
	}
	msg := workflowData(LogLine(it.Message, MaxMessage))
	where := subjectLine(it.Subject.Kind, it.Subject.Name)
	if it.Pointer != "" {
		where += " at " + LogLine(it.Pointer, MaxName)
	}
	msg += "%0A" + workflowData(where)
	if s := WitnessSentence(it.Finding); s != "" {
		msg += "%0A" + workflowData(s+": "+LogLine(WitnessLine(it.Finding, maxWitnessInline), maxWitnessInline+8))
	}
	if it.Severity != "" {
		msg += "%0A" + workflowData("severity: "+LogLine(string(it.Severity), 20)+"; see `mcp-surface explain "+LogLine(it.Rule, MaxName)+"`")
	}
	fmt.Fprintf(w, "::%s %s::%s\n", cmd, props, msg)
}
