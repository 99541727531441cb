package schemadiff

import "slices"

// typeOnly: the node says nothing but type (no null), so a union of such
// nodes is a type set.
func (n *node) typeOnly() bool {
	if !n.hasType || n.types&tNull != 0 || len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 {
		return false
	}
	save := n.hasType
	n.hasType = false
	r := n.hasOwnAssertions()
	n.hasType = save
	return !r
}

// isNullOnly: {type: null} and nothing else (also const/enum [null]).
func (n *node) isNullOnly() bool {
	if len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 {
		return false
	}
	if n.hasType && n.types == tNull {
		save := n.hasType
		n.hasType = false
		r := n.hasOwnAssertions()
		n.hasType = save
		return !r
	}
	if n.hasVals && len(n.vals) == 1 && n.vals[0] == "null" && !n.hasType {
		save := n.hasVals
		n.hasVals = false
		r := n.hasOwnAssertions()
		n.hasVals = save
		return !r
	}
	return false
}

// rejectsNull: provably rejects null on its own.
func (n *node) rejectsNull() bool {
	if n.isFalse {
		return true
	}
	if n.hasType && n.types&tNull == 0 {
		return true
	}
	if n.hasVals && !slices.Contains(n.vals, "null") {
		return true
	}
	return false
}

func (d *doc) stripNull(n *node, list []*node, exclusive bool) []*node {
	nulls := 0
	for _, b := range list {
		if r := d.res(b); r != nil && r.isNullOnly() {
			nulls++
		}
	}
	if nulls == 0 || nulls == len(list) {
		return list
	}
	if exclusive {
		if nulls > 1 {
			return list
		}
		for _, b := range list {
			r := d.res(b)
			if r == nil {
				return list
			}
			if !r.isNullOnly() && !r.rejectsNull() {
				return list
			}
		}
	}
	out := make([]*node, 0, len(list)-nulls)
	for _, b := range list {
		if r := d.res(b); r != nil && r.isNullOnly() {
			if n.nullBranch == "" {
				n.nullBranch, n.nullBranchRaw = b.P(), b.raw
			}
			continue
		}
		out = append(out, b)
	}
	// Beside a type or enum that rejects null the null branch never
	// matches: it is dropped without making the node nullable.
	if !n.rejectsNull() {
		n.orNull = true
	}
	return out
}

// nullCopy makes the resolved form of {anyOf: [{type: null}, X]}: X with
// null added.
func (d *doc) nullCopy(w, t *node, kind string) *node {
	c := new(node)
	*c = *t
	k := *t.keywords
	c.keywords = &k
	c.res, c.resState = c, resDone
	c.aliasTo = nil
	c.orNull = true
	c.nullWrap = kind
	c.nullPtr, c.nullRaw = w.P(), w.raw
	if w.nullBranch != "" {
		c.nullPtr, c.nullRaw = w.nullBranch, w.nullBranchRaw
	}
	c.foldNull()
	w.aliasTo, w.aliasKind = t, kind
	return c
}

// foldNull turns "X or null" into a type set with null where that is
// exactly equivalent, so the three null encodings compare equal.
func (n *node) foldNull() {
	if !n.orNull {
		return
	}
	simple := len(n.allOf)+len(n.anyOf)+len(n.oneOf) == 0 && n.not == nil && n.ifS == nil && len(n.unknown) == 0 && n.opaque == "" && !n.isFalse
	if !simple {
		return
	}
	if n.hasType {
		n.types |= tNull
	}
	if n.hasVals {
		if i, ok := slices.BinarySearch(n.vals, "null"); !ok {
			n.vals = slices.Insert(slices.Clone(n.vals), i, "null")
			n.valVals = slices.Insert(slices.Clone(n.valVals), i, nullValue)
		}
	}
	// An untyped node without enum/const let null through already.
	n.orNull = false
}
