package witness

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PatternDifference searches for the shortest string that the ECMA-262
// pattern accepting matches and rejecting does not (both unanchored, as
// JSON Schema reads them). found says s is such a string; proven says no
// such string exists (every string accepting matches, rejecting matches
// too). Neither is set when a pattern is outside the subset both engines
// agree on or the search tried limit transitions without an answer.
//
// The search is breadth first over pairs of NFA state sets of the two
// compiled patterns, with the alphabet split into the rune ranges their
// classes induce, so one representative per range stands for all of it
// and an exhausted search is a proof.
func PatternDifference(accepting, rejecting string, limit int) (s string, found, proven bool) {
	a, okA := newNFA(accepting)
	r, okR := newNFA(rejecting)
	if !okA || !okR {
		return "", false, false
	}
	s, found, proven, _ = search([]*nfa{a}, []*nfa{r}, 0, -1, limit)
	return s, found, proven
}

// patternString is the shortest string of at least minLen (and at most
// maxLen, when not negative) runes that every pattern matches.
func patternString(patterns []string, minLen, maxLen, limit int) (string, bool, int) {
	var ns []*nfa
	for _, p := range patterns {
		n, ok := newNFA(p)
		if !ok {
			return "", false, 0
		}
		ns = append(ns, n)
	}
	s, found, _, used := search(ns, nil, minLen, maxLen, limit)
	return s, found, used
}

// nfa is a compiled pattern, simulated as sets of program counters.
type nfa struct {
	prog *syntax.Prog
}

func newNFA(p string) (*nfa, bool) {
	s, ok := toRE2(p)
	if !ok {
		return nil, false
	}
	re, err := syntax.Parse(s, syntax.Perl)
	if err != nil {
		return nil, false
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil || len(prog.Inst) > 1000 {
		return nil, false
	}
	for _, in := range prog.Inst {
		if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
			return nil, false // word boundaries and line anchors: not modelled
		}
		if (in.Op == syntax.InstRune || in.Op == syntax.InstRune1) && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			return nil, false
		}
	}
	return &nfa{prog: prog}, true
}

// closure adds the states reachable from pcs without reading a rune; at
// says whether the text starts (begin) or ends (end) here. It reports
// whether the match state is reachable.
func (n *nfa) closure(pcs []uint32, begin, end bool) ([]uint32, bool) {
	seen := map[uint32]bool{}
	stack := slices.Clone(pcs)
	var out []uint32
	matched := false
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		in := &n.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			op := syntax.EmptyOp(in.Arg)
			if (op&syntax.EmptyBeginText == 0 || begin) && (op&syntax.EmptyEndText == 0 || end) {
				stack = append(stack, in.Out)
			} else {
				out = append(out, pc) // kept: it may hold where the text ends
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstFail:
		default:
			out = append(out, pc)
		}
	}
	slices.Sort(out)
	return out, matched
}

// step is the set after reading r from pcs (before closure).
func (n *nfa) step(pcs []uint32, r rune) []uint32 {
	var out []uint32
	for _, pc := range pcs {
		in := &n.prog.Inst[pc]
		ok := false
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1:
			ok = in.MatchRune(r)
		case syntax.InstRuneAny:
			ok = true
		case syntax.InstRuneAnyNotNL:
			ok = r != '\n'
		}
		if ok {
			out = append(out, in.Out)
		}
	}
	return out
}

// ranges adds the boundaries of every rune range n tests to cuts.
func (n *nfa) ranges(cuts map[rune]bool) {
	for _, in := range n.prog.Inst {
		switch in.Op {
		case syntax.InstRune1:
			cuts[in.Rune[0]], cuts[in.Rune[0]+1] = true, true
		case syntax.InstRune:
			for i := 0; i+1 < len(in.Rune); i += 2 {
				cuts[in.Rune[i]], cuts[in.Rune[i+1]+1] = true, true
			}
		case syntax.InstRuneAnyNotNL:
			cuts['\n'], cuts['\n'+1] = true, true
		}
	}
}

// alphabet is one representative rune per range of runes every automaton
// treats alike, the most readable first.
func alphabet(ns []*nfa) []rune {
	cuts := map[rune]bool{0: true, utf8.MaxRune + 1: true, 0xD800: true, 0xE000: true}
	for _, n := range ns {
		n.ranges(cuts)
	}
	bounds := make([]rune, 0, len(cuts))
	for c := range cuts {
		bounds = append(bounds, c)
	}
	slices.Sort(bounds)
	var reps []rune
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]-1
		if lo >= 0xD800 && hi <= 0xDFFF {
			continue
		}
		reps = append(reps, representative(lo, hi))
	}
	slices.SortStableFunc(reps, func(a, b rune) int { return readability(a) - readability(b) })
	return reps
}

// representative picks the most readable rune of [lo, hi].
func representative(lo, hi rune) rune {
	for _, r := range []rune{'a', 'x', 'A', '0', '_', '-', '.', ' '} {
		if lo <= r && r <= hi {
			return r
		}
	}
	for _, span := range [][2]rune{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'!', '~'}} {
		if l, h := max(lo, span[0]), min(hi, span[1]); l <= h {
			return l
		}
	}
	return lo
}

func readability(r rune) int {
	switch {
	case r >= 'a' && r <= 'z':
		return 0
	case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		return 1
	case r > ' ' && r <= '~':
		return 2
	case r == ' ':
		return 3
	case r < 0x80:
		return 5
	}
	return 4
}

// node is one state of the product search: per automaton its state set
// and whether it has already matched (a match anywhere is a match of the
// whole string, and stays one whatever follows).
type node struct {
	sets    [][]uint32
	matched []bool
	prev    *node // the text is prev's text and r
	r       rune
	n       int // text length in runes
}

func (nd *node) text() string {
	rs := make([]rune, nd.n)
	for c := nd; c != nil && c.n > 0; c = c.prev {
		rs[c.n-1] = c.r
	}
	return string(rs)
}

func (nd *node) key() string {
	var b strings.Builder
	for i, s := range nd.sets {
		if nd.matched[i] {
			b.WriteString("M")
		}
		for _, pc := range s {
			b.WriteString(strconv.FormatUint(uint64(pc), 36))
			b.WriteByte(',')
		}
		b.WriteByte('|')
	}
	return b.String()
}

// search is the breadth-first product search: the shortest string of at
// least minLen runes (at most maxLen when not negative) that every
// automaton of acc matches and none of rej does. proven reports an
// exhausted search (no such string; only meaningful with minLen 0 and no
// maxLen, where the state key says everything about the future). used is
// the transitions tried.
func search(acc, rej []*nfa, minLen, maxLen, limit int) (s string, found, proven bool, used int) {
	all := append(slices.Clone(acc), rej...)
	sigma := alphabet(all)
	complete := true
	if len(sigma) > maxAlphabet {
		// Too many classes to try each: the most readable ones can still
		// find a string, but an exhausted search proves nothing.
		sigma, complete = sigma[:maxAlphabet], false
	}
	start := &node{sets: make([][]uint32, len(all)), matched: make([]bool, len(all))}
	for i, n := range all {
		start.sets[i], start.matched[i] = n.closure([]uint32{uint32(n.prog.Start)}, true, false)
	}
	queue := []*node{start}
	seen := map[string]bool{lenKey(start, minLen, maxLen): true}
	for explored := 0; len(queue) > 0; explored += len(sigma) {
		if explored >= limit {
			return "", false, false, explored
		}
		cur := queue[0]
		queue = queue[1:]
		if cur.n >= minLen && accepts(all, len(acc), cur) {
			return cur.text(), true, false, explored
		}
		if maxLen >= 0 && cur.n >= maxLen || dead(all, len(acc), cur) {
			continue
		}
		for _, r := range sigma {
			next := &node{sets: make([][]uint32, len(all)), matched: slices.Clone(cur.matched), prev: cur, r: r, n: cur.n + 1}
			for i, n := range all {
				st := n.step(cur.sets[i], r)
				st = append(st, uint32(n.prog.Start)) // unanchored: a match may start anywhere
				var m bool
				next.sets[i], m = n.closure(st, false, false)
				next.matched[i] = next.matched[i] || m
			}
			if k := lenKey(next, minLen, maxLen); !seen[k] {
				if len(seen) >= 4*limit {
					complete = false // memory is bounded too
					continue
				}
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return "", false, complete && minLen == 0 && maxLen < 0, limit
}

// maxAlphabet bounds the runes tried at each step of a search.
const maxAlphabet = 256

// lenKey is the state key of a node plus what its length still decides:
// whether minLen is reached, and how much room is left under maxLen.
func lenKey(nd *node, minLen, maxLen int) string {
	k := nd.key() + "#" + strconv.Itoa(min(nd.n, minLen))
	if maxLen >= 0 {
		k += "#" + strconv.Itoa(nd.n)
	}
	return k
}

// accepts reports whether the text so far, ended here, is matched by the
// first nAcc automata and by none of the rest.
func accepts(all []*nfa, nAcc int, nd *node) bool {
	for i, n := range all {
		m := nd.matched[i]
		if !m {
			_, m = n.closure(nd.sets[i], nd.n == 0, true)
		}
		if m != (i < nAcc) {
			return false
		}
	}
	return true
}

// dead reports that no extension can succeed: a rejecting automaton has
// matched already.
func dead(all []*nfa, nAcc int, nd *node) bool {
	for i := nAcc; i < len(all); i++ {
		if nd.matched[i] {
			return true
		}
	}
	return false
}
