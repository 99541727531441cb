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
	// The rest is one row only when its findings say the same but their
	// subject ("7 tools removed"); a property, keyword, value or call of
	// its own is worth a row each ("5 tools input required property
	// added" names no property and shows no call).
	var first *sameChange
	for _, it := range rest.items {
		k := inWords(it)
		if first == nil {
			first = &k
		}
		rest.apart = rest.apart || k != *first
	}
	slices.SortStableFunc(repeats, func(a, b []Item) int { return len(b) - len(a) })
	return repeats, rest
}

// inWords is what a finding says with its subject's name left out: two
// findings with the same are the same change on different subjects.
func inWords(it Item) sameChange {
	name := it.Subject.Name
	strip := func(v string) string {
		if name == "" {
			return v
		}
		return strings.ReplaceAll(v, name, "\x00")
	}
	switch {
	case renamedTo(it) != "":
		// The row shows each old name beside its new one.
		return sameChange{message: "renamed", acknowledged: it.Acknowledged}
	case it.TextDiff != "":
		// A text edit: each subject's text is shown in its details.
		return sameChange{message: "text edited", pointer: strip(it.Pointer), acknowledged: it.Acknowledged}
	}
	return sameChange{strip(it.Message), strip(it.Pointer), strip(string(it.Before)), strip(string(it.After)), it.Acknowledged, witnessKey(it.Finding)}
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
