package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/template"

	"github.com/mcp-surface/mcp-surface/internal/locate"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
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
	// openRows rows of a table show; the rest are collapsed.
	openRows = 30
	// byRuleFrom findings and more get a per-rule overview.
	byRuleFrom = 40
)

//go:embed markdown.tmpl
var markdownTemplate string

var mdTemplate = template.Must(template.New("markdown").Funcs(template.FuncMap{
	// more is a table of the collapsed rows.
	"more": func(t *mdTable) *mdTable { return &mdTable{Column: t.Column, Rows: t.More} },
}).Parse(markdownTemplate))

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

// The view the template renders: every string is already escaped.
type mdView struct {
	Marker, Title, Verdict string
	Counts                 mdCounts
	Servers                []*mdServer
	Shortened              string
	Help                   []string
	Footer                 string
}

type mdCounts struct{ Error, Warning, Note, Info, Acknowledged string }

type mdServer struct {
	Heading, Verdict string
	Counts           mdCounts
	Compared         string
	Notes            []string
	ByRule           []mdRuleCount
	Tables           []*mdTable
	Details          []mdDetail
	DetailsOmitted   int
	Acknowledged     []mdAck
	HiddenInfo       string
}

type mdRow struct {
	Icon, Subject, Message, Rule string
	subject                      string // always set; Subject only on a group's first row
}

// mdTable is one table of findings: the first rows in the open, the rest
// collapsed, and a count of rows left out for the budget.
type mdTable struct {
	Title, Column string
	Rows, More    []mdRow
	Omitted       int
}

func (t *mdTable) add(r mdRow) {
	if len(t.Rows) < openRows {
		t.Rows = append(t.Rows, r)
		return
	}
	if len(t.More) == 0 {
		r.Subject = r.subject // the collapsed table starts afresh
	}
	t.More = append(t.More, r)
}

// mdRuleCount is one line of the per-rule overview of a large report.
type mdRuleCount struct{ Icon, Rule, Count, Subjects string }

type mdDetail struct {
	Summary string
	Entries []mdEntry
	Omitted int
}

type mdEntry struct {
	Head   string
	Blocks []string
}

type mdAck struct{ Subject, Rule, Reason string }

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

// renderMarkdown writes the PR comment / job summary. It stays within the
// budget by leaving out, in order, the collapsible details of the last
// subjects, then the last table rows; the marker, the verdict, the counts
// and what to do always stay, and the comment says what it left out.
func renderMarkdown(w io.Writer, r *Report, o Options) error {
	budget := o.MaxMarkdownBytes
	if budget <= 0 {
		budget = DefaultMarkdownBudget
	}
	budget = max(budget, minMarkdownBudget)
	b := newMDBuilder(r, o)
	full, err := b.render(-1, -1)
	if err != nil {
		return err
	}
	if len(full) <= budget {
		_, err = w.Write(full)
		return err
	}
	// The largest number of details that fits, all rows kept.
	var out []byte
	d := sort.Search(b.totalDetails+1, func(n int) bool {
		x, _ := b.render(n+1, -1)
		return len(x) > budget
	})
	if d > 0 || b.totalDetails == 0 {
		out, err = b.render(d, -1)
	}
	if out == nil || len(out) > budget {
		rows := sort.Search(b.totalRows+1, func(n int) bool {
			x, _ := b.render(0, n+1)
			return len(x) > budget
		})
		out, err = b.render(0, rows)
	}
	if err != nil {
		return err
	}
	if len(out) > budget {
		// Pathological (thousands of servers): keep whole lines up to the
		// budget; the marker and verdict come first.
		cut := bytes.LastIndexByte(out[:budget-200], '\n')
		out = append(out[:cut+1:cut+1], []byte("\n*The rest of this report did not fit in a comment; see the job summary or the JSON report.*\n")...)
	}
	_, err = w.Write(out)
	return err
}

type mdBuilder struct {
	r            *Report
	o            Options
	secs         []*Section
	items        [][]Item // shown items per section
	hidden       []int
	totalDetails int
	totalRows    int
}

func newMDBuilder(r *Report, o Options) *mdBuilder {
	b := &mdBuilder{r: r, o: o, secs: r.sections()}
	for _, s := range b.secs {
		items, hidden := visibleItems(s.Items(), o.ShowInfo)
		b.items = append(b.items, items)
		b.hidden = append(b.hidden, hidden)
		for _, g := range groupBySubject(unacknowledged(items)) {
			b.totalDetails++
			b.totalRows += len(g.items)
		}
	}
	return b
}

// byRule counts findings and subjects per rule, worst level first, then
// most frequent.
func byRule(items []Item) []mdRuleCount {
	type acc struct {
		rule     string
		level    rules.Level
		n        int
		subjects map[finding.Subject]bool
	}
	m := map[string]*acc{}
	var order []*acc
	for _, it := range items {
		a := m[it.Rule]
		if a == nil {
			a = &acc{rule: it.Rule, level: it.Level, subjects: map[finding.Subject]bool{}}
			m[it.Rule] = a
			order = append(order, a)
		}
		a.n++
		a.subjects[it.Subject] = true
		if it.Level.Rank() > a.level.Rank() {
			a.level = it.Level
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.level.Rank() != b.level.Rank() {
			return a.level.Rank() > b.level.Rank()
		}
		if a.n != b.n {
			return a.n > b.n
		}
		return a.rule < b.rule
	})
	out := make([]mdRuleCount, len(order))
	for i, a := range order {
		out[i] = mdRuleCount{Icon: levelIcon(a.level), Rule: Code(a.rule, MaxName), Count: fmt.Sprint(a.n), Subjects: fmt.Sprint(len(a.subjects))}
	}
	return out
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

// render builds the view keeping at most maxDetails detail sections and
// maxRows table rows in all (-1: all), and executes the template.
func (b *mdBuilder) render(maxDetails, maxRows int) ([]byte, error) {
	o := b.o
	sum := b.r.Summary()
	failed := b.r.Failed(o.FailOn)
	v := mdView{
		Marker:  Marker(MarkerKey(b.r, o)),
		Title:   b.title(),
		Verdict: verdict(sum, b.failing(), failed, o, len(b.secs) == 0),
		Counts:  counts(sum, o.ShowInfo),
		Footer:  b.footer(),
	}
	detailsLeft, rowsLeft := maxDetails, maxRows
	shownDetails, shownRows := 0, 0
	var firstFailing *Item
	for i, s := range b.secs {
		ms := &mdServer{}
		if b.hidden[i] > 0 {
			ms.HiddenInfo = plural(b.hidden[i], "info finding is", "info findings are")
		}
		if len(b.secs) > 1 {
			ssum := s.Summary()
			ms.Heading = "Server " + Code(nonEmpty(s.Server, "(unnamed)"), MaxName)
			ms.Verdict = verdict(ssum, countFailing(b.items[i], o.FailOn), s.Failed(o.FailOn), o, false)
			ms.Counts = counts(ssum, o.ShowInfo)
		}
		ms.Compared = comparedMarkdown(s)
		for _, n := range s.Notes {
			ms.Notes = append(ms.Notes, Markdown(n, MaxMessage))
		}
		open := unacknowledged(b.items[i])
		if len(open) >= byRuleFrom {
			ms.ByRule = byRule(open)
		}
		for _, cat := range []string{CategoryChange, ""} {
			tab := &mdTable{Title: "Changes", Column: "Change"}
			if cat == "" {
				tab = &mdTable{Title: "Spec and lint", Column: "Finding"}
			}
			for _, g := range groupBySubject(ofCategory(open, cat)) {
				for j, it := range g.items {
					if firstFailing == nil && failsAt(it.Level, o.FailOn) && (cat == CategoryChange || len(ofCategory(open, CategoryChange)) == 0) {
						first := it
						firstFailing = &first
					}
					if rowsLeft == 0 {
						tab.Omitted++
						continue
					}
					rowsLeft--
					shownRows++
					row := mdRow{Icon: levelIcon(it.Level), Message: Markdown(it.Message, maxCellMessage), Rule: Code(it.Rule, MaxName), subject: subjectMarkdown(g.subject)}
					if j == 0 {
						row.Subject = row.subject
					}
					tab.add(row)
				}
			}
			if len(tab.Rows)+tab.Omitted > 0 {
				ms.Tables = append(ms.Tables, tab)
			}
		}
		for _, g := range groupBySubject(open) {
			if detailsLeft == 0 {
				ms.DetailsOmitted++
				continue
			}
			detailsLeft--
			shownDetails++
			ms.Details = append(ms.Details, b.detail(g))
		}
		for _, it := range acknowledged(b.items[i]) {
			ms.Acknowledged = append(ms.Acknowledged, mdAck{
				Subject: subjectMarkdown(it.Subject), Rule: Code(it.Rule, MaxName), Reason: Markdown(it.Acknowledged, maxCellMessage),
			})
		}
		v.Servers = append(v.Servers, ms)
	}
	if shownDetails < b.totalDetails || shownRows < b.totalRows {
		var parts []string
		if shownDetails < b.totalDetails {
			parts = append(parts, fmt.Sprintf("the details of %d of %d subjects", b.totalDetails-shownDetails, b.totalDetails))
		}
		if shownRows < b.totalRows {
			parts = append(parts, fmt.Sprintf("%d of %d table rows", b.totalRows-shownRows, b.totalRows))
		}
		v.Shortened = fmt.Sprintf("This comment was shortened to stay under GitHub's %d-character limit: %s are not shown. "+
			"The JSON report (`--format json`) and `mcp-surface diff` in a checkout list every finding.",
			GitHubCommentLimit, strings.Join(parts, " and "))
	}
	v.Help = b.help(sum, firstFailing)
	var buf bytes.Buffer
	if err := mdTemplate.Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (b *mdBuilder) failing() int {
	n := 0
	for _, items := range b.items {
		n += countFailing(items, b.o.FailOn)
	}
	return n
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

func (b *mdBuilder) title() string {
	var names []string
	for _, s := range b.secs {
		if s.Server != "" {
			names = append(names, Code(s.Server, MaxName))
		}
	}
	if len(names) == 0 {
		return "mcp-surface report"
	}
	if len(names) > 5 {
		return fmt.Sprintf("mcp-surface report for %d servers", len(names))
	}
	return "mcp-surface report for " + strings.Join(names, ", ")
}

func (b *mdBuilder) footer() string {
	parts := []string{"mcp-surface"}
	if b.r.Version != "" {
		parts[0] += " " + Markdown(b.r.Version, 40)
	}
	if b.o.FailOn == "" {
		parts = append(parts, "never fails (<code>--fail-on none</code>)")
	} else {
		parts = append(parts, "fails on "+string(b.o.FailOn)+" and above")
	}
	base := b.o.RulesURL
	if base == "" {
		base = RulesDocURL
	}
	parts = append(parts, "[rules]("+base+")")
	return strings.Join(parts, " · ")
}

// verdict is the one-line answer.
func verdict(sum Summary, failing int, failed bool, o Options, empty bool) string {
	bump := ""
	if sum.SuggestedBump != "" {
		bump = fmt.Sprintf(" Suggested version bump: **%s**.", sum.SuggestedBump)
	}
	counted := countsPhrase(sum, o.ShowInfo)
	switch {
	case empty:
		return "⚪ **No server was checked.**"
	case failed:
		return fmt.Sprintf("❌ **%s at or above %s**: this check fails.%s", plural(failing, "finding", "findings"), o.FailOn, bump)
	case counted == "" && sum.Acknowledged == 0:
		return "✅ **No findings.**" + bump
	case counted == "":
		return fmt.Sprintf("✅ **Nothing to review**: %s.%s", plural(sum.Acknowledged, "finding is acknowledged", "findings are acknowledged"), bump)
	}
	icon := "✅"
	if sum.Error > 0 || sum.Warning > 0 {
		icon = "⚠️"
	}
	pass := "this check passes"
	if o.FailOn != "" {
		pass = fmt.Sprintf("nothing at or above %s, this check passes", o.FailOn)
	}
	return fmt.Sprintf("%s **%s**: %s.%s", icon, counted, pass, bump)
}

func counts(s Summary, showInfo bool) mdCounts {
	info := fmt.Sprint(s.Info)
	if !showInfo && s.Info > 0 {
		info += " (hidden)"
	}
	return mdCounts{
		Error: fmt.Sprint(s.Error), Warning: fmt.Sprint(s.Warning), Note: fmt.Sprint(s.Note),
		Info: info, Acknowledged: fmt.Sprint(s.Acknowledged),
	}
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func subjectMarkdown(s finding.Subject) string {
	if s.Name == "" {
		return s.Kind
	}
	return s.Kind + " " + Code(s.Name, MaxName)
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

// detail is one subject's collapsible section.
func (b *mdBuilder) detail(g *group) mdDetail {
	d := mdDetail{Summary: fmt.Sprintf("%s %s: %s", levelIcon(levelOfRank(g.worst)), subjectMarkdown(g.subject), plural(len(g.items), "finding", "findings"))}
	for i, it := range g.items {
		if i == maxEntriesPerDetail {
			d.Omitted = len(g.items) - i
			break
		}
		head := fmt.Sprintf("%s **%s**", levelIcon(it.Level), Code(it.Rule, MaxName))
		if it.Severity != "" {
			head += " (" + Markdown(string(it.Severity), 20) + ")"
		}
		if it.Pointer != "" {
			head += " at " + Code(it.Pointer, MaxName)
		}
		head += ": " + Markdown(it.Message, MaxMessage)
		if ruleIDPattern.MatchString(it.Rule) {
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
		d.Entries = append(d.Entries, e)
	}
	return d
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

// help says what to do about unacknowledged findings.
func (b *mdBuilder) help(sum Summary, failing *Item) []string {
	if sum.Error+sum.Warning+sum.Note == 0 && !(b.o.ShowInfo && sum.Info > 0) {
		return nil
	}
	snapshot := locate.DefaultSnapshot
	for _, s := range b.secs {
		if s.Snapshot != "" {
			snapshot = s.Snapshot
			break
		}
	}
	out := []string{
		"If the changes are intended, record the new surface: run <code>mcp-surface snapshot -- &lt;your server command&gt;</code> and commit " + Code(snapshot, MaxName) + ".",
	}
	ack := "To accept a finding without failing the check, acknowledge it in <code>.mcp-surface.yaml</code> with a reason (<code>mcp-surface diff --format ignore-yaml</code> prints entries to paste)"
	if failing != nil {
		ack += ":\n\n" + indent(CodeBlock(ackYAML(*failing), "yaml"), "  ")
	} else {
		ack += "."
	}
	out = append(out, ack)
	if sum.SuggestedBump != "" {
		out = append(out, fmt.Sprintf("Release the server with a **%s** version bump: the worst change is %s.", sum.SuggestedBump, Markdown(string(sum.WorstSeverity), 20)))
	}
	out = append(out, "Each rule's page explains why it matters: <code>mcp-surface explain RULE</code>.")
	return out
}

// ackKey is the acknowledgement key of a subject kind in .mcp-surface.yaml.
var ackKey = map[string]string{
	finding.KindTool: "tool", finding.KindPrompt: "prompt", finding.KindResource: "resource",
	finding.KindResourceTemplate: "template",
}

// ackYAML is an acknowledgement entry for one finding. Values are JSON
// strings, which YAML reads as double-quoted scalars.
func ackYAML(it Item) string {
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var sb strings.Builder
	sb.WriteString("acknowledged:\n")
	sb.WriteString("  - rule: " + q(it.Rule) + "\n")
	if key, ok := ackKey[it.Subject.Kind]; ok {
		sb.WriteString("    " + key + ": " + q(it.Subject.Name) + "\n")
	}
	sb.WriteString("    fingerprint: " + q(it.Fingerprint) + "\n")
	sb.WriteString(`    reason: "why this change is safe for our clients"`)
	return sb.String()
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
