package schemadiff

import (
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// Tautologies: keywords that accept everything their context allows. They
// are dropped here, in one step right after a node's keywords are read and
// before anything compares them, so adding or removing one is no change:
//
//   - minLength, minItems, minProperties of 0;
//   - the numeric bounds schema generators write for "any integer" / "any
//     number": exactly ±(2^53−1) on an integer, exactly ±Number.MAX_VALUE on
//     a number. Only those values: any other bound, however large, is
//     compared exactly (a maximum lowered from 1e30 to 1e20 rejects 1e25);
//   - a pattern every string matches;
//   - a type list naming every JSON type;
//   - propertyNames that only says the names are strings (object keys
//     always are);
//   - keywords of a type the node's type excludes (maxLength next to
//     type: object, properties next to type: string): they apply to no
//     value the node accepts;
//   - not: {not: X}, which is X (kept as an allOf member, so it compares
//     like X written in place).
//
// Subschemas that accept everything (additionalProperties: true, items: {},
// unevaluatedProperties: true, an annotation-only then/else) stay in the
// node because they still mark names and items as evaluated for an
// unevaluated* keyword further out; every comparison reads them through
// eff, which treats them as absent.
func (d *doc) normalize(n *node) {
	for _, p := range []*num{&n.minLength, &n.minItems, &n.minProps} {
		if p.v != nil && p.v.s == "0" {
			*p = num{}
		}
	}
	if n.hasType && n.types&tNumber != 0 && n.types&^(tNumber|tNull) == 0 {
		lo, hi := "-1.7976931348623157e308", "1.7976931348623157e308"
		if n.types&tNumber == tInt {
			lo, hi = "-9007199254740991", "9007199254740991"
		}
		if n.minimum.v != nil && numCmp(n.minimum.v.s, lo) == 0 {
			n.minimum = num{}
		}
		if n.maximum.v != nil && numCmp(n.maximum.v.s, hi) == 0 {
			n.maximum = num{}
		}
	}
	if n.pattern.v != nil && universalPattern(n.pattern.v.s) {
		n.pattern = optStr{}
	}
	if n.hasType {
		d.dropInapplicable(n)
	}
	if n.hasType && n.types == tAll {
		n.hasType, n.types, n.typeRaw = false, 0, nil
	}
	if n.propNames != nil && stringsOnly(n.propNames.raw) {
		n.propNames = nil
	}
	if n.not != nil {
		if inner := doubleNegation(n.not.raw); inner != nil {
			if len(n.allOf) == 0 {
				n.setRawKw("allOf", "not")
			}
			n.allOf = append(n.allOf, d.under(inner, n, 2, "not", "not"))
			n.not = nil
		}
	}
}

// stringsOnly: a raw schema whose only assertion is a type that includes
// string (the propertyNames every object satisfies).
func stringsOnly(v *value) bool {
	if v.kind != vObj {
		return false
	}
	typed := false
	for _, m := range v.members() {
		switch {
		case m.k == "type":
			switch m.v.kind {
			case vStr:
				typed = m.v.s == "string"
			case vArr:
				for _, e := range m.v.elems() {
					typed = typed || (e.kind == vStr && e.s == "string")
				}
			}
			if !typed {
				return false
			}
		case kw.Doc(m.k):
		default:
			return false
		}
	}
	return typed
}

// doubleNegation returns X for a raw {not: X} that says nothing else (bar
// documentation), nil otherwise.
func doubleNegation(v *value) *value {
	if v.kind != vObj {
		return nil
	}
	var inner *value
	for _, m := range v.members() {
		switch {
		case m.k == "not" && isSchemaValue(m.v):
			inner = m.v
		case kw.Doc(m.k):
		default:
			return nil
		}
	}
	return inner
}

// dropInapplicable removes the keywords that apply only to types n's type
// keyword excludes.
func (d *doc) dropInapplicable(n *node) {
	t := n.types
	if t&tStr == 0 {
		n.minLength, n.maxLength, n.pattern = num{}, num{}, optStr{}
		n.contentEncoding, n.contentMediaType, n.contentSchema = optStr{}, optStr{}, nil
	}
	if t&tNumber == 0 {
		n.minimum, n.maximum, n.exclMin, n.exclMax, n.multipleOf = num{}, num{}, num{}, num{}, num{}
	}
	if t&tArr == 0 {
		n.minItems, n.maxItems, n.minContains, n.maxContains = num{}, num{}, num{}, num{}
		n.prefix, n.items, n.unevalItems, n.contains, n.unique = nil, nil, nil, nil, false
	}
	if t&tObj == 0 {
		n.minProps, n.maxProps = num{}, num{}
		n.props, n.required, n.reqRaw, n.addl, n.uneval, n.patProps, n.propNames = nil, nil, nil, nil, nil, nil, nil
		n.depReq, n.depSchemas = nil, nil
	}
}
