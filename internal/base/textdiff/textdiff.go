// Package textdiff renders compact diffs of model-visible text (tool
// descriptions, titles, server instructions): a word diff for one-line
// texts, a line diff otherwise. Both are bounded in time and size, since a
// rewritten 100 kB description must neither flood a report nor cost
// quadratic time. The output is raw: callers escape it for where it goes.
package textdiff

import (
	"strings"
	"unicode"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
)

// Bounds of a text diff: a rewritten 100 kB description must not flood a
// report, nor cost quadratic time.
const (
	maxDiffCells   = 1 << 20 // tokens(a) × tokens(b) compared at most
	maxDiffOutput  = 4000    // bytes of diff kept
	wordDiffCtx    = 6       // unchanged tokens kept around a word change
	lineDiffCtx    = 2       // unchanged lines kept around a line change
	textDiffRunes  = 20000   // runes of each text compared at most
	textDiffMarker = "… (diff truncated)"
)

type edit struct {
	op  byte // ' ', '-', '+'
	tok string
}

// Diff is a compact, raw (unescaped) diff of two texts: a word diff
// with [-removed-] and {+added+} markers when both are single lines,
// otherwise a line diff with "- ", "+ " and "  " prefixes and "⋯" between
// distant hunks. Empty when a == b. Callers escape it (CodeBlock).
func Diff(a, b string) string {
	if a == b {
		return ""
	}
	a, b = truncate(a, textDiffRunes), truncate(b, textDiffRunes)
	var out string
	if !strings.Contains(a, "\n") && !strings.Contains(b, "\n") {
		out = wordDiff(a, b)
	} else {
		out = lineDiff(a, b)
	}
	return textscan.Clip(out, maxDiffOutput, "\n"+textDiffMarker)
}

// IsLineDiff reports whether Diff(a, b) is a line diff (for choosing
// the code block's language).
func IsLineDiff(a, b string) bool {
	return strings.Contains(a, "\n") || strings.Contains(b, "\n")
}

func wordDiff(a, b string) string {
	es := diffTokens(wordTokens(a), wordTokens(b))
	var sb strings.Builder
	flush := func(op byte, toks []string) {
		if len(toks) == 0 {
			return
		}
		s := strings.Join(toks, "")
		switch op {
		case '-':
			sb.WriteString("[-" + s + "-]")
		case '+':
			sb.WriteString("{+" + s + "+}")
		}
	}
	for i := 0; i < len(es); {
		if es[i].op == ' ' {
			j := i
			for j < len(es) && es[j].op == ' ' {
				j++
			}
			run := tokensOf(es[i:j])
			first, last := i == 0, j == len(es)
			switch {
			case first && len(run) > wordDiffCtx:
				sb.WriteString("…" + strings.Join(run[len(run)-wordDiffCtx:], ""))
			case last && len(run) > wordDiffCtx:
				sb.WriteString(strings.Join(run[:wordDiffCtx], "") + "…")
			case !first && !last && len(run) > 2*wordDiffCtx:
				sb.WriteString(strings.Join(run[:wordDiffCtx], "") + " … " + strings.Join(run[len(run)-wordDiffCtx:], ""))
			default:
				sb.WriteString(strings.Join(run, ""))
			}
			i = j
			continue
		}
		var del, ins []string
		for i < len(es) && es[i].op != ' ' {
			if es[i].op == '-' {
				del = append(del, es[i].tok)
			} else {
				ins = append(ins, es[i].tok)
			}
			i++
		}
		flush('-', del)
		flush('+', ins)
	}
	return sb.String()
}

func tokensOf(es []edit) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.tok
	}
	return out
}

func lineDiff(a, b string) string {
	es := diffTokens(strings.Split(a, "\n"), strings.Split(b, "\n"))
	keep := make([]bool, len(es))
	for i, e := range es {
		if e.op == ' ' {
			continue
		}
		for j := max(0, i-lineDiffCtx); j <= min(len(es)-1, i+lineDiffCtx); j++ {
			keep[j] = true
		}
	}
	var lines []string
	skipped := false
	for i, e := range es {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped && len(lines) > 0 {
			lines = append(lines, "⋯")
		}
		skipped = false
		lines = append(lines, string(e.op)+" "+e.tok)
	}
	return strings.Join(lines, "\n")
}

// wordTokens splits text into words, runs of spaces and single other
// characters, so that the diff aligns on words.
func wordTokens(s string) []string {
	var out []string
	start, class := -1, 0
	classOf := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 3
	}
	for i, r := range s {
		c := classOf(r)
		if start >= 0 && (c != class || c == 3) {
			out = append(out, s[start:i])
			start = -1
		}
		if start < 0 {
			start, class = i, c
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// diffTokens is a longest-common-subsequence diff after trimming the
// common prefix and suffix; when the middle is too large to compare it is
// reported as replaced wholesale.
func diffTokens(a, b []string) []edit {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var out []edit
	for _, t := range a[:p] {
		out = append(out, edit{' ', t})
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma)*len(mb) > maxDiffCells {
		for _, t := range ma {
			out = append(out, edit{'-', t})
		}
		for _, t := range mb {
			out = append(out, edit{'+', t})
		}
	} else {
		out = append(out, lcs(ma, mb)...)
	}
	for _, t := range a[len(a)-s:] {
		out = append(out, edit{' ', t})
	}
	return out
}

func lcs(a, b []string) []edit {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []edit
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, edit{' ', a[i]})
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			out = append(out, edit{'-', a[i]})
			i++
		default:
			out = append(out, edit{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, edit{'-', a[i]})
	}
	for ; j < m; j++ {
		out = append(out, edit{'+', b[j]})
	}
	return out
}

// truncateMark ends a text cut by truncate.
const truncateMark = "…"

// truncate bounds s to max runes.
func truncate(s string, max int) string { return textscan.Truncate(s, max, truncateMark) }

// WordDelta counts the words inserted and deleted between two texts.
func WordDelta(a, b string) (ins, del int) {
	a, b = truncate(a, textDiffRunes), truncate(b, textDiffRunes)
	for _, e := range diffTokens(wordTokens(a), wordTokens(b)) {
		if strings.TrimSpace(e.tok) == "" {
			continue
		}
		switch e.op {
		case '+':
			ins++
		case '-':
			del++
		}
	}
	return ins, del
}

// Levenshtein is the edit distance between two rune sequences (insert,
// delete, substitute), in O(len(b)) memory.
func Levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
