package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// kindOrder is the order reports list subject kinds in (finding.Kinds).
var kindOrder = finding.Kinds()

// kindNoun names n subjects of a kind: "1 tool", "3 resource templates".
func kindNoun(kind string, n int) string {
	switch kind {
	case finding.KindResourceTemplate:
		return plural(n, "resource template", "resource templates")
	case finding.KindServer:
		return plural(n, "server change", "server changes")
	case "":
		return plural(n, "finding", "findings")
	}
	return plural(n, kind, kind+"s")
}

// naturalCompare orders strings with runs of digits compared as numbers,
// so that resource/2 comes before resource/10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// compareItems is the reading order of the comment and the text output:
// tools first, worst first, then by name (natural order), pointer, rule.
func compareItems(a, b Item) int {
	return cmp.Or(
		cmp.Compare(finding.KindRank(a.Subject.Kind), finding.KindRank(b.Subject.Kind)),
		cmp.Compare(b.Level.Rank(), a.Level.Rank()),
		naturalCompare(a.Subject.Name, b.Subject.Name),
		strings.Compare(a.Pointer, b.Pointer),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Fingerprint, b.Fingerprint),
	)
}

// collapseFrom findings of one rule on one kind of subject are shown as
// one line that names the subjects; fewer are shown one by one.
const collapseFrom = 3

// A run is the findings of one rule on one kind of subject at one level.
type run struct {
	rule  string
	kind  string
	level rules.Level
	items []Item
	// apart: the findings say different things (a property, a value, a
	// witness), so each is shown on its own however many there are.
	apart bool
}

// collapsed reports whether the run is shown as one line.
func (r *run) collapsed() bool { return len(r.items) >= collapseFrom && !r.apart }

// names are the run's subjects (for the server, the pointers), in
// natural order, each once.
func (r *run) names() []string {
	var out []string
	for _, it := range r.items {
		n := it.Subject.Name
		if it.Subject.Kind == finding.KindServer || n == "" {
			n = it.Pointer
		}
		if to := renamedTo(it); to != "" {
			n += " → " + to
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, naturalCompare)
	return out
}

// phrase is the rule in words for a run's line: the ID without the kind's
// prefix ("tool-removed" on tools: "removed").
func (r *run) phrase() string {
	return strings.ReplaceAll(strings.TrimPrefix(r.rule, r.kind+"-"), "-", " ")
}

// title names a collapsed run: "7 tools removed", or for the server's
// fields "server: capability tasks added (3)". bold marks the count.
func (r *run) title(bold func(string) string) string {
	if r.kind == finding.KindServer {
		return bold("server") + ": " + r.phrase() + fmt.Sprintf(" (%d)", len(r.items))
	}
	return bold(kindNoun(r.kind, len(r.names()))) + " " + r.phrase()
}

// runsOf groups items into runs: tools first, worst first, larger runs
// first, then by rule; items inside a run in reading order.
func runsOf(items []Item) []*run {
	type key struct {
		rule, kind string
		level      rules.Level
	}
	idx := map[key]*run{}
	var out []*run
	for _, it := range items {
		k := key{it.Rule, it.Subject.Kind, it.Level}
		r := idx[k]
		if r == nil {
			r = &run{rule: it.Rule, kind: it.Subject.Kind, level: it.Level}
			idx[k] = r
			out = append(out, r)
		}
		r.items = append(r.items, it)
	}
	for _, r := range out {
		slices.SortStableFunc(r.items, compareItems)
	}
	// Collapsed runs lead, largest first; single findings follow in
	// reading order, so that one subject's findings stay together.
	slices.SortStableFunc(out, func(a, b *run) int {
		c := cmp.Or(
			cmp.Compare(finding.KindRank(a.kind), finding.KindRank(b.kind)),
			cmp.Compare(b.level.Rank(), a.level.Rank()),
		)
		if c != 0 {
			return c
		}
		if a.collapsed() || b.collapsed() {
			return cmp.Or(cmp.Compare(len(b.items), len(a.items)), strings.Compare(a.rule, b.rule))
		}
		return compareItems(a.items[0], b.items[0])
	})
	return out
}

// Change classes of the count line: what happened to a subject as a whole.
const (
	classRemoved = iota
	classRenamed
	classChanged
	classAdded
	classEdited
	numClasses
)

var classNames = [numClasses]string{"removed", "renamed", "changed", "added", "text edits"}

// classOf is the class a finding's rule gives its subject on its own,
// from the rule's action: it left, moved or arrived. Anything else
// changed it (ok false).
func classOf(rule string) (int, bool) {
	r, _ := rules.Lookup(rule)
	switch r.Action {
	case rules.ActionRemoved:
		return classRemoved, true
	case rules.ActionRenamed:
		return classRenamed, true
	case rules.ActionAdded:
		return classAdded, true
	}
	return 0, false
}

// changedKinds yields, in kindOrder, each kind with changes among items
// and its counts by class (kindCounts).
func changedKinds(items []Item) iter.Seq2[string, *[numClasses]int] {
	counts := kindCounts(ofCategory(items, CategoryChange))
	return func(yield func(string, *[numClasses]int) bool) {
		for _, k := range kindOrder {
			if c := counts[k]; c != nil && !yield(k, c) {
				return
			}
		}
	}
}

// kindCounts counts, per kind, the subjects of each change class. A
// subject is removed, renamed or added when one of its findings says so;
// else it is a text edit when every change is patch-level or less (its
// prose), else changed.
func kindCounts(changes []Item) map[string]*[numClasses]int {
	type acc struct {
		class  int
		strong bool // a removal, rename or addition
		prose  bool
	}
	subjects := map[finding.Subject]*acc{}
	var order []finding.Subject
	for _, it := range changes {
		a := subjects[it.Subject]
		if a == nil {
			a = &acc{prose: true}
			subjects[it.Subject] = a
			order = append(order, it.Subject)
		}
		if c, ok := classOf(it.Rule); ok && !a.strong {
			a.class, a.strong = c, true
		}
		if it.Severity.Rank() > rules.SeverityPatch.Rank() {
			a.prose = false
		}
	}
	out := map[string]*[numClasses]int{}
	for _, s := range order {
		a := subjects[s]
		c := a.class
		if !a.strong {
			c = classChanged
			if a.prose {
				c = classEdited
			}
		}
		if out[s.Kind] == nil {
			out[s.Kind] = &[numClasses]int{}
		}
		out[s.Kind][c]++
	}
	return out
}

// renameRules report an item under its old name with the new name as the
// finding's after value.
var renameRules = []string{rules.ToolRenamed, rules.ToolNameCaseChanged, rules.PromptRenamed}

// renamedTo is the new name of a renamed item, or "".
func renamedTo(it Item) string {
	if !slices.Contains(renameRules, it.Rule) {
		return ""
	}
	var to string
	if json.Unmarshal(it.After, &to) != nil || to == it.Subject.Name {
		return ""
	}
	return to
}

// kindLabel is a subject kind in prose: "resource template".
func kindLabel(kind string) string { return strings.ReplaceAll(kind, "-", " ") }
