package schemadiff

import (
	"strings"
	"unicode"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// renames re-labels a removed and an added property as a rename. The pair's
// own findings stay, so their severity still applies.
//
// An equal schema alone is no evidence: two optional strings, or two
// booleans, share one in most tools, and a tool that drops one option and
// gains an unrelated one ("raw" gone, "fullPage" new) has not renamed
// anything. A pair is a rename when its schemas are equal and something
// else ties the two names together (see renameEvidence), and the match is
// unique both ways.
func (c *walker) renames(b, h *node, removed, added []named) {
	if len(removed) == 0 || len(added) == 0 {
		return
	}
	related := func(r, a named) bool {
		return renameEvidence(r, a, inSorted(b.required, r.name), inSorted(h.required, a.name)) && c.sh.eq(r.n, a.n)
	}
	for _, r := range removed {
		if trueish(r.n) {
			continue
		}
		k := -1
		for x, a := range added {
			if related(r, a) {
				if k >= 0 {
					k = -2
					break
				}
				k = x
			}
		}
		if k < 0 {
			continue
		}
		a := added[k]
		back := 0
		for _, o := range removed {
			if related(o, a) {
				back++
			}
		}
		if back != 1 {
			continue
		}
		c.emitNP(c.rule(rules.InputPropertyRenamed, rules.OutputPropertyRenamed), r.n.P(), a.n.P(), strValue(r.name), strValue(a.name),
			"property %q looks renamed to %q (same schema)", c.propPath(r.name), c.propPath(a.name))
	}
}

// renameEvidence: beside an equal schema, what makes a removed and an
// added property one renamed property:
//
//   - related names: the same words in another case style, most of their
//     words shared (path → file_path, not allowBackwardLinks →
//     allowSubdomains), or a small edit (recieve → receive);
//   - the same description, or one that keeps most of the shorter one's
//     words;
//   - both required: a call must have sent the old one and must send the
//     new one, which is what a renamed argument looks like.
//
// Two descriptions that share few words (under a third of the shorter
// one's) are evidence against, whatever the names.
func renameEvidence(r, a named, reqB, reqH bool) bool {
	dr, da := docText(r.n, "description"), docText(a.n, "description")
	if dr != "" && da != "" {
		if o := wordContainment(dr, da); o < 0.3 {
			return false
		} else if o >= 0.6 {
			return true
		}
	}
	return namesRelated(r.name, a.name) || (reqB && reqH)
}

// docText is a documentation keyword of the node as written (through its
// wrappers), "" when absent.
func docText(n *node, k string) string {
	n.d.res(n)
	for i, x := 0, n; x != nil && i < 64; i, x = i+1, x.aliasTo {
		if v := x.raw.get(k); v != nil && v.kind == vStr {
			return v.s
		}
	}
	return ""
}

// nameWords splits a property name into lower-case words at separators and
// camelCase boundaries.
func nameWords(s string) []string {
	var out []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
			(unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// namesRelated: two property names share at least half of their words
// (counted together), or are a small edit apart once case and separators
// are folded.
func namesRelated(x, y string) bool {
	wx, wy := nameWords(x), nameWords(y)
	if len(wx) > 0 && len(wy) > 0 && wordOverlap(strings.Join(wx, " "), strings.Join(wy, " ")) >= 0.5 {
		return true
	}
	fx, fy := []rune(strings.Join(wx, "")), []rune(strings.Join(wy, ""))
	n := max(len(fx), len(fy))
	if n == 0 || n > 256 {
		return false
	}
	d := textdiff.Levenshtein(fx, fy)
	return d <= 2 && float64(d) <= 0.34*float64(n)
}

// wordOverlap is the Jaccard index of two texts' word sets.
func wordOverlap(x, y string) float64 {
	a, b := wordSet(x), wordSet(y)
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := common(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// wordContainment is the share of the shorter text's words that the other
// text has too: a description that grew a sentence still keeps them all.
func wordContainment(x, y string) float64 {
	a, b := wordSet(x), wordSet(y)
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return float64(common(a, b)) / float64(min(len(a), len(b)))
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(m) < 512 {
			m[w] = true
		}
	}
	return m
}

func common(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}
