package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// maxRenamePairs bounds the pairwise similarity search (removed × added)
// so that a snapshot that replaces every tool stays linear; beyond it only
// case-only and exact-content renames are found.
const maxRenamePairs = 250_000

// toolRenames reports case-only, case-style (normalName) and
// content-similar pairs of a removed and an added tool, and returns the
// tools left unpaired.
func (d *differ) toolRenames(k *itemKind, removed, added []manifest.Item) ([]manifest.Item, []manifest.Item) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added
	}
	usedR := make([]bool, len(removed))
	usedA := make([]bool, len(added))

	// 1. Case-only changes, whatever the content.
	pairByName(removed, added, usedR, usedA, strings.ToLower, func(i, j int) {
		it := removed[i]
		d.emit(rules.ToolNameCaseChanged, subject(finding.KindTool, it.ID), "/name",
			fmt.Sprintf("tool %s is now %s (only the letter case changed): calls with the old name fail", quote(it.ID), quote(added[j].ID)),
			jsonString(it.ID), jsonString(added[j].ID))
		d.compareAsOne(k, it, added[j])
	})
	// 1b. The same words in another case style (getTinyImage and
	// get-tiny-image): what a port to a naming convention does, whatever
	// else changed.
	pairByName(removed, added, usedR, usedA, normalName, func(i, j int) {
		d.renamedStyle(k, rules.ToolRenamed, "calls with the old name fail", removed[i], added[j])
	})
	if d.renameMin < 0 {
		return unused(removed, usedR), unused(added, usedA)
	}

	// 2. Exact content (everything but the name), linear.
	rs := make([]toolShape, len(removed))
	as := make([]toolShape, len(added))
	for i, it := range removed {
		rs[i] = shapeOf(it)
	}
	for j, it := range added {
		as[j] = shapeOf(it)
	}
	byContent := map[string][]int{}
	for j := range added {
		if !usedA[j] && as[j].evidence {
			byContent[as[j].content] = append(byContent[as[j].content], j)
		}
	}
	for i := range removed {
		if usedR[i] || !rs[i].evidence {
			continue
		}
		for _, j := range byContent[rs[i].content] {
			if !usedA[j] {
				usedR[i], usedA[j] = true, true
				d.renamed(k, removed[i], added[j], 1)
				break
			}
		}
	}

	// 3. Similar content, bounded.
	var left, right []int
	for i := range removed {
		if !usedR[i] && rs[i].evidence {
			left = append(left, i)
		}
	}
	for j := range added {
		if !usedA[j] && as[j].evidence {
			right = append(right, j)
		}
	}
	if len(left) > 0 && len(right) > 0 && len(left)*len(right) <= maxRenamePairs {
		type cand struct {
			i, j  int
			score float64
		}
		var cands []cand
		for _, i := range left {
			for _, j := range right {
				if s := similarity(&rs[i], &as[j]); s >= d.renameMin {
					cands = append(cands, cand{i, j, s})
				}
			}
		}
		slices.SortFunc(cands, func(a, b cand) int {
			return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
		})
		for _, c := range cands {
			if !usedR[c.i] && !usedA[c.j] {
				usedR[c.i], usedA[c.j] = true, true
				d.renamed(k, removed[c.i], added[c.j], c.score)
			}
		}
	}
	return unused(removed, usedR), unused(added, usedA)
}

// renamed reports a rename, then compares the two tools as one (under the
// new name), so that what else changed, and the text the new tool brings,
// is still reported.
func (d *differ) renamed(k *itemKind, from, to manifest.Item, score float64) {
	d.emit(rules.ToolRenamed, subject(finding.KindTool, from.ID), "/name",
		fmt.Sprintf("tool %s looks renamed to %s (similarity %.2f): calls with the old name fail", quote(from.ID), quote(to.ID), score),
		jsonString(from.ID), jsonString(to.ID))
	d.compareAsOne(k, from, to)
}

// renamedStyle reports a rename of from to to whose names differ only in
// case style, then compares the two items as one under the new name.
func (d *differ) renamedStyle(k *itemKind, rule, fails string, from, to manifest.Item) {
	d.emit(rule, k.subject(from.ID), "/name",
		fmt.Sprintf("%s %s is now %s (the same words in another case style): %s", k.Noun, quote(from.ID), quote(to.ID), fails),
		jsonString(from.ID), jsonString(to.ID))
	d.compareAsOne(k, from, to)
}

// compareAsOne compares a renamed pair as one item under its new
// identity; the rename finding reports the identity itself.
func (d *differ) compareAsOne(k *itemKind, from, to manifest.Item) {
	b, h := parseObject(from.Raw), parseObject(to.Raw)
	delete(b, k.Identity)
	delete(h, k.Identity)
	k.compare(d, to.ID, b, h)
}

// pairByName pairs each removed item not yet used with the first added
// item not yet used whose name has the same key, marks both used, and
// calls pair with their indexes, in the order of removed.
func pairByName(removed, added []manifest.Item, usedR, usedA []bool, key func(string) string, pair func(i, j int)) {
	byKey := map[string][]int{}
	for j, it := range added {
		if !usedA[j] {
			k := key(it.ID)
			byKey[k] = append(byKey[k], j)
		}
	}
	for i, it := range removed {
		if usedR[i] {
			continue
		}
		for _, j := range byKey[key(it.ID)] {
			if !usedA[j] {
				usedR[i], usedA[j] = true, true
				pair(i, j)
				break
			}
		}
	}
}

// normalName folds a name to its words, lower case, joined by '-': case
// and the separators '-', '_', '.', ' ', '/' and camelCase boundaries
// do not count (getTinyImage, get_tiny_image and Get.Tiny.Image are all
// get-tiny-image). A run of capitals is one word (getHTTPStatus is
// get-http-status).
func normalName(name string) string {
	rs := []rune(name)
	var b strings.Builder
	sep := false
	for i, r := range rs {
		if r == '-' || r == '_' || r == '.' || r == ' ' || r == '/' {
			sep = b.Len() > 0
			continue
		}
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				sep = b.Len() > 0
			}
		}
		if sep {
			b.WriteByte('-')
			sep = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func unused(items []manifest.Item, used []bool) []manifest.Item {
	var out []manifest.Item
	for i, it := range items {
		if !used[i] {
			out = append(out, it)
		}
	}
	return out
}

// toolShape is what rename detection compares.
type toolShape struct {
	name     string
	content  string          // canonical item without its name
	props    map[string]bool // property signatures of both schemas
	words    map[string]bool // description words
	evidence bool            // enough content to recognize the tool by
}

func shapeOf(it manifest.Item) toolShape {
	o := parseObject(it.Raw)
	delete(o, "name")
	s := toolShape{name: it.ID, content: string(encodeObject(o)), props: map[string]bool{}}
	for _, key := range []string{"inputSchema", "outputSchema"} {
		sch := o.obj(key)
		for name, v := range sch.obj("properties") {
			s.props[key+"."+name+"="+string(v)] = true
		}
		for _, r := range parseArray(sch.get("required")) {
			s.props[key+".required="+string(r)] = true
		}
	}
	desc, _ := o.str("description")
	s.words = words(desc)
	s.evidence = len(s.props) > 0 || len(s.words) > 0
	return s
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// similarity weighs schema properties, description words and the name.
// Each kind of evidence both tools have must agree on its own (at least
// 0.7), so that two different tools sharing a schema ("get_user" and
// "delete_user" taking an id) are not paired by the name and schema alone.
func similarity(a, b *toolShape) float64 {
	name := nameSimilarity(a.name, b.name)
	if len(a.words) > 0 && len(b.words) > 0 && jaccard(a.words, b.words) < 0.7 {
		return 0
	}
	if len(a.props) > 0 && len(b.props) > 0 && jaccard(a.props, b.props) < 0.7 {
		return 0
	}
	switch {
	case len(a.words) == 0 && len(b.words) == 0:
		if len(a.props) == 0 && len(b.props) == 0 {
			return 0
		}
		return 0.8*jaccard(a.props, b.props) + 0.2*name
	case len(a.props) == 0 && len(b.props) == 0:
		return 0.8*jaccard(a.words, b.words) + 0.2*name
	}
	return 0.5*jaccard(a.props, b.props) + 0.35*jaccard(a.words, b.words) + 0.15*name
}

// nameSimilarity is 1 - edit distance / length, on names folded like
// skeleton.
func nameSimilarity(a, b string) float64 {
	x, y := []rune(skeleton(a)), []rune(skeleton(b))
	n := max(len(x), len(y))
	if n == 0 {
		return 1
	}
	return 1 - float64(textdiff.Levenshtein(x, y))/float64(n)
}

// homoglyphs maps look-alike characters onto the ASCII letter they imitate.
var homoglyphs = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c',
	'т': 't', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ё': 'e',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x', 'ω': 'w',
	// digits and letters that pass for each other
	'0': 'o', '1': 'l', 'i': 'l', '|': 'l', '5': 's', '$': 's',
}

// skeleton folds a name for confusable comparison: lower case, look-alikes
// mapped, separators and invisible characters dropped.
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || textscan.Hidden(r) {
			continue
		}
		if m, ok := homoglyphs[r]; ok {
			r = m
		}
		b.WriteRune(r)
	}
	return b.String()
}

// promptRenames pairs a removed and an added prompt whose names are the
// same words in another case style, or with the same
// arguments (names and required flags) and the same or very similar
// description.
func (d *differ) promptRenames(k *itemKind, removed, added []manifest.Item) ([]manifest.Item, []manifest.Item) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added
	}
	type shape struct {
		args  string
		words map[string]bool
		nargs int
	}
	shapeOf := func(it manifest.Item) shape {
		o := parseObject(it.Raw)
		var sig []any
		args := parseArray(o.get("arguments"))
		for _, a := range args {
			ao := parseObject(a)
			n, _ := ao.str("name")
			r, _ := ao.flag("required")
			sig = append(sig, map[string]any{"name": n, "required": r})
		}
		desc, _ := o.str("description")
		return shape{args: string(canon(sig)), words: words(desc), nargs: len(args)}
	}
	usedR := make([]bool, len(removed))
	usedA := make([]bool, len(added))
	pairByName(removed, added, usedR, usedA, normalName, func(i, j int) {
		d.renamedStyle(k, rules.PromptRenamed, "prompts/get with the old name fails", removed[i], added[j])
	})
	if d.renameMin < 0 {
		return unused(removed, usedR), unused(added, usedA)
	}
	byArgs := map[string][]int{}
	as := make([]shape, len(added))
	for j, it := range added {
		as[j] = shapeOf(it)
		byArgs[as[j].args] = append(byArgs[as[j].args], j)
	}
	for i, it := range removed {
		if usedR[i] {
			continue
		}
		rs := shapeOf(it)
		best, bestScore := -1, 0.0
		for _, j := range byArgs[rs.args] {
			if usedA[j] {
				continue
			}
			score := 0.0
			switch {
			case len(rs.words) == 0 && len(as[j].words) == 0:
				if rs.nargs > 0 {
					score = 0.85
				}
			default:
				score = jaccard(rs.words, as[j].words)
			}
			if score >= d.renameMin && score > bestScore {
				best, bestScore = j, score
			}
		}
		if best >= 0 {
			usedR[i], usedA[best] = true, true
			d.emit(rules.PromptRenamed, subject(finding.KindPrompt, it.ID), "/name",
				fmt.Sprintf("prompt %s looks renamed to %s: prompts/get with the old name fails", quote(it.ID), quote(added[best].ID)),
				jsonString(it.ID), jsonString(added[best].ID))
			d.compareAsOne(k, it, added[best])
		}
	}
	return unused(removed, usedR), unused(added, usedA)
}

// uniqueByName pairs removed and added items that share a name that is
// unique on both sides and for which ok holds.
func uniqueByName(removed, added []manifest.Item, ok func(b, h object) bool) (pairs [][2]int) {
	count := func(items []manifest.Item) (map[string]int, []object) {
		n := map[string]int{}
		objs := make([]object, len(items))
		for i, it := range items {
			objs[i] = parseObject(it.Raw)
			name, _ := objs[i].str("name")
			n[name]++
		}
		return n, objs
	}
	rn, ro := count(removed)
	an, ao := count(added)
	idx := map[string]int{}
	for j := range added {
		name, _ := ao[j].str("name")
		idx[name] = j
	}
	for i := range removed {
		name, has := ro[i].str("name")
		if !has || rn[name] != 1 || an[name] != 1 {
			continue
		}
		j := idx[name]
		if ok == nil || ok(ro[i], ao[j]) {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	return pairs
}

// oneFindingPerRename drops the removal of a property that the comparison
// paired with an added one as a rename, and that addition: the rename
// finding says both, and one renamed property must read as one change,
// not as a rename, a removal and a new required property.
func oneFindingPerRename(cs []schemadiff.Change) []schemadiff.Change {
	type end struct{ base, head string }
	var renames []end
	for _, c := range cs {
		if c.Rule == rules.InputPropertyRenamed || c.Rule == rules.OutputPropertyRenamed {
			renames = append(renames, end{c.BasePointer, c.HeadPointer})
		}
	}
	if len(renames) == 0 {
		return cs
	}
	out := cs[:0:0]
	for _, c := range cs {
		half := false
		for _, r := range renames {
			removal := c.Before != nil && c.After == nil && c.BasePointer == r.base
			addition := c.Before == nil && c.After != nil && c.HeadPointer == r.head
			if (removal || addition) && c.Rule != rules.InputPropertyRenamed && c.Rule != rules.OutputPropertyRenamed {
				half = true
				break
			}
		}
		if !half {
			out = append(out, c)
		}
	}
	return out
}
