package report

import (
	"bytes"
	_ "embed"
	"sort"
	"sync"
	"text/template"

	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A ReviewComment is the text of one pull request review comment on a
// source line that defines a subject with findings. Publishing it (which
// lines are inside the diff, what GitHub accepts) is the publisher's
// business; the report only says where and what.
type ReviewComment struct {
	// Path is the file, relative to the repository root, slash-separated.
	Path string
	// Line is the line in Path that defines the subject.
	Line int
	// Body is markdown with every piece of server text escaped.
	Body string
	// Key is the fingerprint of the worst finding on the line: a
	// publisher recognises the comment by it on later runs.
	Key string
}

// maxFindingsPerReviewComment bounds one review comment; the rest are in
// the pull request comment.
const maxFindingsPerReviewComment = 5

//go:embed review.md.tmpl
var reviewTemplateText string

// reviewTemplate is parsed at first use, not at start-up (see internal/base/lazyre).
var reviewTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("review").Parse(reviewTemplateText))
})

// ReviewComments makes one comment per source line that defines a subject
// with unacknowledged findings above info, the line's findings worst first
// and the lines in the order of their worst finding; at most max comments
// (max <= 0: no bound). Only lines for which allowed reports true are
// used (a publisher passes the lines of the pull request's diff); lines of
// a server's snapshot never are, as a snapshot is not where a tool is
// defined.
func ReviewComments(r *Report, allowed func(path string, line int) bool, max int) []ReviewComment {
	type group struct {
		loc   locate.Location
		items []Item
	}
	var groups []*group
	byLine := map[locate.Location]*group{}
	var items []Item
	snapshots := map[string]bool{}
	for i := range r.Servers {
		items = append(items, r.Servers[i].Items()...)
		snapshots[r.Servers[i].Snapshot] = true
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Level.Rank() > items[j].Level.Rank() })
	for _, it := range items {
		if !reviewable(it) || it.Location.Source != locate.SourceCode || snapshots[it.Location.Path] {
			continue
		}
		loc := locate.Location{Path: it.Location.Path, Line: it.Location.Line}
		if !allowed(loc.Path, loc.Line) {
			continue
		}
		g := byLine[loc]
		if g == nil {
			g = &group{loc: loc}
			byLine[loc] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	var out []ReviewComment
	for _, g := range groups {
		if max > 0 && len(out) == max {
			break
		}
		out = append(out, ReviewComment{Path: g.loc.Path, Line: g.loc.Line, Body: reviewBody(g.items), Key: g.items[0].Fingerprint})
	}
	return out
}

// RefreshReviewComments keeps the comments whose Key is still a finding of
// r worth a comment, each with its body rendered again from r. A
// publisher that received comments from elsewhere (a bundle written by
// the pull request's own job) posts these, so no text of theirs is posted.
func RefreshReviewComments(r *Report, prior []ReviewComment) []ReviewComment {
	byKey := map[string]Item{}
	for i := range r.Servers {
		for _, it := range r.Servers[i].Items() {
			byKey[it.Fingerprint] = it
		}
	}
	var out []ReviewComment
	for _, c := range prior {
		it, ok := byKey[c.Key]
		if !ok || !reviewable(it) {
			continue
		}
		out = append(out, ReviewComment{Path: c.Path, Line: c.Line, Key: c.Key, Body: reviewBody([]Item{it})})
	}
	return out
}

// reviewable: what is acknowledged or only information is not worth
// interrupting a reviewer for.
func reviewable(it Item) bool {
	return it.Acknowledged == "" && it.Level != rules.LevelInfo
}

// reviewView is what review.md.tmpl renders, every field escaped.
type reviewView struct {
	Entries []reviewEntry
	More    int // findings on the line beyond maxFindingsPerReviewComment
}

type reviewEntry struct {
	Icon, Subject, Rule, Level, Message string
	Block                               string // a fenced text diff, or ""
	RuleID, RuleURL                     string // RuleID matches a rule's pattern (no escaping needed)
}

// reviewBody renders the findings of one line; one change made
// identically on several subjects defined there is one entry naming them.
func reviewBody(items []Item) string {
	v := reviewView{}
	type key struct {
		rule string
		same sameChange
	}
	var order []key
	by := map[key][]Item{}
	for _, it := range items {
		k := key{it.Rule, sameChange{it.Message, it.Pointer, string(it.Before), string(it.After), it.Acknowledged, witnessKey(it.Finding)}}
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], it)
	}
	if len(order) > maxFindingsPerReviewComment {
		for _, k := range order[maxFindingsPerReviewComment:] {
			v.More += len(by[k])
		}
		order = order[:maxFindingsPerReviewComment]
	}
	for _, k := range order {
		its := by[k]
		it := its[0]
		level := string(it.Level)
		if it.Severity != "" {
			level += ", " + string(it.Severity)
		}
		subject := Markdown(it.Subject.String(), MaxName)
		if names := subjectNames(its); len(names) > 1 {
			subject = kindNoun(it.Subject.Kind, len(names)) + " " + nameList(names, maxRowNames, func(n string) string { return Markdown(n, MaxName) })
		}
		e := reviewEntry{
			Icon: reviewIcon(it.Level), Subject: subject,
			Rule: Code(it.Rule, MaxName), Level: level, Message: Markdown(it.Message, MaxMessage),
			RuleID: it.Rule, RuleURL: Options{}.RuleURL(it.Rule),
		}
		if s := WitnessSentence(it.Finding); s != "" {
			e.Message += "<br>" + s + ": " + Code(WitnessLine(it.Finding, maxWitnessInline), maxWitnessInline+8)
		}
		if it.TextDiff != "" {
			// The strings, not their JSON: a JSON string has no newline.
			lang := "text"
			if a, b, _ := textStrings(it.Finding); isLineDiff(a, b) {
				lang = "diff"
			}
			e.Block = CodeBlock(truncate(it.TextDiff, MaxText), lang)
		}
		v.Entries = append(v.Entries, e)
	}
	var b bytes.Buffer
	if err := reviewTemplate().Execute(&b, v); err != nil {
		// The view is plain strings and ints: only a broken template fails,
		// which every test would show.
		panic("report: review template: " + err.Error())
	}
	return b.String()
}

// reviewIcon marks a level in a review comment, where the line already
// shows the finding: stop, warning or information.
func reviewIcon(l rules.Level) string { return l.Pick("🛑", "⚠️", "ℹ️", "ℹ️") }
