package witness

import (
	"encoding/json"
	"math/big"
	"slices"
	"strings"
)

// cand is a value to place at the change's instance location, or the
// property's absence there.
type cand struct {
	v      any
	absent bool
}

const maxCands = 600

// candidates lists values for the focus location, accepted (it is hoped)
// by the accepting side's subschemas a and told apart by the rejecting
// side's r: the minimal value first, then values at the bounds of both
// sides, the enum members, one value per type, objects with a property
// missing or extra, arrays at the old lengths, and values of two branches
// at once. The validator decides; the order only makes the usual witness
// the first one tried.
//
// Candidates are produced lazily: yield is called with each, and the
// search stops when it returns false (a witness was found, the budget
// ran out), so the expensive ones (long strings matching a pattern) are
// built only when the cheap ones failed.
//
// It reports whether every candidate was offered: false when yield
// stopped it or the maxCands bound did.
func (g *gen) candidates(a, r []sref, propFocus bool, yield func(cand) bool) bool {
	n := 0
	g.stopped = false
	add := func(v any, ok bool) {
		if !ok || g.stopped {
			return
		}
		n++
		if n > maxCands || !yield(cand{v: v}) {
			g.stopped = true
		}
	}
	if propFocus && !yield(cand{absent: true}) {
		return false
	}
	g.work = maxWork
	add(g.value(a, 0))
	g.work = maxWork
	add(g.value(append(slices.Clone(a), r...), 0))
	fa, _ := g.flat(a)
	fr, _ := g.flat(r)
	for _, t := range allowed(fa) {
		g.work = maxWork
		add(g.valueAs(a, t, 0))
	}
	for _, x := range members(fa) {
		add(x, true)
	}
	types := allowed(fa)
	if slices.Contains(types, "number") || slices.Contains(types, "integer") {
		g.numbers(a, fa, fr, add)
	}
	if slices.Contains(types, "string") {
		g.strings(a, fa, fr, add)
	}
	if slices.Contains(types, "object") {
		g.objects(a, fa, fr, add)
	}
	if slices.Contains(types, "array") {
		g.arrays(fa, fr, add)
	}
	g.branches(a, fa, fr, add)
	for _, x := range []any{nil, true, false, json.Number("0"), json.Number("1"), json.Number("-1"), json.Number("0.5"), "", "a", []any{}, map[string]any{}} {
		add(x, true)
	}
	return !g.stopped
}

func (g *gen) flat(nodes []sref) ([]sref, bool) {
	g.work = maxWork
	return g.expand(nodes, 0)
}

// members is every const and enum member of the conjunction, bounded.
func members(flat []sref) []any {
	var out []any
	for _, f := range flat {
		m := f.v.(map[string]any)
		if c, ok := m["const"]; ok {
			out = append(out, c)
		}
		if e, ok := m["enum"].([]any); ok {
			out = append(out, e[:min(len(e), 64)]...)
		}
	}
	return out
}

// numbers adds the bounds of both sides and their neighbours.
func (g *gen) numbers(a, fa, fr []sref, add func(any, bool)) {
	var pts []*big.Rat
	for _, f := range append(slices.Clone(fa), fr...) {
		m := f.v.(map[string]any)
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
			if r, ok := rat(m[k]); ok {
				pts = append(pts, r)
			}
		}
	}
	for _, p := range pts {
		for _, d := range []*big.Rat{big.NewRat(0, 1), big.NewRat(-1, 1), big.NewRat(1, 1), big.NewRat(-1, 2), big.NewRat(1, 2), big.NewRat(-1, 100), big.NewRat(1, 100)} {
			add(number(new(big.Rat).Add(p, d)), true)
		}
		for _, k := range []int64{2, 3, -1} {
			add(number(new(big.Rat).Mul(p, big.NewRat(k, 1))), true)
		}
		for _, integer := range []bool{true, false} {
			add(numberIn(fa, integer, p))
		}
	}
}

// strings adds strings at the length bounds of both sides, and strings
// the accepting patterns match and a rejecting one does not.
func (g *gen) strings(a, fa, fr []sref, add func(any, bool)) {
	var accPats []string
	for _, f := range fa {
		if p, ok := f.v.(map[string]any)["pattern"].(string); ok {
			accPats = append(accPats, p)
		}
	}
	lengths := []int{0, 1, 2}
	for _, f := range append(slices.Clone(fa), fr...) {
		m := f.v.(map[string]any)
		if n, ok := intKw(m, "minLength"); ok {
			lengths = append(lengths, n, n-1, n+1)
		}
		if n, ok := intKw(m, "maxLength"); ok {
			lengths = append(lengths, n, n-1, n+1)
		}
	}
	for _, n := range lengths {
		if n >= 0 && n <= maxString && !g.stopped {
			add(g.str(fa, n))
		}
	}
	var rejPats []string
	for _, f := range fr {
		if p, ok := f.v.(map[string]any)["pattern"].(string); ok && !slices.Contains(accPats, p) {
			rejPats = append(rejPats, p)
		}
	}
	lo, hi := lengthBounds(fa)
	var acc []*nfa
	for _, p := range accPats {
		n, ok := newNFA(p)
		if !ok {
			return
		}
		acc = append(acc, n)
	}
	for _, p := range rejPats {
		if g.stopped {
			return
		}
		n, ok := newNFA(p)
		if !ok {
			for _, s := range []string{"a", "A", "0", "a.a", "a-a", "a_a", "a a", "-", "_", ".", "aaaaaaaaaa", strings.Repeat("a", 100)} {
				add(s, true)
			}
			continue
		}
		limit := min(g.pwork, 20000)
		s, found, _, used := search(acc, []*nfa{n}, lo, hi, limit)
		g.pwork -= used
		if !found && used >= limit {
			g.exhausted = true
		}
		if found {
			add(s, true)
		}
	}
}

// objects adds the accepting side's minimal object with each declared
// property (of either side) set, with all of them, and with an extra one.
func (g *gen) objects(a, fa, fr []sref, add func(any, bool)) {
	g.work = maxWork
	base, ok := g.valueAs(a, "object", 0)
	obj, isObj := base.(map[string]any)
	if !ok || !isObj {
		return
	}
	names := declared(fa)
	for _, n := range declared(fr) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	full := clone(obj)
	for _, n := range names[:min(len(names), 32)] {
		g.work = maxWork
		v, ok := g.value(propNodes(fa, n), 1)
		if !ok {
			continue
		}
		o := clone(obj)
		o[n] = v
		full[n] = v
		add(o, true)
	}
	add(full, true)
	g.work = maxWork
	extra := freshName(append(slices.Clone(fa), fr...))
	v, ok := g.value(propNodes(fa, extra), 1)
	if !ok {
		v = ""
	}
	o := clone(obj)
	o[extra] = v
	add(o, true)
	// An extra property of each type: additionalProperties given a
	// schema rejects the values it does not describe.
	for _, x := range []any{nil, true, json.Number("1"), "a", []any{}, map[string]any{}} {
		if g.stopped {
			return
		}
		o := clone(obj)
		o[extra] = x
		add(o, true)
	}
}

// arrays adds arrays of the lengths either side bounds, and one with a
// repeated item.
func (g *gen) arrays(fa, fr []sref, add func(any, bool)) {
	lengths := []int{0, 1, 2}
	for _, f := range append(slices.Clone(fa), fr...) {
		m := f.v.(map[string]any)
		for _, k := range []string{"minItems", "maxItems", "minContains", "maxContains"} {
			if n, ok := intKw(m, k); ok {
				lengths = append(lengths, n, n-1, n+1)
			}
		}
	}
	for _, n := range lengths {
		if n >= 0 && n <= maxItems {
			g.work = maxWork
			add(g.array(fa, n, 0))
		}
	}
	g.work = maxWork
	if v, ok := g.value(g.itemNodes(fa, 0), 1); ok {
		add([]any{v, v}, true)
	}
}

// branches adds, for every anyOf/oneOf of either side at the focus, a
// value of each branch with the accepting side's constraints, and for
// every two branches of a oneOf a value of both at once (the overlap a
// oneOf rejects).
func (g *gen) branches(a, fa, fr []sref, add func(any, bool)) {
	for _, f := range append(slices.Clone(fa), fr...) {
		m := f.v.(map[string]any)
		for _, kw := range []string{"anyOf", "oneOf"} {
			bs, _ := m[kw].([]any)
			if len(bs) > 16 {
				bs = bs[:16]
			}
			for i, b := range bs {
				g.work = maxWork
				bi := f.child(b, "/"+kw+"/"+itoa(i))
				add(g.value(append(slices.Clone(a), bi), 0))
				g.work = maxWork
				add(g.value([]sref{bi}, 0))
				if kw != "oneOf" {
					continue
				}
				for j := i + 1; j < len(bs); j++ {
					g.work = maxWork
					bj := f.child(bs[j], "/"+kw+"/"+itoa(j))
					add(g.value(append(slices.Clone(a), bi, bj), 0))
					vi, ok1 := g.value([]sref{bi}, 0)
					vj, ok2 := g.value([]sref{bj}, 0)
					if oi, ok := vi.(map[string]any); ok && ok1 && ok2 {
						if oj, ok := vj.(map[string]any); ok {
							o := clone(oi)
							for k, v := range oj {
								o[k] = v
							}
							add(o, true)
						}
					}
				}
			}
		}
	}
}

func clone(m map[string]any) map[string]any {
	o := make(map[string]any, len(m))
	for k, v := range m {
		o[k] = v
	}
	return o
}

// build places a candidate at the end of a route, inside minimal values of
// every level above it. ctx, when not nil, is the rejecting side's route to
// the same instance location: the values around the candidate (the other
// members of each object, the other items of each array) are then built
// to satisfy both sides where they can, so that the rejection is the
// candidate's alone and not a sibling's that only the accepting side
// allows. Every call of one gen must pass the same route r.
func (g *gen) build(r route, ctx *route, c cand) (any, bool) {
	last := len(r.levels) - 1
	var rec func(k int) (any, bool)
	rec = func(k int) (any, bool) {
		if k == last {
			return c.v, true
		}
		child, ok := rec(k + 1)
		if !ok {
			return nil, false
		}
		v, ok := g.aroundAt(r, ctx, k)
		if !ok {
			return nil, false
		}
		switch s := r.levels[k+1].seg.(type) {
		case string:
			obj := clone(v.(map[string]any))
			if c.absent && k+1 == last {
				delete(obj, s)
			} else {
				obj[s] = child
			}
			return obj, true
		case int:
			arr := slices.Clone(v.([]any))
			for i, x := range arr {
				if x == (unbuilt{}) {
					arr[i] = child // an item that could not be built
				}
			}
			if s >= len(arr) {
				return nil, false
			}
			arr[s] = child
			return arr, true
		}
		return nil, false
	}
	if c.absent && last == 0 {
		return nil, false
	}
	return rec(0)
}

// unbuilt marks an item aroundAt could not build: build puts the
// candidate there.
type unbuilt struct{}

// aroundAt is the value at level k of route r that the candidate's level
// k+1 is placed in: an object (the member named by the next level is then
// set) or an array long enough to set the next level's index. It is built
// once per level and kind of context.
func (g *gen) aroundAt(r route, ctx *route, k int) (any, bool) {
	key := aroundKey{k, ctx != nil}
	if a, ok := g.around[key]; ok {
		return a.v, a.ok
	}
	lv := r.levels[k]
	nodes := lv.nodes
	if ctx != nil && k < len(ctx.levels) {
		nodes = append(slices.Clone(nodes), ctx.levels[k].nodes...)
	}
	var out aroundVal
	switch s := r.levels[k+1].seg.(type) {
	case string:
		g.work = maxWork
		v, ok := g.valueAs(nodes, "object", 0)
		if !ok && ctx != nil {
			g.work = maxWork
			v, _ = g.valueAs(lv.nodes, "object", 0)
		}
		obj, isObj := v.(map[string]any)
		if !isObj {
			obj = map[string]any{}
		}
		out = aroundVal{obj, true}
	case int:
		g.work = maxWork
		v, ok := g.valueAs(nodes, "array", 0)
		if !ok && ctx != nil {
			nodes = lv.nodes
			g.work = maxWork
			v, _ = g.valueAs(nodes, "array", 0)
		}
		arr, _ := v.([]any)
		arr = slices.Clone(arr)
		flat, _ := g.flat(nodes)
		for len(arr) <= s && len(arr) <= maxItems {
			g.work = maxWork
			item, ok := g.value(g.itemNodes(flat, len(arr)), 1)
			if !ok {
				item = unbuilt{}
			}
			arr = append(arr, item)
		}
		out = aroundVal{arr, true}
	}
	if g.around == nil {
		g.around = map[aroundKey]aroundVal{}
	}
	g.around[key] = out
	return out.v, out.ok
}
