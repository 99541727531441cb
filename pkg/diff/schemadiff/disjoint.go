package schemadiff

import (
	"strconv"
	"strings"
)

// Disjointness: proofs that no value matches two composition branches, which
// make oneOf behave like anyOf.

// disjointFromOthers: no value of the types ctx allows (the types of the
// node holding the list) matches both l[k] and another member of l.
// overlapping names the members of l, other than l[k], that are not
// provably disjoint from it ("branch 0", "branches 0 and 2"), "" if none.
func overlapping(l []*node, k int, ctx uint8) string {
	var idx []string
	for i := range l {
		if i != k && !disjoint(l[i], l[k], ctx, 0) {
			idx = append(idx, strconv.Itoa(branchNo(l[i], i)))
		}
	}
	switch len(idx) {
	case 0:
		return ""
	case 1:
		return "branch " + idx[0]
	}
	return "branches " + strings.Join(idx[:len(idx)-1], ", ") + " and " + idx[len(idx)-1]
}

func disjointFromOthers(l []*node, k int, ctx uint8) bool {
	for i := range l {
		if i != k && !disjoint(l[i], l[k], ctx, 0) {
			return false
		}
	}
	return true
}

// disjoint proves that no value of the types ctx allows satisfies both
// schemas: no common type, disjoint enum/const sets, a property both
// require with disjoint schemas (a discriminator), or a property one
// requires and the other forbids (false, or a closed object without it).
// ctx is the type mask of the node holding the branches (tAll when it names
// no type): {required: [kind]} says nothing about a string, so the
// property tests only prove disjointness where the common types are
// objects alone.
func disjoint(a, b *node, ctx uint8, depth int) bool {
	a, b = a.d.res(a), b.d.res(b)
	if a == nil || b == nil {
		return false
	}
	if a.isFalse || b.isFalse {
		return true
	}
	if a.opaque != "" || b.opaque != "" {
		return false
	}
	// A folded null branch is accepted beside the enum and the properties
	// the tests below look at.
	if ctx&tNull != 0 && (a.orNull || b.orNull) && acceptsNullDeep(a, 0) && acceptsNullDeep(b, 0) {
		return false
	}
	ta, tb := effTypes(a, 0), effTypes(b, 0)
	common := ta & tb & ctx
	if common == 0 {
		return true
	}
	if a.hasVals && b.hasVals && !sharesValue(a, b, common) {
		return true
	}
	if a.hasVals && valsOutside(a, tb&ctx) || b.hasVals && valsOutside(b, ta&ctx) {
		return true
	}
	if common&^tNumber == 0 && (rangeBelow(a, b) || rangeBelow(b, a)) {
		return true
	}
	if common&^tStr == 0 && (lenBelow(a.maxLength, b.minLength) || lenBelow(b.maxLength, a.minLength)) {
		return true
	}
	if common&^tArr == 0 && (lenBelow(a.maxItems, b.minItems) || lenBelow(b.maxItems, a.minItems)) {
		return true
	}
	if depth >= 4 {
		return false
	}
	if disjointParts(a, b, common, depth) || disjointParts(b, a, common, depth) {
		return true
	}
	if common&^tObj != 0 {
		return false
	}
	for _, p := range a.required {
		if inSorted(b.required, p) {
			pa, pb := findNamed(a.props, p), findNamed(b.props, p)
			if pa != nil && pb != nil && disjoint(pa, pb, tAll, depth+1) {
				return true
			}
		}
		if forbids(b, p) {
			return true
		}
	}
	for _, p := range b.required {
		if forbids(a, p) {
			return true
		}
	}
	return false
}

// effTypes is typeMask narrowed by the types of n's allOf members: a
// branch written as allOf [$ref Base, {...}] is an object when Base is.
func effTypes(n *node, depth int) uint8 {
	t := tAll
	if n.hasType {
		t = n.types
	}
	if depth < 4 {
		for _, m := range effList(n.allOf) {
			if r := m.d.res(m); r != nil && r.opaque == "" && !r.isFalse {
				t &= effTypes(r, depth+1)
			}
		}
	}
	if n.orNull {
		t |= tNull
	}
	return t
}

// disjointParts: a's compositions keep it apart from b. A value of a
// satisfies every allOf member and some anyOf/oneOf branch, so one allOf
// member disjoint from b, or every branch of a union disjoint from b, is
// enough. ctx is the types both accept. Not for null where a null branch
// was folded into a: that null is accepted beside the compositions.
func disjointParts(a, b *node, ctx uint8, depth int) bool {
	if a.orNull && ctx&tNull != 0 {
		return false
	}
	for _, m := range effList(a.allOf) {
		if disjoint(m, b, ctx, depth+1) {
			return true
		}
	}
	for _, l := range [][]*node{a.anyOf, a.oneOf} {
		if len(l) == 0 {
			continue
		}
		all := true
		for _, m := range l {
			if !disjoint(m, b, ctx, depth+1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// rangeBelow: every number a accepts is below every number b accepts (a's
// upper bound under b's lower one, or equal with either exclusive).
func rangeBelow(a, b *node) bool {
	hi, hiExcl := tighterBound(a.maximum, a.exclMax, 1)
	lo, loExcl := tighterBound(b.minimum, b.exclMin, -1)
	if hi == "" || lo == "" {
		return false
	}
	c := numCmp(hi, lo)
	return c < 0 || c == 0 && (hiExcl || loExcl)
}

// tighterBound is the tighter of an inclusive and an exclusive bound: the lower of
// the two for an upper bound (dir 1), the higher for a lower one (dir -1).
// "" when neither is set.
func tighterBound(incl, excl num, dir int) (string, bool) {
	switch {
	case incl.v == nil && excl.v == nil:
		return "", false
	case excl.v == nil:
		return incl.v.s, false
	case incl.v == nil:
		return excl.v.s, true
	}
	if c := numCmp(incl.v.s, excl.v.s) * dir; c < 0 {
		return incl.v.s, false
	}
	return excl.v.s, true
}

// lenBelow: a maximum length or count under the other side's minimum.
func lenBelow(max, min num) bool {
	return max.v != nil && min.v != nil && numCmp(max.v.s, min.v.s) < 0
}

// sharesValue: some value of the types in t is in both enum/const sets.
func sharesValue(a, b *node, t uint8) bool {
	for i, v := range a.vals {
		if valueType(a.valVals[i])&t != 0 && inSorted(b.vals, v) {
			return true
		}
	}
	return false
}

// forbids: an object n accepts cannot have property p (its schema is false,
// or the object is closed by additionalProperties false with no property or
// pattern that could name p).
func forbids(n *node, p string) bool {
	if pn := findNamed(n.props, p); pn != nil {
		r := pn.d.res(pn)
		return r != nil && r.isFalse
	}
	if len(n.patProps) > 0 || n.addl == nil {
		return false
	}
	r := n.addl.d.res(n.addl)
	return r != nil && r.isFalse
}

func typeMask(n *node) uint8 {
	t := tAll
	if n.hasType {
		t = n.types
	}
	if n.orNull {
		t |= tNull
	}
	return t
}

func valsOutside(n *node, t uint8) bool {
	for _, v := range n.valVals {
		if valueType(v)&t != 0 {
			return false
		}
	}
	return true
}

func pairwiseDisjoint(l []*node, ctx uint8) bool {
	for i := range l {
		for j := i + 1; j < len(l); j++ {
			if !disjoint(l[i], l[j], ctx, 0) {
				return false
			}
		}
	}
	return true
}
