package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// Grouping is presentation: the model holds one finding per subject and
// change, and the text, markdown and review renderers show an identical
// change on several subjects as one row that names them.

// maxRowNames bounds the names one row of the comment or the terminal
// lists; past it the row says how many more there are, and the job
// summary (Options.Full) names every one.
const maxRowNames = 50

// abbreviateFrom is how many names a row must list before the later ones
// are shortened to what follows the first name's directory.
const abbreviateFrom = 8

// sameChange is what makes findings of one run the same change on
// different subjects: everything they say but the subject.
type sameChange struct {
	message, pointer, before, after, acknowledged, witness string
}

// splitRun divides a run into its repeats, the changes made identically
// on two or more subjects (the largest first, then in reading order), and
// the rest, a run of the findings that are each about one subject. The
// server's own findings are never repeats: it is one subject.
func splitRun(ru *run) (repeats [][]Item, rest *run) {
	rest = &run{rule: ru.rule, kind: ru.kind, level: ru.level}
	if ru.kind == finding.KindServer {
		rest.items = ru.items
		return nil, rest
	}
	by := map[sameChange][]Item{}
	var order []sameChange
	for _, it := range ru.items {
		k := sameChange{it.Message, it.Pointer, string(it.Before), string(it.After), it.Acknowledged, witnessKey(it.Finding)}
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], it)
	}
	for _, k := range order {
		if its := by[k]; len(subjectNames(its)) >= 2 {
			repeats = append(repeats, its)
		} else {
			rest.items = append(rest.items, its...)
		}
	}
	// The rest is one row only when its findings say nothing but their
	// subject ("7 tools removed"); each property, value or call of its own
	// is worth a row ("5 tools input required property added" names no
	// property and shows no call).
	for _, it := range rest.items {
		rest.apart = rest.apart || !bare(it)
	}
	slices.SortStableFunc(repeats, func(a, b []Item) int { return len(b) - len(a) })
	return repeats, rest
}

// bare reports whether a finding says nothing beyond its rule and subject
// (and, for a rename, the new name): an item removed, added or renamed. A
// text edit counts as bare: its text is shown in the subject's details.
func bare(it Item) bool {
	if it.Witness != nil {
		return false
	}
	if it.TextDiff != "" {
		return true
	}
	name := func(v []byte) bool { return v == nil || isName(v, it.Subject.Name) }
	return name(it.Before) && (name(it.After) || renamedTo(it) != "")
}

// witnessKey tells repeats apart by their proof: the same change on two
// tools whose witnesses differ is shown as two rows, each with its own.
func witnessKey(f finding.Finding) string {
	if f.Witness == nil {
		return ""
	}
	return f.Witness.Accepts + "|" + string(f.Witness.Value)
}

// subjectNames are the subjects' names of a repeat, in natural order, each
// once.
func subjectNames(items []Item) []string {
	var out []string
	for _, it := range items {
		if !slices.Contains(out, it.Subject.Name) {
			out = append(out, it.Subject.Name)
		}
	}
	slices.SortFunc(out, naturalCompare)
	return out
}

// nameList names the subjects of one row: at most max of them and then
// how many more, the names that share the first one's directory in a long
// list shortened to what follows it ("test://static/resource/1", "/2",
// "/3"); with max <= 0 (the job summary), every name in full. show
// renders a name.
func nameList(names []string, max int, show func(string) string) string {
	if len(names) == 0 {
		return ""
	}
	shown, more := names, 0
	if max > 0 && len(names) > max {
		shown, more = names[:max], len(names)-max
	}
	first := names[0]
	dir := strings.LastIndexByte(first, '/')
	parts := make([]string, len(shown))
	for i, n := range shown {
		if i > 0 && max > 0 && len(names) > abbreviateFrom && dir > 0 && strings.HasPrefix(n, first[:dir+1]) && len(n) > dir+1 {
			n = n[dir:]
		}
		parts[i] = show(n)
	}
	out := strings.Join(parts, ", ")
	if more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// rowNames is how many names a row lists in this rendering: every one in
// the job summary, else maxRowNames.
func (b *mdBuilder) rowNames() int {
	if b.o.Full {
		return 0
	}
	return maxRowNames
}

// classCount is "3 removed", "1 text edit": a count of the count line.
func classCount(class, n int) string {
	if class == classEdited {
		return plural(n, "text edit", "text edits")
	}
	return fmt.Sprintf("%d %s", n, classNames[class])
}
