package schemadiff

import (
	"slices"
	"strings"
)

func (n *node) parseType(x *value) bool {
	switch x.kind {
	case vStr:
		b, ok := typeBits[x.s]
		if !ok {
			return false
		}
		n.hasType, n.types, n.typeRaw = true, b, x
		return true
	case vArr:
		var t uint8
		for _, e := range x.elems() {
			if e.kind != vStr {
				return false
			}
			b, ok := typeBits[e.s]
			if !ok {
				return false
			}
			t |= b
		}
		if len(x.elems()) == 0 {
			return false
		}
		n.hasType, n.types, n.typeRaw = true, t, x
		return true
	}
	return false
}

func (n *node) parseRequired(x *value) bool {
	if x.kind != vArr {
		return false
	}
	out := make([]string, 0, len(x.elems()))
	for _, e := range x.elems() {
		if e.kind != vStr {
			return false
		}
		out = append(out, e.s)
	}
	slices.Sort(out)
	n.required = slices.Compact(out)
	n.reqRaw = x
	return true
}

func (n *node) parseDepReq(x *value, kw string, legacy bool) bool {
	if x.kind != vObj {
		return false
	}
	for _, p := range x.members() {
		if p.v.kind != vArr {
			return false
		}
		names := make([]string, 0, len(p.v.elems()))
		for _, e := range p.v.elems() {
			if e.kind != vStr {
				return false
			}
			names = append(names, e.s)
		}
		slices.Sort(names)
		n.depReq = append(n.depReq, depReq{p.k, slices.Compact(names), p.v})
	}
	return true
}

func (n *node) computeVals() {
	var list []*value
	switch {
	case n.hasEnum && n.hasConst:
		c := canonString(n.constV)
		for _, e := range n.enumV.elems() {
			if canonString(e) == c {
				list = []*value{n.constV}
				break
			}
		}
	case n.hasEnum:
		list = n.enumV.elems()
	default:
		list = []*value{n.constV}
	}
	type kv struct {
		k string
		v *value
	}
	tmp := make([]kv, len(list))
	for i, e := range list {
		tmp[i] = kv{canonString(e), e}
	}
	slices.SortFunc(tmp, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	tmp = slices.CompactFunc(tmp, func(a, b kv) bool { return a.k == b.k })
	n.hasVals = true
	n.vals = make([]string, len(tmp))
	n.valVals = make([]*value, len(tmp))
	for i, e := range tmp {
		n.vals[i], n.valVals[i] = e.k, e.v
	}
}

// hasAssertions reports whether n constrains values by anything other than
// its (possibly empty) composition keywords, which the caller inspects.
// Subschema keywords that accept everything (additionalProperties: true,
// items: {}) constrain nothing.
func (n *node) hasOwnAssertions() bool {
	return n.isFalse || n.opaque != "" || n.hasType || n.hasVals || n.orNull ||
		n.minimum.v != nil || n.maximum.v != nil || n.exclMin.v != nil || n.exclMax.v != nil || n.multipleOf.v != nil ||
		n.minLength.v != nil || n.maxLength.v != nil || n.minItems.v != nil || n.maxItems.v != nil ||
		n.minContains.v != nil || n.maxContains.v != nil || n.minProps.v != nil || n.maxProps.v != nil ||
		n.pattern.v != nil || n.format.v != nil || n.contentEncoding.v != nil || n.contentMediaType.v != nil ||
		n.contentSchema != nil || len(n.props) > 0 || len(n.required) > 0 || eff(n.addl) != nil ||
		eff(n.uneval) != nil || len(n.patProps) > 0 || eff(n.propNames) != nil || len(n.depReq) > 0 ||
		len(n.depSchemas) > 0 || len(n.prefix) > 0 || eff(n.items) != nil || eff(n.unevalItems) != nil ||
		n.contains != nil || n.unique || n.not != nil || n.ifS != nil || len(n.unknown) > 0 ||
		n.refStr != ""
}

func (n *node) hasAssertionsBesidesRef() bool {
	save := n.refStr
	n.refStr = ""
	r := n.hasAssertions()
	n.refStr = save
	return r
}

func (n *node) hasAssertions() bool {
	return n.hasOwnAssertions() || len(n.allOf) > 0 || len(n.anyOf) > 0 || len(n.oneOf) > 0
}
