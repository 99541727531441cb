package diff

import (
	"strings"
	"unicode"
)

// Bounds of a text diff, so that a rewritten 100 kB description does not
// flood a report.
const (
	maxTextDiff  = 4000 // bytes of output
	maxEditSteps = 4000 // Myers D; beyond it the middle is replaced wholesale
	wordContext  = 10   // tokens (words and spaces) kept around a word change
	lineContext  = 2    // lines kept around a line change
)

// TextDiff renders a compact diff of two texts: a word diff with
// [-removed-] and {+added+} markers when both are single lines, otherwise
// a line diff with "- " and "+ " prefixes and two lines of context. Hidden
// characters are made visible as <U+XXXX>. Empty when a == b.
func TextDiff(a, b string) string {
	if a == b {
		return ""
	}
	var out string
	if !strings.Contains(a, "\n") && !strings.Contains(b, "\n") {
		out = wordDiff(a, b)
	} else {
		out = lineDiff(a, b)
	}
	if len(out) > maxTextDiff {
		cut := maxTextDiff
		for cut > 0 && !isRuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "\n… (diff truncated)"
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

type edit struct {
	op  byte // ' ', '-', '+'
	tok string
}

// tokens splits text into words, runs of spaces and single other runes.
func tokens(s string) []string {
	var out []string
	start := -1
	class := 0
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

// wordDelta counts the words inserted and deleted between two texts.
func wordDelta(a, b string) (ins, del int) {
	for _, e := range diffTokens(tokens(a), tokens(b)) {
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

func wordDiff(a, b string) string {
	es := diffTokens(tokens(a), tokens(b))
	var sb strings.Builder
	for i := 0; i < len(es); {
		j := i
		for j < len(es) && es[j].op == es[i].op {
			j++
		}
		run := es[i:j]
		switch es[i].op {
		case ' ':
			toks := make([]string, len(run))
			for k, e := range run {
				toks[k] = e.tok
			}
			first, last := i == 0, j == len(es)
			switch {
			case first && len(toks) > wordContext:
				sb.WriteString("…" + strings.Join(toks[len(toks)-wordContext:], ""))
			case last && len(toks) > wordContext:
				sb.WriteString(strings.Join(toks[:wordContext], "") + "…")
			case !first && !last && len(toks) > 2*wordContext:
				sb.WriteString(strings.Join(toks[:wordContext], "") + " … " + strings.Join(toks[len(toks)-wordContext:], ""))
			default:
				sb.WriteString(strings.Join(toks, ""))
			}
		case '-':
			sb.WriteString("[-")
			for _, e := range run {
				sb.WriteString(e.tok)
			}
			sb.WriteString("-]")
		case '+':
			sb.WriteString("{+")
			for _, e := range run {
				sb.WriteString(e.tok)
			}
			sb.WriteString("+}")
		}
		i = j
	}
	return visible(sb.String())
}

func lineDiff(a, b string) string {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	es := diffTokens(split(a), split(b))
	keep := make([]bool, len(es))
	for i, e := range es {
		if e.op != ' ' {
			for k := max(0, i-lineContext); k <= min(len(es)-1, i+lineContext); k++ {
				keep[k] = true
			}
		}
	}
	var sb strings.Builder
	skipped := false
	for i, e := range es {
		if !keep[i] {
			skipped = true
			continue
		}
		if skipped && sb.Len() > 0 {
			sb.WriteString("…\n")
		}
		skipped = false
		switch e.op {
		case ' ':
			sb.WriteString("  ")
		case '-':
			sb.WriteString("- ")
		case '+':
			sb.WriteString("+ ")
		}
		sb.WriteString(visible(e.tok))
		sb.WriteByte('\n')
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// diffTokens is Myers' O(ND) difference algorithm on token slices, after
// trimming the common prefix and suffix. Past maxEditSteps the differing
// middle is reported as deleted then inserted.
func diffTokens(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for _, t := range a[:pre] {
		out = append(out, edit{' ', t})
	}
	out = append(out, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, t := range a[len(a)-suf:] {
		out = append(out, edit{' ', t})
	}
	return out
}

func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	replace := func() []edit {
		out := make([]edit, 0, n+m)
		for _, t := range a {
			out = append(out, edit{'-', t})
		}
		for _, t := range b {
			out = append(out, edit{'+', t})
		}
		return out
	}
	if n == 0 || m == 0 {
		return replace()
	}
	limit := min(n+m, maxEditSteps)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d][k+d] = furthest x on diagonal k after step d
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
			}
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if found < 0 {
		return replace()
	}
	var rev []edit
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		midX := px + 1 // after a deletion (a move right)
		if pk == k+1 {
			midX = px // after an insertion (a move down)
		}
		for x > midX {
			x--
			y--
			rev = append(rev, edit{' ', a[x]})
		}
		if pk == k+1 {
			rev = append(rev, edit{'+', b[py]})
		} else {
			rev = append(rev, edit{'-', a[px]})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{' ', a[x]})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
