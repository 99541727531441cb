package report

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

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
		ms := &mdServer{Counts: b.countLines(i), Cost: costLine(s.CostBase, s.CostHead), Caution: b.caution(i)}
		if multi {
			ms.Heading = Code(nonEmpty(s.Server, "(unnamed)"), MaxName) + ": " + sv.icon + " " + sv.text
		}
		if b.hidden[i] > 0 {
			ms.HiddenInfo = plural(b.hidden[i], "info finding is", "info findings are")
			// The action takes no --show-info: published, the job
			// summary is where they are; on the command line, the flag.
			ms.InfoHint = "`--show-info` shows them"
			if o.RunURL != "" || o.SummaryURL != "" {
				ms.InfoHint = "the job summary lists them"
			}
		}
		if o.Full {
			ms.Compared = comparedMarkdown(s)
			for _, n := range s.Notes {
				ms.Notes = append(ms.Notes, Markdown(n, MaxMessage))
			}
		}
		// The stale snapshot has its own count line, not a row.
		open := withoutStale(unacknowledged(b.items[i]))
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
					cuts = append(cuts, cut{key: [4]int{cutBreakingRow, 0, -finding.KindRank(ru.kind), -len(cuts)}, set: func(c bool) { row.cut = c }, row: true})
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
					cuts = append(cuts, cut{key: [4]int{cutFoldRow, l.Rank(), -finding.KindRank(ru.kind), -len(cuts)}, set: func(c bool) { row.cut = c }, row: true})
				}
			}
			ms.Folds = append(ms.Folds, fold)
		}
		// A change repeated on several subjects has one detail, and the
		// subjects' own details leave it out.
		shared := map[string]bool{}
		if !o.Verbose {
			for _, ru := range runsOf(open) {
				repeats, _ := splitRun(ru)
				for _, its := range repeats {
					if d := b.repeatDetail(its); d != nil {
						ms.Details = append(ms.Details, d)
						for _, it := range its {
							shared[it.Fingerprint] = true
						}
					}
				}
			}
		}
		var own []Item
		for _, it := range open {
			if !shared[it.Fingerprint] {
				own = append(own, it)
			}
		}
		groups := groupBySubject(own)
		slices.SortStableFunc(groups, func(x, y *group) int {
			return cmp.Or(cmp.Compare(finding.KindRank(x.subject.Kind), finding.KindRank(y.subject.Kind)), cmp.Compare(y.worst, x.worst),
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
		// Tools first, the worst first; a shared change before the
		// subjects' own details at its level.
		slices.SortStableFunc(ms.Details, func(x, y *mdDetail) int {
			return cmp.Or(cmp.Compare(x.kind, y.kind), cmp.Compare(y.rank, x.rank))
		})
		// Details are cut least severe first, resources before tools, the
		// last first.
		for g, d := range ms.Details {
			cuts = append(cuts, cut{key: [4]int{cutDetail, d.rank, -d.kind, -g}, set: func(c bool) { d.cut = c }, detail: true})
		}
		for _, it := range acknowledged(b.items[i]) {
			a := &mdAck{Subject: subjectMarkdown(it.Subject), Rule: Code(it.Rule, MaxName), Reason: Markdown(it.Acknowledged, maxCellMessage)}
			ms.Acknowledged = append(ms.Acknowledged, a)
			cuts = append(cuts, cut{key: [4]int{cutAckRow, 0, -finding.KindRank(it.Subject.Kind), -len(cuts)}, set: func(c bool) { a.cut = c }, row: true})
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

// rows renders a run: one row for each change repeated on several
// subjects, naming them; then one row naming the subjects of the rest
// when they are many, else one row per finding. Verbose: one row per
// finding.
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
	code := func(n string) string { return Code(n, MaxName) }
	var out []*mdRow
	if b.o.Verbose {
		for _, it := range ru.items {
			out = append(out, proven(mk(subjectMarkdown(it.Subject)+": "+Markdown(it.Message, maxCellMessage)), it, breaking))
		}
		return out
	}
	repeats, rest := splitRun(ru)
	for _, its := range repeats {
		names := subjectNames(its)
		out = append(out, proven(mk(Markdown(its[0].Message, maxCellMessage)+", in **"+kindNoun(ru.kind, len(names))+"**: "+nameList(names, b.rowNames(), code)), its[0], breaking))
	}
	if rest.collapsed() {
		names := rest.names()
		what := rest.title(func(s string) string { return "**" + s + "**" }) + ": " + nameList(names, b.rowNames(), code)
		if len(names) != len(rest.items) {
			what += " (" + plural(len(rest.items), "finding", "findings") + ")"
		}
		return append(out, mk(what))
	}
	for _, it := range rest.items {
		out = append(out, proven(mk(subjectMarkdown(it.Subject)+": "+Markdown(it.Message, maxCellMessage)), it, breaking))
	}
	return out
}

// proven adds a finding's witness to its row of the breaking table, where
// the reader decides: what breaks, shown by a call that breaks.
func proven(row *mdRow, it Item, breaking bool) *mdRow {
	if s := WitnessSentence(it.Finding); breaking && s != "" {
		row.Breaks += "<br><br>" + s + ": " + Code(WitnessLine(it.Finding, maxWitnessInline), maxWitnessInline+8)
	}
	return row
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
func ofCategory(items []Item, cat Category) []Item {
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

// detail is one subject's collapsible section: the findings with
// something to show (a before/after value or a text diff), in the comment
// and in the job summary alike (a removed item has nothing to show but
// its name, which its table row names). Nil when there is nothing to
// show.
func (b *mdBuilder) detail(g *group) *mdDetail {
	d := &mdDetail{rank: g.worst, kind: finding.KindRank(g.subject.Kind)}
	shown := 0
	for _, it := range g.items {
		e := b.entry(it)
		if len(e.Blocks) == 0 {
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

// repeatDetail is the one detail of a change made identically on several
// subjects: the change once, without a source line (each subject has its
// own). Nil when it has nothing to show.
func (b *mdBuilder) repeatDetail(its []Item) *mdDetail {
	one := its[0]
	one.Location = locate.Location{}
	e := b.entry(one)
	if len(e.Blocks) == 0 {
		return nil
	}
	kind := one.Subject.Kind
	return &mdDetail{
		Summary: fmt.Sprintf("%s %s, one change: %s", levelIcon(one.Level), kindNoun(kind, len(subjectNames(its))), Markdown(one.Message, maxCellMessage)),
		Entries: []mdEntry{e},
		rank:    one.Level.Rank(),
		kind:    finding.KindRank(kind),
	}
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
		if isLineDiff(a, bb) {
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
	if s := WitnessSentence(it.Finding); s != "" {
		e.Blocks = append(e.Blocks, s+":", excerpt(it.Witness.Value))
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

// excerpt shows a before/after value or a witness as JSON, whatever its
// type (a string quoted, so that "" and "F" are seen as what they are;
// numbers, null and {} as written), indented, bounded in lines and bytes:
// the quoting rule of every format.
func excerpt(v json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, v, "", "  "); err != nil {
		return CodeBlock(boundLines(string(v)), "text")
	}
	return CodeBlock(boundLines(buf.String()), "json")
}

func boundLines(s string) string {
	s = textscan.Clip(s, maxExcerptBytes, "\n…")
	lines := strings.Split(s, "\n")
	if len(lines) > maxExcerptLines {
		more := len(lines) - maxExcerptLines
		lines = append(lines[:maxExcerptLines], fmt.Sprintf("… (%d more lines)", more))
	}
	return strings.Join(lines, "\n")
}
