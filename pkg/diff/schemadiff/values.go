package schemadiff

import (
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

var (
	nullValue = &value{kind: vNull}
	oneValue  = &value{kind: vNum, s: "1"}
)

// acceptsNull: does the node's own type/enum/const and null-union let null
// through (composition is judged separately).
func acceptsNull(n *node) bool {
	if n.orNull {
		return true
	}
	return (!n.hasType || n.types&tNull != 0) && (!n.hasVals || valsHaveNull(n))
}

// acceptsNullDeep is acceptsNull with not and the composition branches
// looked at: false only when null is provably rejected.
func acceptsNullDeep(n *node, depth int) bool {
	ok, known := nullValid(n, depth)
	return ok || !known
}

// nullValid evaluates a resolved node on the value null. Only type,
// enum/const, not and the compositions apply to null; known is false where
// that cannot be told (opaque nodes, conditionals, unknown keywords, depth).
func nullValid(n *node, depth int) (ok, known bool) {
	switch {
	case n == nil || n.opaque != "" || depth > 8:
		return true, false
	case n.isFalse:
		return false, true
	case n.orNull:
		return true, true
	case !acceptsNull(n):
		return false, true
	}
	known = n.ifS == nil && len(n.unknown) == 0
	sub := func(x *node) (bool, bool) { return nullValid(x.d.res(x), depth+1) }
	if n.not != nil {
		v, k := sub(n.not)
		if k && v {
			return false, true
		}
		known = known && k
	}
	for _, x := range n.allOf {
		v, k := sub(x)
		if k && !v {
			return false, true
		}
		known = known && k
	}
	if len(n.anyOf) > 0 {
		any, allKnown := false, true
		for _, x := range n.anyOf {
			v, k := sub(x)
			any = any || (v && k)
			allKnown = allKnown && k
		}
		if !any && allKnown {
			return false, true
		}
		known = known && (any || allKnown)
	}
	if len(n.oneOf) > 0 {
		sure, maybe := 0, 0
		for _, x := range n.oneOf {
			v, k := sub(x)
			switch {
			case v && k:
				sure++
			case !k:
				maybe++
			}
		}
		if sure >= 2 || sure+maybe == 0 {
			return false, true
		}
		known = known && maybe == 0
	}
	return true, known
}

func valsHaveNull(n *node) bool {
	_, ok := slices.BinarySearch(n.vals, "null")
	return ok
}

// nullChangeByType: null acceptance changed, and not because enum/const or
// the presence of `type` changed (those report it themselves).
func nullChangeByType(b, h *node) bool {
	if b.orNull != h.orNull {
		// A null branch folded into one side: the other side's own keywords
		// may let null through while its branches reject it.
		if acceptsNullDeep(b, 0) != acceptsNullDeep(h, 0) {
			return b.hasType == h.hasType && b.hasVals == h.hasVals
		}
		return false
	}
	if acceptsNull(b) == acceptsNull(h) || b.hasType != h.hasType || b.hasVals != h.hasVals {
		return false
	}
	return !b.hasVals || valsHaveNull(b) == valsHaveNull(h)
}

func eqTypes(b, h *node) bool {
	if b.hasType != h.hasType {
		return false
	}
	if b.hasType && b.types&^tNull != h.types&^tNull {
		return false
	}
	return !nullChangeByType(b, h)
}

func (c *walker) typePtrs(b, h *node) (string, string) {
	return ptrJoin(b.P(), b.kw("type")), ptrJoin(h.P(), h.kw("type"))
}

func (c *walker) types(b, h *node) {
	if eqTypes(b, h) {
		return
	}
	bp, hp := c.typePtrs(b, h)
	nullToo := true // the nullability is reported below
	switch {
	case b.hasType && h.hasType:
		bt, ht := b.types&^tNull, h.types&^tNull
		if bt == 0 || ht == 0 {
			// type null alone on one side: judge the whole sets, null included
			bt, ht = b.types, h.types
			nullToo = false
		}
		if bt != ht {
			switch {
			case bt&ht == 0:
				c.emit(c.rule(rules.InputTypeChanged, rules.OutputTypeChanged), bp, hp, b.typeRaw, h.typeRaw, "type changed from %s to %s", typeString(bt), typeString(ht))
			case bt&ht == bt:
				c.emit(c.rule(rules.InputTypeWidened, rules.OutputTypeWidened), bp, hp, b.typeRaw, h.typeRaw, "type widened from %s to %s", typeString(bt), typeString(ht))
			case bt&ht == ht:
				c.emit(c.rule(rules.InputTypeNarrowed, rules.OutputTypeNarrowed), bp, hp, b.typeRaw, h.typeRaw, "type narrowed from %s to %s", typeString(bt), typeString(ht))
			default:
				c.emit(c.rule(rules.InputTypeNarrowed, rules.OutputTypeNarrowed), bp, hp, b.typeRaw, h.typeRaw, "type %s no longer allowed (type %s → %s)", typeString(bt&^ht), typeString(bt), typeString(ht))
				c.emit(c.rule(rules.InputTypeWidened, rules.OutputTypeWidened), bp, hp, b.typeRaw, h.typeRaw, "type %s now allowed (type %s → %s)", typeString(ht&^bt), typeString(bt), typeString(ht))
			}
		}
	case h.hasType:
		c.emit(c.rule(rules.InputTypeConstraintAdded, rules.OutputTypeConstraintAdded), bp, hp, nil, h.typeRaw, "type constraint %s added (any JSON type was allowed)", typeString(h.types))
	case b.hasType:
		c.emit(c.rule(rules.InputTypeConstraintRemoved, rules.OutputTypeConstraintRemoved), bp, hp, b.typeRaw, nil, "type constraint %s removed (any JSON type is now allowed)", typeString(b.types))
	}
	if nullToo && nullChangeByType(b, h) {
		how := ""
		if h.nullWrap != "" {
			how = " (wrapped in " + h.nullWrap + " with a null branch)"
		} else if b.nullWrap != "" {
			how = " (unwrapped from " + b.nullWrap + " with a null branch)"
		}
		nbp, nhp := bp, hp
		bv, hv := b.typeRaw, h.typeRaw
		if b.nullPtr != "" {
			// The null branch is what went: the finding points at it.
			nbp, bv, hv = b.nullPtr, b.nullRaw, nil
		}
		if h.nullPtr != "" {
			nhp, hv = h.nullPtr, h.nullRaw
		}
		nowNull := acceptsNull(h)
		if b.orNull != h.orNull {
			nowNull = acceptsNullDeep(h, 0)
		}
		if nowNull {
			c.emit(c.rule(rules.InputBecameNullable, rules.OutputBecameNullable), nbp, nhp, bv, hv, "null is now allowed%s", how)
		} else {
			c.emit(c.rule(rules.InputBecameNotNullable, rules.OutputBecameNotNullable), nbp, nhp, bv, hv, "null is no longer allowed%s", how)
		}
	}
}

// ---- enum / const ----

func eqVals(b, h *node) bool {
	return b.hasVals == h.hasVals && slices.Equal(b.vals, h.vals)
}

// eqValsBeyondType: the enum/const sets are equal, or differ only by enum
// values of a type one side's type keyword excludes (the type change
// reports those).
func eqValsBeyondType(b, h *node) bool {
	if eqVals(b, h) {
		return true
	}
	if !b.hasVals || !h.hasVals || constOnly(b) || constOnly(h) {
		return false
	}
	added, removed := valsDiff(b, h)
	for _, k := range removed {
		if !typeExcludes(b, h, b.valVals[k]) {
			return false
		}
	}
	for _, k := range added {
		if !typeExcludes(b, h, h.valVals[k]) {
			return false
		}
	}
	return true
}

// typeExcludes: the types changed and one side's type keyword rejects v.
func typeExcludes(b, h *node, v *value) bool {
	if !b.hasType || !h.hasType || eqTypes(b, h) {
		return false
	}
	t := valueType(v)
	return b.types&t == 0 || h.types&t == 0
}

// valsDiff returns the indexes of h.vals not in b.vals (added) and of b.vals
// not in h.vals (removed).
func valsDiff(b, h *node) (added, removed []int) {
	i, j := 0, 0
	for i < len(b.vals) || j < len(h.vals) {
		switch {
		case j >= len(h.vals) || (i < len(b.vals) && b.vals[i] < h.vals[j]):
			removed = append(removed, i)
			i++
		case i >= len(b.vals) || b.vals[i] > h.vals[j]:
			added = append(added, j)
			j++
		default:
			i++
			j++
		}
	}
	return added, removed
}

func constOnly(n *node) bool { return n.hasConst && !n.hasEnum }

func (n *node) valsRaw() *value {
	if n.hasEnum && !n.hasConst {
		return n.enumV
	}
	if n.hasConst && !n.hasEnum {
		return n.constV
	}
	if !n.hasVals {
		return nil
	}
	return &value{kind: vArr, arr: n.valVals}
}

// withoutNull is a sorted value list without its null.
func withoutNull(vals []string) []string {
	return slices.DeleteFunc(slices.Clone(vals), func(v string) bool { return v == "null" })
}

// foldedNull reports whether the null among the node's values was folded
// in from a union's null branch (nullCopy) rather than listed by its own
// enum or const.
func (n *node) foldedNull() bool {
	if n.nullWrap == "" || n.nullPtr == "" {
		return false
	}
	for _, raw := range []*value{n.enumV, n.constV} {
		if raw == nil {
			continue
		}
		if raw == n.constV && canonString(raw) == "null" {
			return false
		}
		for _, e := range raw.elems() {
			if canonString(e) == "null" {
				return false
			}
		}
	}
	return true
}

func (n *node) valsKw() string {
	if constOnly(n) {
		return "const"
	}
	return n.kw("enum")
}

// valsP is the pointer of the node's value set as a whole.
func (n *node) valsP() string {
	if n.valsAt != "" {
		return n.valsAt
	}
	return ptrJoin(n.P(), n.valsKw())
}

// enumIndex is the index of a value in the raw enum, for the pointer.
func (n *node) enumPtr(key string) string {
	for _, br := range n.valsFrom {
		if _, ok := slices.BinarySearch(br.vals, key); ok {
			return br.enumPtr(key)
		}
	}
	if n.hasEnum && n.valsFrom == nil {
		for i, e := range n.enumV.elems() {
			if canonString(e) == key {
				return ptrJoin(n.P(), "enum", strconv.Itoa(i))
			}
		}
		return ptrJoin(n.P(), "enum")
	}
	return ptrJoin(n.P(), n.valsKw())
}

func (c *walker) values(b, h *node) {
	switch {
	case !b.hasVals && !h.hasVals:
		return
	case !b.hasVals:
		bp, hp := ptrJoin(b.P(), "enum"), h.valsP()
		if constOnly(h) {
			bp = ptrJoin(b.P(), "const")
		}
		if constOnly(h) {
			c.emit(c.rule(rules.InputConstAdded, rules.OutputConstAdded), bp, hp, nil, h.constV, "const %s added", short(h.constV))
		} else {
			c.emit(c.rule(rules.InputEnumAdded, rules.OutputEnumAdded), bp, hp, nil, h.valsRaw(), "enum %s added", short(h.valsRaw()))
		}
		return
	case !h.hasVals:
		bp, hp := b.valsP(), ptrJoin(h.P(), "enum")
		if constOnly(b) {
			hp = ptrJoin(h.P(), "const")
		}
		if constOnly(b) {
			c.emit(c.rule(rules.InputConstRemoved, rules.OutputConstRemoved), bp, hp, b.constV, nil, "const %s removed", short(b.constV))
		} else {
			c.emit(c.rule(rules.InputEnumRemoved, rules.OutputEnumRemoved), bp, hp, b.valsRaw(), nil, "enum %s removed", short(b.valsRaw()))
		}
		return
	}
	if slices.Equal(b.vals, h.vals) {
		return
	}
	// Only the null a union's null branch folded in differs: that branch
	// is the change (anyOf [const, null] → the const).
	if b.foldedNull() && slices.Equal(withoutNull(b.vals), h.vals) {
		c.emit(c.rule(rules.InputBecameNotNullable, rules.OutputBecameNotNullable), b.nullPtr, h.P(), b.nullRaw, nil, "null is no longer allowed (unwrapped from %s with a null branch)", b.nullWrap)
		return
	}
	if h.foldedNull() && slices.Equal(b.vals, withoutNull(h.vals)) {
		c.emit(c.rule(rules.InputBecameNullable, rules.OutputBecameNullable), b.P(), h.nullPtr, nil, h.nullRaw, "null is now allowed (wrapped in %s with a null branch)", h.nullWrap)
		return
	}
	added, removed := valsDiff(b, h)
	bc, hc := constOnly(b), constOnly(h)
	bp, hp := b.valsP(), h.valsP()
	switch {
	case bc && hc:
		c.emit(c.rule(rules.InputConstChanged, rules.OutputConstChanged), bp, hp, b.constV, h.constV, "const changed from %s to %s", short(b.constV), short(h.constV))
	case bc:
		if len(removed) == 0 {
			c.emit(c.rule(rules.InputConstRemoved, rules.OutputConstRemoved), bp, hp, b.constV, h.valsRaw(), "const %s replaced by enum %s that contains it", short(b.constV), short(h.valsRaw()))
		} else {
			c.emit(c.rule(rules.InputConstChanged, rules.OutputConstChanged), bp, hp, b.constV, h.valsRaw(), "const %s replaced by enum %s without it", short(b.constV), short(h.valsRaw()))
		}
	case hc:
		if len(added) == 0 {
			c.emit(c.rule(rules.InputConstAdded, rules.OutputConstAdded), bp, hp, b.valsRaw(), h.constV, "enum %s narrowed to const %s", short(b.valsRaw()), short(h.constV))
		} else {
			c.emit(c.rule(rules.InputConstChanged, rules.OutputConstChanged), bp, hp, b.valsRaw(), h.constV, "enum %s replaced by const %s not among its values", short(b.valsRaw()), short(h.constV))
		}
	default:
		// Enum values of a type only one side accepts came with the type
		// change, which reports them.
		removed = slices.DeleteFunc(removed, func(k int) bool { return typeExcludes(b, h, b.valVals[k]) })
		added = slices.DeleteFunc(added, func(k int) bool { return typeExcludes(b, h, h.valVals[k]) })
		for _, k := range removed {
			v := b.valVals[k]
			if b.vals[k] == "null" && b.foldedNull() {
				// null was the union's null branch, not a member of this
				// enum: the branch is what went.
				c.emit(c.rule(rules.InputBecameNotNullable, rules.OutputBecameNotNullable), b.nullPtr, h.P(), b.nullRaw, nil, "null is no longer allowed (unwrapped from %s with a null branch)", b.nullWrap)
				continue
			}
			c.emit(c.rule(rules.InputEnumValueRemoved, rules.OutputEnumValueRemoved), b.enumPtr(b.vals[k]), hp, v, nil, "enum value %s removed", short(v))
		}
		for _, k := range added {
			v := h.valVals[k]
			if h.vals[k] == "null" && h.foldedNull() {
				c.emit(c.rule(rules.InputBecameNullable, rules.OutputBecameNullable), b.P(), h.nullPtr, nil, h.nullRaw, "null is now allowed (wrapped in %s with a null branch)", h.nullWrap)
				continue
			}
			c.emit(c.rule(rules.InputEnumValueAdded, rules.OutputEnumValueAdded), bp, h.enumPtr(h.vals[k]), nil, v, "enum value %s added", short(v))
		}
	}
}

// ---- numbers ----

func eqNum(a, b num) bool {
	if a.v == nil || b.v == nil {
		return a.v == b.v
	}
	return a.v.s == b.v.s
}

func eqNumbers(b, h *node) bool {
	return eqNum(b.minimum, h.minimum) && eqNum(b.maximum, h.maximum) && eqNum(b.exclMin, h.exclMin) &&
		eqNum(b.exclMax, h.exclMax) && eqNum(b.multipleOf, h.multipleOf)
}

// bound compares one numeric bound. lower: a larger value (or adding it)
// tightens. tighten/relax are the rules of the walker's direction.
func (c *walker) bound(b, h *node, kw string, bn, hn num, lower bool, tighten, relax string) {
	if eqNum(bn, hn) {
		return
	}
	bp, hp := ptrJoin(b.P(), b.kw(kw)), ptrJoin(h.P(), h.kw(kw))
	switch {
	case bn.v == nil:
		c.emit(tighten, bp, hp, nil, hn.v, "%s %s added", kw, hn.v.s)
	case hn.v == nil:
		c.emit(relax, bp, hp, bn.v, nil, "%s %s removed", kw, bn.v.s)
	default:
		d := numCmp(hn.v.s, bn.v.s)
		if d == 0 {
			return
		}
		verb := "increased"
		if d < 0 {
			verb = "decreased"
		}
		rule := relax
		if (d > 0) == lower {
			rule = tighten
		}
		c.emit(rule, bp, hp, bn.v, hn.v, "%s %s from %s to %s", kw, verb, bn.v.s, hn.v.s)
	}
}

func (c *walker) numbers(b, h *node) {
	c.bound(b, h, "minimum", b.minimum, h.minimum, true, c.rule(rules.InputMinimumIncreased, rules.OutputMinimumIncreased), c.rule(rules.InputMinimumDecreased, rules.OutputMinimumDecreased))
	c.bound(b, h, "maximum", b.maximum, h.maximum, false, c.rule(rules.InputMaximumDecreased, rules.OutputMaximumDecreased), c.rule(rules.InputMaximumIncreased, rules.OutputMaximumIncreased))
	c.bound(b, h, "exclusiveMinimum", b.exclMin, h.exclMin, true, c.rule(rules.InputExclusiveMinimumIncreased, rules.OutputExclusiveMinimumIncreased), c.rule(rules.InputExclusiveMinimumDecreased, rules.OutputExclusiveMinimumDecreased))
	c.bound(b, h, "exclusiveMaximum", b.exclMax, h.exclMax, false, c.rule(rules.InputExclusiveMaximumDecreased, rules.OutputExclusiveMaximumDecreased), c.rule(rules.InputExclusiveMaximumIncreased, rules.OutputExclusiveMaximumIncreased))
	c.multipleOf(b, h)
}

func (c *walker) multipleOf(b, h *node) {
	bn, hn := b.multipleOf, h.multipleOf
	if eqNum(bn, hn) {
		return
	}
	bp, hp := ptrJoin(b.P(), "multipleOf"), ptrJoin(h.P(), "multipleOf")
	switch {
	case bn.v == nil:
		c.emit(c.rule(rules.InputMultipleOfTightened, rules.OutputMultipleOfTightened), bp, hp, nil, hn.v, "multipleOf %s added", hn.v.s)
		return
	case hn.v == nil:
		c.emit(c.rule(rules.InputMultipleOfRelaxed, rules.OutputMultipleOfRelaxed), bp, hp, bn.v, nil, "multipleOf %s removed", bn.v.s)
		return
	}
	if ok, valid := divides(hn.v.s, bn.v.s); valid && ok {
		c.emit(c.rule(rules.InputMultipleOfRelaxed, rules.OutputMultipleOfRelaxed), bp, hp, bn.v, hn.v, "multipleOf relaxed from %s to %s (a divisor)", bn.v.s, hn.v.s)
		return
	}
	if ok, valid := divides(bn.v.s, hn.v.s); valid && ok {
		c.emit(c.rule(rules.InputMultipleOfTightened, rules.OutputMultipleOfTightened), bp, hp, bn.v, hn.v, "multipleOf tightened from %s to %s (a multiple)", bn.v.s, hn.v.s)
		return
	}
	// Neither divides the other: both some old values are rejected and
	// some new values appear, so report the side that breaks this direction.
	rule := c.rule(rules.InputMultipleOfTightened, rules.OutputMultipleOfTightened)
	if c.dir == Output {
		rule = c.rule(rules.InputMultipleOfRelaxed, rules.OutputMultipleOfRelaxed)
	}
	c.emit(rule, bp, hp, bn.v, hn.v, "multipleOf changed from %s to %s (neither divides the other)", bn.v.s, hn.v.s)
}
