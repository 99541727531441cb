package schemadiff

import "slices"

// Resolution: a node read through res has followed its pure wrappers
// ($ref, singleton compositions) and folded the null encodings.

const (
	resNone uint8 = iota
	resBusy
	resDone
)

// res returns the resolved node for n: pure wrappers followed, nullable
// unions folded. Safe on cycles: a wrapper loop becomes an opaque node.
func (d *doc) res(n *node) *node {
	switch n.resState {
	case resDone:
		return n.res
	case resBusy:
		return nil
	}
	n.resState = resBusy
	d.load(n)
	r := d.finish(n)
	if r == nil {
		// a loop of pure wrappers ($ref → $ref → …)
		n.opaque = "$ref loop at " + displayPtr(n.P())
		n.opaqueKey = "loop:" + n.refStr
		n.aliasTo = nil
		r = n
	}
	n.res = r
	n.resState = resDone
	return r
}

func displayPtr(p string) string {
	if p == "" {
		return "#"
	}
	return "#" + p
}

func (d *doc) finish(n *node) *node {
	if n.opaque != "" || n.isFalse || n.raw == nil || n.raw.kind != vObj {
		return n
	}
	if n.refStr != "" {
		return d.finishRef(n)
	}
	// Null branches of unions become orNull; type-only unions become a type set.
	if len(n.anyOf) > 0 {
		n.anyOf = d.stripNull(n, n.anyOf, false)
	}
	if len(n.oneOf) > 0 {
		n.oneOf = d.stripNull(n, n.oneOf, true)
	}
	if len(n.anyOf) >= 2 {
		n.anyOf = d.flattenAnyOf(n.anyOf)
	}
	if !n.hasOwnAssertionsIgnoringNull() && len(n.allOf) == 0 {
		for _, kw := range []string{"anyOf", "oneOf"} {
			list := n.anyOf
			if kw == "oneOf" {
				list = n.oneOf
			}
			if len(list) < 2 || (kw == "anyOf" && len(n.oneOf) > 0) || (kw == "oneOf" && len(n.anyOf) > 0) {
				continue
			}
			var t uint8
			ok := true
			for _, b := range list {
				r := d.res(b)
				if r == nil || !r.typeOnly() || (kw == "oneOf" && (t&r.types) != 0) {
					ok = false
					break
				}
				t |= r.types
			}
			if ok {
				n.hasType, n.types, n.typeRaw = true, t, n.raw.get(kw)
				n.foldedFrom = list
				if kw == "anyOf" {
					n.anyOf = nil
				} else {
					n.oneOf = nil
				}
				n.setRawKw("type", kw)
			}
		}
	}
	// A one-branch anyOf/oneOf is an allOf member.
	if len(n.anyOf) == 1 {
		n.allOf = append(slices.Clip(n.allOf), n.anyOf[0])
		n.anyOf = nil
		if len(n.allOf) == 1 {
			n.setRawKw("allOf", "anyOf")
		}
	}
	if len(n.oneOf) == 1 {
		n.allOf = append(slices.Clip(n.allOf), n.oneOf[0])
		n.oneOf = nil
		if len(n.allOf) == 1 {
			n.setRawKw("allOf", "oneOf")
		}
	}
	d.hoistUnions(n)
	// Singleton wrappers.
	if !n.hasOwnAssertionsIgnoringNull() {
		comps := 0
		var only *node
		kind := ""
		for _, c := range []struct {
			k string
			l []*node
		}{{"allOf", n.allOf}, {"anyOf", n.anyOf}, {"oneOf", n.oneOf}} {
			if len(c.l) > 0 {
				comps++
				if len(c.l) == 1 {
					only, kind = c.l[0], c.k
				}
			}
		}
		if comps == 1 && only != nil {
			kind = n.kw(kind)
			t := d.res(only)
			if t == nil {
				return nil
			}
			if !n.orNull {
				n.aliasTo, n.aliasKind = only, kind
				return t
			}
			return d.nullCopy(n, t, kind)
		}
	}
	n.foldNull()
	if n.hasType && n.types == tAll {
		// a union of every type (null folded in above) is no type constraint
		n.hasType, n.types, n.typeRaw, n.foldedFrom = false, 0, nil, nil
	}
	return n
}

func (n *node) hasOwnAssertionsIgnoringNull() bool {
	save := n.orNull
	n.orNull = false
	r := n.hasOwnAssertions()
	n.orNull = save
	return r
}

func (d *doc) finishRef(n *node) *node {
	t, why := d.lookupRef(n.refStr)
	if t == nil {
		n.opaque = why
		n.opaqueKey = "ref:" + n.refStr
		n.unresRef = true
		return n
	}
	n.aliasTo, n.aliasKind = t, "$ref"
	return d.res(t)
}

// hoistUnions lifts a union out of an allOf member that says nothing else
// (a single-branch anyOf/oneOf wrapper becomes such a member above):
// {anyOf: [{oneOf: [A, B]}]} and allOf: [{oneOf: [A, B]}] accept exactly
// what oneOf: [A, B] accepts, so the branches pair with a oneOf written in
// place instead of being reported removed one by one.
func (d *doc) hoistUnions(n *node) {
	for i := 0; i < len(n.allOf); i++ {
		m := n.allOf[i]
		r := d.res(m)
		if r == nil || r == n || r.opaque != "" || r.isFalse || r.hasOwnAssertionsIgnoringNull() || r.orNull || len(r.allOf) > 0 {
			continue
		}
		var kind string
		switch {
		case len(r.anyOf) >= 2 && len(r.oneOf) == 0 && len(n.anyOf) == 0:
			kind = "anyOf"
		case len(r.oneOf) >= 2 && len(r.anyOf) == 0 && len(n.oneOf) == 0:
			kind = "oneOf"
		default:
			continue
		}
		wrapper := n.kw("allOf")
		if kind == "anyOf" {
			n.anyOf = r.anyOf
		} else {
			n.oneOf = r.oneOf
		}
		n.allOf = append(slices.Clip(n.allOf[:i]), n.allOf[i+1:]...)
		if n.rawKw != nil && len(n.allOf) == 0 {
			delete(n.rawKw, "allOf")
		}
		n.hoisted = wrapper
		i--
	}
}
