package schemadiff

import (
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Unions written another way. Three rewrites that schema generators make
// between versions accept the same values:
//
//   - an anyOf branch that is itself an anyOf, or a oneOf whose branches are
//     provably disjoint, is its branches written in place ({anyOf: [{$ref:
//     X}, {type: string}]} where X is a oneOf of objects); finish flattens
//     it while normalising;
//   - a union of value lists ({anyOf: [{const: a}, {const: b}]}) is the
//     enum of their values (enum [a, b]);
//   - a union of objects that differ only in the values one property lists
//     ({oneOf: [{kind: {const: web}, ...}, {kind: {const: news}, ...}]}) is
//     one object whose property lists every value.
//
// The last two are used where a union meets a schema that is not one
// (foldPair): against another union the branches pair one by one, which
// says more ("oneOf branch 2 removed"). For oneOf they need the values to be
// disjoint (a value listed by two branches matches both and is rejected)
// and, for objects, the property to be required (an object without it
// matches every branch).

// maxFoldBranches bounds the unions these rewrites look at.
const maxFoldBranches = 64

// foldPair replaces the side of a pair that is a pure union by its
// single-schema form when the other side is not a union and the union has
// one.
func foldPair(b, h *node) (*node, *node) {
	if b == nil || h == nil {
		return b, h
	}
	bu, hu := pureUnion(b) != "", pureUnion(h) != ""
	switch {
	case bu && !hu:
		return b.d.folded(b), h
	case hu && !bu:
		return b, h.d.folded(h)
	}
	return b, h
}

// folded returns the single schema that accepts what resolved pure union
// n accepts, or n when there is none.
func (d *doc) folded(n *node) *node {
	if n.foldDone {
		return n.folded
	}
	n.foldDone, n.folded = true, n
	kind := pureUnion(n)
	list := compList(n, kind)
	if kind == "" || n.orNull || len(list) < 2 || len(list) > maxFoldBranches {
		return n
	}
	if v := d.foldValueUnion(n, list, kind); v != nil {
		n.folded = v
	} else if m := d.mergeObjectBranches(n, kind, list); m != nil {
		n.folded = m
	}
	return n.folded
}

// flattenAnyOf writes in place the branches of an anyOf branch that is a
// pure anyOf, or a pure oneOf over provably disjoint branches.
func (d *doc) flattenAnyOf(list []*node) []*node {
	var out []*node
	for i, br := range list {
		r := d.res(br)
		inner := ""
		if r != nil && !r.orNull && r.opaque == "" && !r.isFalse {
			inner = pureUnion(r)
		}
		if inner == "oneOf" && !pairwiseDisjoint(r.oneOf, typeMask(r)) {
			inner = ""
		}
		if inner == "" {
			if out != nil {
				out = append(out, br)
			}
			continue
		}
		sub := compList(r, inner)
		if len(list)+len(sub) > maxFoldBranches {
			return list
		}
		if out == nil {
			out = append(make([]*node, 0, len(list)+len(sub)), list[:i]...)
		}
		out = append(out, sub...)
	}
	if out == nil {
		return list
	}
	return out
}

// valueEntry is one allowed value: its canonical text and the value.
type valueEntry struct {
	k string
	v *value
}

// branchValues returns the values a branch accepts when it says nothing
// but const/enum (and a type, which filters them); ok is false otherwise.
func branchValues(r *node) (vals []valueEntry, types uint8, typed, ok bool) {
	if r == nil || !r.hasVals || r.orNull || len(r.allOf)+len(r.anyOf)+len(r.oneOf) > 0 {
		return nil, 0, false, false
	}
	saveT, saveV := r.hasType, r.hasVals
	r.hasType, r.hasVals = false, false
	other := r.hasOwnAssertions()
	r.hasType, r.hasVals = saveT, saveV
	if other {
		return nil, 0, false, false
	}
	for i, v := range r.valVals {
		if !r.hasType || valueType(v)&r.types != 0 {
			vals = append(vals, valueEntry{r.vals[i], v})
		}
	}
	return vals, r.types, r.hasType, true
}

// unionValues merges the value lists of the branches; ok is false when a
// branch is not a value list, or (oneOf) two branches share a value.
func (d *doc) unionValues(list []*node, one bool) (all []valueEntry, types uint8, typed, ok bool) {
	typed = true
	for _, br := range list {
		vals, t, ty, ok := branchValues(d.res(br))
		if !ok {
			return nil, 0, false, false
		}
		all = append(all, vals...)
		types |= t
		typed = typed && ty
	}
	slices.SortFunc(all, func(a, b valueEntry) int { return strings.Compare(a.k, b.k) })
	n := len(all)
	all = slices.CompactFunc(all, func(a, b valueEntry) bool { return a.k == b.k })
	if one && len(all) != n {
		return nil, 0, false, false
	}
	return all, types, typed, true
}

// setValues makes vals n's allowed values, listed by the branches from.
func (n *node) setValues(all []valueEntry, from []*node) {
	n.hasVals, n.hasEnum, n.hasConst, n.constV = true, true, false, nil
	n.vals = make([]string, len(all))
	n.valVals = make([]*value, len(all))
	for i, e := range all {
		n.vals[i], n.valVals[i] = e.k, e.v
	}
	n.enumV = &value{kind: vArr, arr: n.valVals}
	n.valsFrom = from
}

// foldValueUnion is the enum a union of value lists accepts, nil when the
// branches are not all value lists.
func (d *doc) foldValueUnion(n *node, list []*node, kind string) *node {
	all, types, typed, ok := d.unionValues(list, kind == "oneOf")
	if !ok {
		return nil
	}
	from := make([]*node, len(list))
	for i, br := range list {
		from[i] = d.res(br)
	}
	v := virtualCopy(n)
	v.anyOf, v.oneOf, v.rawKw = nil, nil, nil
	v.setValues(all, from)
	v.setRawKw("enum", n.kw(kind))
	v.valsAt = listPtr(n, kind)
	if typed {
		v.hasType, v.types, v.typeRaw = true, types, n.raw.get(n.kw(kind))
		v.setRawKw("type", n.kw(kind))
	}
	return v
}

// mergeObjectBranches returns the one object that a union of objects,
// the same but for the values one property lists, accepts; nil when the
// branches are not of that shape.
func (d *doc) mergeObjectBranches(n *node, kind string, list []*node) *node {
	one := kind == "oneOf"
	rs := make([]*node, len(list))
	for i, br := range list {
		r := d.res(br)
		if r == nil || r.opaque != "" || r.isFalse || r.orNull || r.raw == nil || r.raw.kind != vObj ||
			!r.hasType || r.types != tObj || r.hasVals || len(r.allOf)+len(r.anyOf)+len(r.oneOf) > 0 {
			return nil
		}
		rs[i] = r
	}
	key := ""
	for _, r := range rs[1:] {
		k, ok := onePropertyApart(rs[0].raw, r.raw)
		if !ok || (key != "" && k != key) {
			return nil
		}
		key = k
	}
	if key == "" {
		return nil
	}
	if one && !inSorted(rs[0].required, key) {
		return nil
	}
	props := make([]*node, len(rs))
	for i, r := range rs {
		if props[i] = findNamed(r.props, key); props[i] == nil {
			return nil
		}
		props[i] = d.res(props[i])
	}
	all, types, typed, ok := d.unionValues(props, one)
	if !ok {
		return nil
	}
	p := virtualCopy(props[0])
	p.setValues(all, props)
	p.hasType, p.types = typed, types
	if !typed {
		p.typeRaw = nil
	}
	p.raw = withMember(withoutMember(props[0].raw, "const"), "enum", p.enumV)
	p.valsAt = listPtr(n, kind)
	// The merged object stands where the union stood: its own keywords
	// are reported there; its properties keep their places in branch 0,
	// and each value the branch that lists it.
	m := virtualCopy(rs[0])
	m.pn, m.pp, m.ptrS, m.ptrOK = 0, nil, n.P(), true
	m.props = slices.Clone(m.props)
	for i := range m.props {
		if m.props[i].name == key {
			m.props[i].n = p
		}
	}
	m.raw = withMember(rs[0].raw, "properties", withMember(rs[0].raw.get("properties"), key, p.raw))
	return m
}

// onePropertyApart: two raw object schemas are the same but for the
// schema of one property (named by k); "" and true when they are equal.
func onePropertyApart(a, b *value) (string, bool) {
	x, y := a.members(), b.members()
	if len(x) != len(y) {
		return "", false
	}
	for i := range x {
		if x[i].k != y[i].k || (x[i].k != "properties" && !rawEqual(x[i].v, y[i].v)) {
			return "", false
		}
	}
	pa, pb := a.get("properties"), b.get("properties")
	if pa == nil || pb == nil || pa.kind != vObj || pb.kind != vObj {
		return "", pa == nil && pb == nil
	}
	px, py := pa.members(), pb.members()
	if len(px) != len(py) {
		return "", false
	}
	key := ""
	for i := range px {
		if px[i].k != py[i].k {
			return "", false
		}
		if !rawEqual(px[i].v, py[i].v) {
			if key != "" {
				return "", false
			}
			key = px[i].k
		}
	}
	return key, true
}

// virtualCopy is a resolved copy of resolved node r, with its own keywords,
// for a normalised form that no raw location holds.
func virtualCopy(r *node) *node {
	cp := new(node)
	*cp = *r
	k := *r.keywords
	cp.keywords = &k
	cp.res, cp.resState = cp, resDone
	cp.folded, cp.foldDone = nil, false
	return cp
}

// withMember is a copy of raw object v with member k set to x.
func withMember(v *value, k string, x *value) *value {
	var ms []member
	if v != nil && v.kind == vObj {
		ms = slices.Clone(v.members())
	}
	i, found := slices.BinarySearchFunc(ms, k, func(m member, k string) int { return strings.Compare(m.k, k) })
	if found {
		ms[i].v = x
	} else {
		ms = slices.Insert(ms, i, member{k, x})
	}
	return &value{kind: vObj, obj: ms}
}

// withoutMember is a copy of raw object v without member k.
func withoutMember(v *value, k string) *value {
	ms := slices.DeleteFunc(slices.Clone(v.members()), func(m member) bool { return m.k == k })
	return &value{kind: vObj, obj: ms}
}

// unionWrapped handles a union placed, whole, as one branch of an anyOf
// ({oneOf: [A, B]} → {anyOf: [{oneOf: [A, B]}, {type: string}]}) where
// its branches cannot be written in place (a oneOf whose branches may
// overlap): the anyOf's other branches are what was added, or, the other
// way round, removed. Reports true when it judged the pair.
func (c *walker) unionWrapped(b, h *node) bool {
	if b.orNull || h.orNull || pureUnion(b) == "" || pureUnion(h) == "" {
		return false
	}
	if pureUnion(h) == "anyOf" && len(h.anyOf) <= maxFoldBranches {
		for j, br := range h.anyOf {
			if c.sh.eq(b, br) {
				for k := range h.anyOf {
					if k != j {
						x := h.anyOf[k]
						if c.dir == Output && c.subset(x, b) {
							c.emit(rules.OutputSchemaEquivalentRewrite, b.P(), x.entryP(), nil, x.raw, "anyOf branch %d added; the %s beside it already allowed all its values", branchNo(x, k), pureUnion(b))
							continue
						}
						c.emit(c.rule(rules.InputAnyOfBranchAdded, rules.OutputAnyOfBranchAdded), b.P(), x.entryP(), nil, x.raw,
							"%s now stands as anyOf branch %d; anyOf branch %d added", pureUnion(b), branchNo(br, j), branchNo(x, k))
					}
				}
				return true
			}
		}
	}
	if pureUnion(b) == "anyOf" && len(b.anyOf) <= maxFoldBranches {
		for i, br := range b.anyOf {
			if c.sh.eq(br, h) {
				for k := range b.anyOf {
					if k != i {
						x := b.anyOf[k]
						if c.dir == Input && c.subset(x, h) {
							c.emit(rules.InputSchemaEquivalentRewrite, x.entryP(), h.P(), x.raw, nil, "anyOf branch %d removed; the %s left still accepts all its values", branchNo(x, k), pureUnion(h))
							continue
						}
						c.emit(c.rule(rules.InputAnyOfBranchRemoved, rules.OutputAnyOfBranchRemoved), x.entryP(), h.P(), x.raw, nil,
							"anyOf branch %d removed; its branch %d, a %s, now stands alone", branchNo(x, k), branchNo(br, i), pureUnion(h))
					}
				}
				return true
			}
		}
	}
	return false
}
