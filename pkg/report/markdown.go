package report

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/template"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// GitHubCommentLimit is the largest issue or pull request comment GitHub
// accepts, in characters.
const GitHubCommentLimit = 65536

// DefaultMarkdownBudget is the default bound of the markdown report, in
// bytes (a byte count is never below the character count GitHub applies),
// leaving room for a publisher's additions.
const DefaultMarkdownBudget = 64000

// minMarkdownBudget is the smallest budget honoured: the verdict, the
// counts and what to do need about this much.
const minMarkdownBudget = 4000

// Bounds of one subject's details.
const (
	maxEntriesPerDetail = 25
	maxExcerptLines     = 40
	maxExcerptBytes     = 3000
	maxCellMessage      = 160
)

//go:embed markdown.tmpl
var markdownTemplate string

// mdTemplate is parsed at first use, not at start-up (see internal/base/lazyre).
var mdTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("markdown").Parse(markdownTemplate))
})

// MarkerPrefix starts the hidden marker on the first line of our comment.
// Server text can never produce it: Markdown escapes "<".
const MarkerPrefix = "<!-- mcp-surface:report id="

// Marker is the hidden first line of the comment for a key; a publisher
// finds its sticky comment by it.
func Marker(key string) string { return MarkerPrefix + markerKey(key) + " -->" }

// MarkerKey is the key of a report's comment: Options.CommentKey, else the
// sorted server names joined by "+", else "default".
func MarkerKey(r *Report, o Options) string {
	if o.CommentKey != "" {
		return markerKey(o.CommentKey)
	}
	var names []string
	for _, s := range r.sections() {
		if s.Server != "" {
			names = append(names, s.Server)
		}
	}
	if len(names) == 0 {
		return "default"
	}
	return markerKey(strings.Join(names, "+"))
}

// markerKey keeps a key to characters that cannot end an HTML comment or
// the line: letters, digits and . _ / + = , -; anything else becomes _.
func markerKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._/+=,", r):
			b.WriteRune(r)
		case r == '-':
			// "--" may not appear inside an HTML comment.
			if strings.HasSuffix(b.String(), "-") {
				b.WriteByte('_')
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	if b.Len() == 0 {
		return "default"
	}
	return strings.TrimSuffix(b.String(), "-")
}

// GitHubSummaryLimit is the largest job summary GitHub shows for a step,
// in bytes.
const GitHubSummaryLimit = 1 << 20

// DefaultSummaryBudget bounds the markdown report in Options.Full mode (the
// job summary), leaving room for what a publisher appends.
const DefaultSummaryBudget = GitHubSummaryLimit - 16<<10

// The view the template renders: every string is already escaped or ours.
type mdView struct {
	Marker    string
	Headline  string
	Accepted  string
	Servers   []*mdServer
	Accept    *mdAccept
	Shortened string
	Footer    string
}

type mdServer struct {
	Heading      string // several servers: the server's name and verdict
	Counts       []string
	Cost         string // the context cost line (CostLine)
	Caution      string
	Compared     string   // Full only
	Notes        []string // Full only
	Breaking     *mdTable
	Folds        []*mdTable // warnings, notes, info
	Details      []*mdDetail
	Acknowledged []*mdAck
	HiddenInfo   string
}

// ShownDetails are the details the budget kept.
func (s *mdServer) ShownDetails() []*mdDetail {
	var out []*mdDetail
	for _, d := range s.Details {
		if !d.cut {
			out = append(out, d)
		}
	}
	return out
}

// DetailsOmitted counts the details the budget left out.
func (s *mdServer) DetailsOmitted() int { return len(s.Details) - len(s.ShownDetails()) }

// ShownAcknowledged are the acknowledged rows the budget kept.
func (s *mdServer) ShownAcknowledged() []*mdAck {
	var out []*mdAck
	for _, a := range s.Acknowledged {
		if !a.cut {
			out = append(out, a)
		}
	}
	return out
}

// AcknowledgedOmitted counts the acknowledged rows left out.
func (s *mdServer) AcknowledgedOmitted() int {
	return len(s.Acknowledged) - len(s.ShownAcknowledged())
}

// mdTable is one table of rows; a fold (warnings, notes) has a Summary
// and is collapsed.
type mdTable struct {
	Summary string
	Rows    []*mdRow
}

// Shown are the rows the budget kept.
func (t *mdTable) Shown() []*mdRow {
	var out []*mdRow
	for _, r := range t.Rows {
		if !r.cut {
			out = append(out, r)
		}
	}
	return out
}

// Omitted counts the rows the budget left out.
func (t *mdTable) Omitted() int { return len(t.Rows) - len(t.Shown()) }

type mdRow struct {
	Icon, What, Breaks, Fix, Rule string
	cut                           bool
}

type mdDetail struct {
	Summary    string
	Entries    []mdEntry
	Omitted    int
	cut        bool
	rank, kind int // the subject's worst level and kind, for the cut order
}

type mdEntry struct {
	Head   string
	Blocks []string
}

type mdAck struct {
	Subject, Rule, Reason string
	cut                   bool
}

// mdAccept says what turns an intended change green.
type mdAccept struct {
	Label    string
	YAML     []mdYAML
	Snapshot []string
	yamlCut  bool
}

// ShownYAML is the acknowledgement lines unless the budget cut them.
func (a *mdAccept) ShownYAML() []mdYAML {
	if a.yamlCut {
		return nil
	}
	return a.YAML
}

// YAMLCut reports whether the budget cut the acknowledgement lines.
func (a *mdAccept) YAMLCut() bool { return a.yamlCut && len(a.YAML) > 0 }

type mdYAML struct{ Heading, Block string }

// levelIcon marks a level in tables and summaries.
func levelIcon(l rules.Level) string {
	switch l {
	case rules.LevelError:
		return "🔴"
	case rules.LevelWarning:
		return "🟠"
	case rules.LevelNote:
		return "🔵"
	}
	return "⚪"
}

// A cut is one thing the budget may leave out; cuts are made in the order
// of their keys (lowest first): details before rows, the least severe
// first, resources before tools, the last of a list first.
type cut struct {
	key [4]int
	set func(bool)
	// what the cut is, for the note that says what was left out
	detail, row bool
}

// Classes of cuts, in the order they are made.
const (
	cutDetail = iota
	cutYAML
	cutFoldRow
	cutAckRow
	cutBreakingRow
)

// renderMarkdown writes the PR comment, or with Options.Full the job
// summary. Everything above the breaking table and the table itself stay
// whole; to fit the budget the renderer leaves out details first (the
// least severe first), then the acknowledgement lines, the rows of the
// collapsed warnings and notes, the acknowledged rows, and only then rows
// of the breaking table, from its end, where resources come after tools.
// What it left out is said, with a link to the full report when known.
func renderMarkdown(w io.Writer, r *Report, o Options) error {
	budget := o.MaxMarkdownBytes
	switch {
	case budget <= 0 && o.Full:
		budget = DefaultSummaryBudget
	case budget <= 0:
		budget = DefaultMarkdownBudget
	}
	budget = max(budget, minMarkdownBudget)
	b := newMDBuilder(r, o)
	v, cuts := b.view()
	out, err := b.execute(v, cuts, 0)
	if err != nil || len(out) <= budget {
		if err == nil {
			_, err = w.Write(out)
		}
		return err
	}
	slices.SortStableFunc(cuts, func(a, b cut) int { return slices.Compare(a.key[:], b.key[:]) })
	var trialErr error
	k := sort.Search(len(cuts)+1, func(k int) bool {
		x, err := b.execute(v, cuts, k)
		if err != nil {
			trialErr = err
			return true
		}
		return len(x) <= budget
	})
	if trialErr != nil {
		return trialErr
	}
	if out, err = b.execute(v, cuts, k); err != nil {
		return err
	}
	if len(out) > budget {
		// Pathological (thousands of servers): keep whole lines up to the
		// budget; the marker and the headline come first.
		end := bytes.LastIndexByte(out[:budget-200], '\n')
		out = append(out[:end+1:end+1], []byte("\n*The rest of this report did not fit; the JSON report (`--format json`) has every finding.*\n")...)
	}
	_, err = w.Write(out)
	return err
}

type mdBuilder struct {
	// code shows our own short text (a label) as code in the output
	// format: markdown's <code>, or backticks in the terminal.
	code   func(string) string
	r      *Report
	o      Options
	secs   []*Section
	items  [][]Item // shown items per section, in reading order
	all    [][]Item // every item per section, info included
	hidden []int
}

func newMDBuilder(r *Report, o Options) *mdBuilder {
	if o.Full {
		o.ShowInfo = true
	}
	b := &mdBuilder{r: r, o: o, secs: r.sections(), code: func(s string) string { return Code(s, MaxName) }}
	for _, s := range b.secs {
		all := s.Items()
		slices.SortStableFunc(all, compareItems)
		items, hidden := visibleItems(all, o.ShowInfo)
		b.all = append(b.all, all)
		b.items = append(b.items, items)
		b.hidden = append(b.hidden, hidden)
	}
	return b
}

// execute applies the first k cuts, says what they left out, and renders.
func (b *mdBuilder) execute(v *mdView, cuts []cut, k int) ([]byte, error) {
	details, rows := 0, 0
	for i, c := range cuts {
		c.set(i < k)
		if i < k && c.detail {
			details++
		}
		if i < k && c.row {
			rows++
		}
	}
	v.Shortened = ""
	if k > 0 {
		var parts []string
		if details > 0 {
			parts = append(parts, plural(details, "subject's details", "subjects' details"))
		}
		if rows > 0 {
			parts = append(parts, plural(rows, "table row", "table rows"))
		}
		if k > details+rows {
			parts = append(parts, "the acknowledgement lines")
		}
		where := "the job summary and the JSON report (`--format json`) have everything"
		if u := safeURL(nonEmpty(b.o.SummaryURL, b.o.RunURL)); u != "" && !b.o.Full {
			where = "the [full report](" + u + ") has everything"
		}
		limit := fmt.Sprintf("GitHub's %d-character comment limit", GitHubCommentLimit)
		if b.o.Full {
			limit = fmt.Sprintf("GitHub's %d-byte job summary limit", GitHubSummaryLimit)
			where = "the JSON report (`--format json`) has everything"
		}
		v.Shortened = fmt.Sprintf("Shortened to stay under %s: %s left out; %s.", limit, joinAnd(parts), where)
	}
	var buf bytes.Buffer
	if err := mdTemplate().Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// view builds the whole report and lists what the budget may cut.
func (b *mdBuilder) view() (*mdView, []cut) {
	o := b.o
	v := &mdView{Marker: Marker(MarkerKey(b.r, o)), Footer: b.footer()}
	var cuts []cut
	multi := len(b.secs) > 1
	var verdicts []sectionVerdict
	for i, s := range b.secs {
		sv := b.verdict(i)
		verdicts = append(verdicts, sv)
		ms := &mdServer{Counts: b.countLines(i), Cost: CostLine(s.CostBase, s.CostHead), Caution: b.caution(i)}
		if multi {
			ms.Heading = Code(nonEmpty(s.Server, "(unnamed)"), MaxName) + ": " + sv.icon + " " + sv.text
		}
		if b.hidden[i] > 0 {
			ms.HiddenInfo = plural(b.hidden[i], "info finding is", "info findings are")
		}
		if o.Full {
			ms.Compared = comparedMarkdown(s)
			for _, n := range s.Notes {
				ms.Notes = append(ms.Notes, Markdown(n, MaxMessage))
			}
		}
		open := unacknowledged(b.items[i])
		// The breaking table: every error, tools first.
		var errs, rest []Item
		for _, it := range open {
			if it.Level == rules.LevelError {
				errs = append(errs, it)
			} else {
				rest = append(rest, it)
			}
		}
		if len(errs) > 0 {
			ms.Breaking = &mdTable{}
			for _, ru := range runsOf(errs) {
				for _, row := range b.rows(ru, true) {
					ms.Breaking.Rows = append(ms.Breaking.Rows, row)
					row := row
					cuts = append(cuts, cut{key: [4]int{cutBreakingRow, 0, -kindRank(ru.kind), -len(cuts)}, set: func(c bool) { row.cut = c }, row: true})
				}
			}
		}
		for _, l := range []rules.Level{rules.LevelWarning, rules.LevelNote, rules.LevelInfo} {
			var its []Item
			for _, it := range rest {
				if it.Level == l {
					its = append(its, it)
				}
			}
			if len(its) == 0 {
				continue
			}
			fold := &mdTable{Summary: levelIcon(l) + " " + plural(len(its), string(l), levelPlural(l))}
			for _, ru := range runsOf(its) {
				for _, row := range b.rows(ru, false) {
					fold.Rows = append(fold.Rows, row)
					row := row
					cuts = append(cuts, cut{key: [4]int{cutFoldRow, l.Rank(), -kindRank(ru.kind), -len(cuts)}, set: func(c bool) { row.cut = c }, row: true})
				}
			}
			ms.Folds = append(ms.Folds, fold)
		}
		groups := groupBySubject(open)
		slices.SortStableFunc(groups, func(x, y *group) int {
			return cmp.Or(cmp.Compare(kindRank(x.subject.Kind), kindRank(y.subject.Kind)), cmp.Compare(y.worst, x.worst),
				naturalCompare(x.subject.Name, y.subject.Name))
		})
		for _, g := range groups {
			slices.SortStableFunc(g.items, compareItems)
			d := b.detail(g)
			if d == nil {
				continue
			}
			ms.Details = append(ms.Details, d)
		}
		// Details are cut least severe first, resources before tools, the
		// last first.
		for g, d := range ms.Details {
			cuts = append(cuts, cut{key: [4]int{cutDetail, d.rank, -d.kind, -g}, set: func(c bool) { d.cut = c }, detail: true})
		}
		for _, it := range acknowledged(b.items[i]) {
			a := &mdAck{Subject: subjectMarkdown(it.Subject), Rule: Code(it.Rule, MaxName), Reason: Markdown(it.Acknowledged, maxCellMessage)}
			ms.Acknowledged = append(ms.Acknowledged, a)
			cuts = append(cuts, cut{key: [4]int{cutAckRow, 0, -kindRank(it.Subject.Kind), -len(cuts)}, set: func(c bool) { a.cut = c }, row: true})
		}
		v.Servers = append(v.Servers, ms)
	}
	v.Headline = b.headline(verdicts)
	if o.AcceptedByLabel && o.AcceptLabel != "" {
		v.Accepted = "Accepted by label " + Code(o.AcceptLabel, MaxName) + ": breaking findings acknowledged for this PR."
	}
	if a := b.accept(verdicts); a != nil {
		v.Accept = a
		cuts = append(cuts, cut{key: [4]int{cutYAML}, set: func(c bool) { a.yamlCut = c }})
	}
	return v, cuts
}

func levelPlural(l rules.Level) string {
	if l == rules.LevelInfo {
		return "info"
	}
	return string(l) + "s"
}

// rows renders a run: one row naming its subjects when collapsed, else
// one row per finding.
func (b *mdBuilder) rows(ru *run, breaking bool) []*mdRow {
	rule, known := rules.Lookup(ru.rule)
	ruleRef := Code(ru.rule, MaxName)
	if ruleIDPattern().MatchString(ru.rule) {
		ruleRef = "[" + ruleRef + "](" + b.o.RuleURL(ru.rule) + ")"
	}
	mk := func(what string) *mdRow {
		row := &mdRow{Icon: levelIcon(ru.level), What: what, Rule: ruleRef}
		if breaking {
			row.What += "<br><sub>" + ruleRef + "</sub>"
			row.Breaks, row.Fix = "—", "—"
			if known {
				row.Breaks = Markdown(nonEmpty(rule.Breaks, rule.Summary), maxCellMessage)
				if rule.Fix != "" {
					row.Fix = Markdown(rule.Fix, maxCellMessage)
				}
			}
		}
		return row
	}
	if ru.collapsed() && !b.o.Verbose {
		names := ru.names()
		what := ru.title(func(s string) string { return "**" + s + "**" }) + ": " +
			shortNames(names, func(n string) string { return Code(n, MaxName) })
		if len(names) != len(ru.items) {
			what += " (" + plural(len(ru.items), "finding", "findings") + ")"
		}
		return []*mdRow{mk(what)}
	}
	var out []*mdRow
	for _, it := range ru.items {
		out = append(out, mk(subjectMarkdown(it.Subject)+": "+Markdown(it.Message, maxCellMessage)))
	}
	return out
}

// sectionVerdict is one server's answer in words.
type sectionVerdict struct {
	icon, text string
	failed     bool
	breaking   bool // unacknowledged breaking changes
	unchanged  bool
	acked      bool // breaking changes, all acknowledged
}

// breakingByKind counts the subjects with unacknowledged (or, with
// acked, acknowledged) breaking changes, per kind.
func breakingByKind(items []Item, acked bool) map[string]int {
	seen := map[finding.Subject]bool{}
	out := map[string]int{}
	for _, it := range items {
		if it.Category != CategoryChange || (it.Severity != rules.SeverityBreaking && it.Level != rules.LevelError) {
			continue
		}
		if (it.Acknowledged != "") != acked || seen[it.Subject] {
			continue
		}
		seen[it.Subject] = true
		out[it.Subject.Kind]++
	}
	return out
}

// breakPhrase is "11 tools break existing clients (also 3 prompts, 100
// resources)": the first kind leads, tools first.
func breakPhrase(byKind map[string]int) string {
	var parts []string
	lead := ""
	for _, k := range kindOrder {
		n := byKind[k]
		if n == 0 {
			continue
		}
		if lead == "" {
			verb := " break existing clients"
			if n == 1 {
				verb = " breaks existing clients"
			}
			lead = kindNoun(k, n) + verb
			continue
		}
		parts = append(parts, kindNoun(k, n))
	}
	if len(parts) > 0 {
		lead += " (also " + strings.Join(parts, ", ") + ")"
	}
	return lead
}

func (b *mdBuilder) verdict(i int) sectionVerdict {
	s, o := b.secs[i], b.o
	items := b.all[i]
	failed := s.Failed(o.FailOn)
	brk := breakingByKind(items, false)
	sv := sectionVerdict{failed: failed, breaking: len(brk) > 0}
	changed := false
	for _, it := range items {
		if it.Category == CategoryChange {
			changed = true
			break
		}
	}
	if s.Base != nil && s.Head != nil && s.Base.ManifestHash != "" && s.Base.ManifestHash == s.Head.ManifestHash {
		changed = false
	}
	other := countsPhrase(summaryOf(unacknowledged(ofCategory(b.items[i], ""))), o.ShowInfo)
	switch {
	case failed && sv.breaking:
		sv.icon, sv.text = "❌", breakPhrase(brk)
		if n := countFailing(ofCategory(b.items[i], ""), o.FailOn); n > 0 {
			if o.FailOn == rules.LevelError {
				sv.text += " · " + plural(n, "spec or lint error", "spec or lint errors")
			} else {
				sv.text += " · " + plural(n, "spec or lint finding", "spec or lint findings") + " at or above " + string(o.FailOn)
			}
		}
	case failed:
		sv.icon, sv.text = "❌", fmt.Sprintf("%s at or above %s: this check fails", plural(countFailing(b.items[i], o.FailOn), "finding", "findings"), o.FailOn)
	case sv.breaking:
		sv.icon, sv.text = "⚠️", breakPhrase(brk)+" (the check does not fail on them)"
	case len(breakingByKind(items, true)) > 0:
		sv.acked = true
		sv.icon, sv.text = "✅", "breaking changes acknowledged: "+strings.TrimSuffix(strings.TrimSuffix(breakPhrase(breakingByKind(items, true)), " break existing clients"), " breaks existing clients")
		if o.AcceptedByLabel && o.AcceptLabel != "" {
			sv.text = "breaking changes accepted by label " + b.code(o.AcceptLabel)
		}
	case !changed:
		sv.unchanged = true
		sv.icon, sv.text = "✅", "surface unchanged"
	default:
		sv.icon, sv.text = "✅", "no breaking changes"
		if p := b.changePhrase(i); p != "" {
			sv.text += " (" + p + ")"
		}
	}
	if !failed && other != "" {
		sv.text += " · " + other + " to review"
	}
	return sv
}

// summaryOf counts items per level.
func summaryOf(items []Item) Summary {
	var s Summary
	for _, it := range items {
		s.add(it.Finding)
	}
	return s
}

// changePhrase is "3 tools added, 2 text edits": the first few non-zero
// change counts, tools first.
func (b *mdBuilder) changePhrase(i int) string {
	counts := kindCounts(ofCategory(b.items[i], CategoryChange))
	var parts []string
	for _, k := range kindOrder {
		c := counts[k]
		if c == nil {
			continue
		}
		if k == finding.KindServer {
			parts = append(parts, kindNoun(k, serverChanges(b.items[i])))
			continue
		}
		for cl, n := range c {
			if n == 0 {
				continue
			}
			switch {
			case cl == classEdited && k == finding.KindTool:
				parts = append(parts, plural(n, "text edit", "text edits"))
			case cl == classEdited:
				parts = append(parts, plural(n, kind1(k)+" text edit", kind1(k)+" text edits"))
			default:
				parts = append(parts, kindNoun(k, n)+" "+classNames[cl])
			}
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:3], "…")
	}
	return strings.Join(parts, ", ")
}

func kind1(k string) string {
	if k == finding.KindResourceTemplate {
		return "template"
	}
	return k
}

// serverChanges counts the change findings about the server itself (one
// subject, many fields).
func serverChanges(items []Item) int {
	n := 0
	for _, it := range items {
		if it.Category == CategoryChange && it.Subject.Kind == finding.KindServer {
			n++
		}
	}
	return n
}

// countLines is one line per kind with changes: "**Tools**: 7 removed ·
// 3 renamed · 9 added", then the spec and lint findings and the
// acknowledged ones.
func (b *mdBuilder) countLines(i int) []string {
	counts := kindCounts(ofCategory(b.items[i], CategoryChange))
	title := map[string]string{
		finding.KindTool: "Tools", finding.KindPrompt: "Prompts", finding.KindResource: "Resources",
		finding.KindResourceTemplate: "Templates", finding.KindServer: "Server",
	}
	var out []string
	for _, k := range kindOrder {
		c := counts[k]
		if c == nil {
			continue
		}
		if k == finding.KindServer {
			out = append(out, "**Server**: "+plural(serverChanges(b.items[i]), "change", "changes"))
			continue
		}
		var parts []string
		for cl, n := range c {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, classNames[cl]))
			}
		}
		out = append(out, "**"+title[k]+"**: "+strings.Join(parts, " · "))
	}
	if p := countsPhrase(summaryOf(ofCategory(b.items[i], "")), b.o.ShowInfo); p != "" {
		out = append(out, "**Spec and lint**: "+p)
	}
	if n := len(acknowledged(b.all[i])); n > 0 {
		out = append(out, "**Acknowledged**: "+plural(n, "finding", "findings")+" (they do not fail the check)")
	}
	return out
}

// caution warns when the change calls for a version bump the server did
// not make: the versioning findings say so even when they are hidden.
func (b *mdBuilder) caution(i int) string {
	sum := b.secs[i].Summary()
	for _, it := range b.all[i] {
		if it.Acknowledged != "" || (it.Rule != rules.ServerVersionNotBumped && it.Rule != rules.ServerMajorVersionNotBumped) {
			continue
		}
		msg := Markdown(it.Message, MaxMessage)
		if sum.SuggestedBump != "" {
			msg += fmt.Sprintf(": the worst change is %s, which calls for a **%s** version bump", Markdown(string(sum.WorstSeverity), 20), sum.SuggestedBump)
		}
		return msg + "."
	}
	return ""
}

// headline is the report's answer in words.
func (b *mdBuilder) headline(vs []sectionVerdict) string {
	switch len(vs) {
	case 0:
		return "⚪ No server was checked"
	case 1:
		h := vs[0].icon + " " + vs[0].text
		if name := b.secs[0].Server; name != "" {
			h += " · " + Code(name, MaxName)
		}
		return h
	}
	var failing, breaking []string
	unchanged, acked := 0, 0
	allBreaking := true
	for i, v := range vs {
		if v.failed && !v.breaking {
			allBreaking = false
		}
		name := Code(nonEmpty(b.secs[i].Server, "(unnamed)"), MaxName)
		switch {
		case v.failed:
			failing = append(failing, name)
		case v.breaking:
			breaking = append(breaking, name)
		case v.unchanged:
			unchanged++
		case v.acked:
			acked++
		}
	}
	n := len(vs)
	names := func(l []string) string {
		if len(l) > 3 {
			return strings.Join(l[:3], ", ") + fmt.Sprintf(" and %d more", len(l)-3)
		}
		return joinAnd(l)
	}
	switch {
	case len(failing) > 0 && allBreaking:
		return fmt.Sprintf("❌ %s break%s existing clients (%d of %d servers)", names(failing), verbS(len(failing)), len(failing), n)
	case len(failing) > 0:
		return fmt.Sprintf("❌ %s fail%s this check (%d of %d servers)", names(failing), verbS(len(failing)), len(failing), n)
	case len(breaking) > 0:
		return fmt.Sprintf("⚠️ %s break%s existing clients (%d of %d servers)", names(breaking), verbS(len(breaking)), len(breaking), n)
	case unchanged == n:
		return fmt.Sprintf("✅ surface unchanged (%d servers)", n)
	case acked > 0:
		return fmt.Sprintf("✅ breaking changes acknowledged (%d servers)", n)
	}
	return fmt.Sprintf("✅ no breaking changes (%d servers)", n)
}

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func joinAnd(l []string) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}

// accept says what turns an intended change green: the label, the
// acknowledgement lines, and the command that refreshes each snapshot.
func (b *mdBuilder) accept(vs []sectionVerdict) *mdAccept {
	o := b.o
	a := &mdAccept{}
	multi := len(b.secs) > 1
	for i, s := range b.secs {
		if !vs[i].failed && !vs[i].breaking {
			continue
		}
		yaml := o.AckYAML[s.Server]
		if yaml == "" {
			yaml = ackYAML(unacknowledged(b.items[i]), o.FailOn)
		}
		if yaml != "" {
			y := mdYAML{Block: CodeBlock(yaml, "yaml")}
			if multi {
				y.Heading = "Server " + Code(nonEmpty(s.Server, "(unnamed)"), MaxName) + ":"
			}
			a.YAML = append(a.YAML, y)
		}
		cmd := o.SnapshotCommands[s.Server]
		switch {
		case cmd != "":
		case s.Server != "":
			cmd = "mcp-surface snapshot --server " + s.Server
		default:
			cmd = "mcp-surface snapshot -- <your server command>"
		}
		a.Snapshot = append(a.Snapshot, Code(cmd, MaxName))
	}
	if len(a.Snapshot) == 0 {
		return nil
	}
	if o.AcceptLabel != "" && !o.AcceptedByLabel {
		a.Label = "Add the label " + Code(o.AcceptLabel, MaxName) + " to this pull request: its breaking findings are then acknowledged."
	}
	return a
}

// maxAckEntries bounds the acknowledgement lines this package writes
// itself (a caller's Options.AckYAML is used as given).
const maxAckEntries = 20

// ackYAML is the acknowledgement entries of the failing findings (with
// no fail level, of the errors). Values are JSON strings, which YAML reads
// as double-quoted scalars.
func ackYAML(items []Item, failOn rules.Level) string {
	if failOn == "" {
		failOn = rules.LevelError
	}
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var sb strings.Builder
	n, more := 0, 0
	for _, it := range items {
		if it.Level.Rank() < failOn.Rank() {
			continue
		}
		if n == maxAckEntries {
			more++
			continue
		}
		if n == 0 {
			sb.WriteString("acknowledged:\n")
		}
		n++
		sb.WriteString("  - rule: " + q(it.Rule) + "\n")
		if key, ok := ackKey[it.Subject.Kind]; ok {
			sb.WriteString("    " + key + ": " + q(it.Subject.Name) + "\n")
		}
		sb.WriteString("    fingerprint: " + q(it.Fingerprint) + "\n")
		sb.WriteString(`    reason: "why this change is safe for our clients"` + "\n")
	}
	if more > 0 {
		fmt.Fprintf(&sb, "# %d more: mcp-surface diff --format ignore-yaml prints every entry\n", more)
	}
	return sb.String()
}

func (b *mdBuilder) footer() string {
	o := b.o
	var parts []string
	if o.BaseSHA != "" || o.HeadSHA != "" {
		parts = append(parts, "base "+Code(shortSHA(o.BaseSHA), 20)+" ← head "+Code(shortSHA(o.HeadSHA), 20))
	}
	if u := safeURL(o.RunURL); u != "" {
		parts = append(parts, "[run]("+u+")")
	}
	if u := safeURL(nonEmpty(o.SummaryURL, o.RunURL)); u != "" && !o.Full {
		parts = append(parts, "[full report]("+u+")")
	}
	tool := "mcp-surface"
	if b.r.Version != "" {
		tool += " " + Markdown(b.r.Version, 40)
	}
	parts = append(parts, tool)
	if o.FailOn == "" {
		parts = append(parts, "never fails (<code>--fail-on none</code>)")
	} else {
		parts = append(parts, "fails on "+string(o.FailOn)+" and above")
	}
	base := o.RulesURL
	if base == "" {
		base = RulesDocURL
	}
	parts = append(parts, "[rules]("+base+")")
	return strings.Join(parts, " · ")
}

func shortSHA(s string) string {
	if s == "" {
		return "?"
	}
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// safeURL keeps an http(s) URL that cannot break out of a markdown link;
// anything else is dropped.
func safeURL(u string) string {
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return ""
	}
	if strings.ContainsAny(u, " \t\r\n()<>[]\"'`\\") || len(u) > 2000 {
		return ""
	}
	return u
}

func countFailing(items []Item, failOn rules.Level) int {
	if failOn == "" {
		return 0
	}
	n := 0
	for _, it := range items {
		if it.Acknowledged == "" && it.Level.Rank() >= failOn.Rank() {
			n++
		}
	}
	return n
}

// ofCategory keeps the change items (cat CategoryChange) or the others
// (cat "").
func ofCategory(items []Item, cat string) []Item {
	var out []Item
	for _, it := range items {
		if (it.Category == CategoryChange) == (cat == CategoryChange) {
			out = append(out, it)
		}
	}
	return out
}

func unacknowledged(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if it.Acknowledged == "" {
			out = append(out, it)
		}
	}
	return out
}

func acknowledged(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if it.Acknowledged != "" {
			out = append(out, it)
		}
	}
	return out
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func subjectMarkdown(s finding.Subject) string {
	if s.Name == "" {
		return kindLabel(s.Kind)
	}
	return kindLabel(s.Kind) + " " + Code(s.Name, MaxName)
}

func comparedMarkdown(s *Section) string {
	side := func(x *Side) string {
		out := Code(nonEmpty(x.Label, "(unnamed)"), MaxName)
		var parts []string
		if x.ManifestHash != "" {
			parts = append(parts, "manifest "+Code(shortHash(x.ManifestHash), 20))
		}
		if x.Revision != "" {
			parts = append(parts, "revision "+Code(x.Revision, 40))
		}
		if len(parts) > 0 {
			out += " (" + strings.Join(parts, ", ") + ")"
		}
		return out
	}
	switch {
	case s.Base != nil && s.Head != nil:
		if s.Base.ManifestHash != "" && s.Base.ManifestHash == s.Head.ManifestHash {
			return "Compared base " + side(s.Base) + " with head " + side(s.Head) + ": the surfaces are identical."
		}
		return "Compared base " + side(s.Base) + " with head " + side(s.Head) + "."
	case s.Head != nil:
		return "Checked " + side(s.Head) + "."
	}
	return ""
}

// detail is one subject's collapsible section: in the comment only the
// findings with something to show (a before/after value or a text diff),
// in the full report every finding. Nil when there is nothing to show.
func (b *mdBuilder) detail(g *group) *mdDetail {
	d := &mdDetail{rank: g.worst, kind: kindRank(g.subject.Kind)}
	shown := 0
	for _, it := range g.items {
		e := b.entry(it)
		if len(e.Blocks) == 0 && !b.o.Full {
			continue
		}
		if shown == maxEntriesPerDetail {
			d.Omitted++
			continue
		}
		shown++
		d.Entries = append(d.Entries, e)
	}
	if shown == 0 {
		return nil
	}
	d.Summary = fmt.Sprintf("%s %s: details of %s", levelIcon(levelOfRank(g.worst)), subjectMarkdown(g.subject), plural(shown+d.Omitted, "finding", "findings"))
	return d
}

func (b *mdBuilder) entry(it Item) mdEntry {
	head := fmt.Sprintf("%s **%s**", levelIcon(it.Level), Code(it.Rule, MaxName))
	if it.Severity != "" {
		head += " (" + Markdown(string(it.Severity), 20) + ")"
	}
	if it.Pointer != "" {
		head += " at " + Code(it.Pointer, MaxName)
	}
	head += ": " + Markdown(it.Message, MaxMessage)
	if ruleIDPattern().MatchString(it.Rule) {
		head += " ([rule](" + b.o.RuleURL(it.Rule) + "))"
	}
	if it.Location.Source == locate.SourceCode {
		head += "<br>Defined at " + Code(fmt.Sprintf("%s:%d", it.Location.Path, it.Location.Line), MaxName) + "."
	}
	e := mdEntry{Head: head}
	switch {
	case it.TextDiff != "":
		a, bb, _ := textStrings(it.Finding)
		lang := "text"
		if IsLineDiff(a, bb) {
			lang = "diff"
		}
		e.Blocks = append(e.Blocks, "Text diff:", CodeBlock(it.TextDiff, lang))
	default:
		if it.Before != nil && !isName(it.Before, it.Subject.Name) {
			e.Blocks = append(e.Blocks, "Before:", excerpt(it.Before))
		}
		if it.After != nil && !isName(it.After, it.Subject.Name) {
			e.Blocks = append(e.Blocks, "After:", excerpt(it.After))
		}
	}
	return e
}

// isName reports whether a value is just the subject's name (an item
// added or removed), which the heading already shows.
func isName(v json.RawMessage, name string) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == name && name != ""
}

func levelOfRank(r int) rules.Level {
	for _, l := range []rules.Level{rules.LevelError, rules.LevelWarning, rules.LevelNote, rules.LevelInfo} {
		if l.Rank() == r {
			return l
		}
	}
	return rules.LevelInfo
}

// excerpt shows a before/after value: a string as text, anything else as
// indented JSON, bounded in lines and bytes.
func excerpt(v json.RawMessage) string {
	var s string
	if err := json.Unmarshal(v, &s); err == nil {
		return CodeBlock(boundLines(s), "text")
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, v, "", "  "); err != nil {
		return CodeBlock(boundLines(string(v)), "text")
	}
	return CodeBlock(boundLines(buf.String()), "json")
}

func boundLines(s string) string {
	if len(s) > maxExcerptBytes {
		cut := maxExcerptBytes
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "\n…"
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxExcerptLines {
		more := len(lines) - maxExcerptLines
		lines = append(lines[:maxExcerptLines], fmt.Sprintf("… (%d more lines)", more))
	}
	return strings.Join(lines, "\n")
}

// ackKey is the acknowledgement key of a subject kind in .mcp-surface.yaml.
var ackKey = map[string]string{
	finding.KindTool: "tool", finding.KindPrompt: "prompt", finding.KindResource: "resource",
	finding.KindResourceTemplate: "template",
}

// RenderUnchanged is the comment body for a pull request whose surface no
// longer differs from its base: a publisher updates its existing comment
// to it (rather than deleting it) when a change was reverted. The marker
// stays the first line, so later runs still find the comment.
func RenderUnchanged(r *Report, o Options) []byte {
	line := "✅ **surface unchanged**"
	if o.HeadSHA != "" {
		line += " at " + Code(shortSHA(o.HeadSHA), 20)
	}
	if u := safeURL(o.RunURL); u != "" {
		line += " · [run](" + u + ")"
	}
	return []byte(Marker(MarkerKey(r, o)) + "\n" + line + "\n")
}
