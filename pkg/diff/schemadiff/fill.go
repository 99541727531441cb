package schemadiff

import (
	"slices"
	"strconv"
	"strings"
)

func kindName(k vkind) string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

func isSchemaValue(x *value) bool { return x.kind == vObj || x.kind == vBool }

// fill reads the keywords of the schema object v into n, then settles
// what depends on several of them (the draft-07 tuple form, draft-04
// boolean exclusives, nullable, defaults made explicit, $ref beside
// assertions).
func (d *doc) fill(n *node, v *value) {
	f := &filler{d: d, n: n}
	for _, m := range v.members() {
		f.keyword(m)
	}
	d.settle(n, f.itemsArr, f.addItems)
}

// filler reads one schema object's keywords into its node.
type filler struct {
	d *doc
	n *node
	// itemsArr and addItems are draft-07's array form of items and its
	// additionalItems, settled once every keyword is read.
	itemsArr, addItems *value
}

// bad keeps a keyword whose value is not of its kind: it is compared as
// an unknown keyword, which fails closed.
func (f *filler) bad(m member) { f.n.unknown = append(f.n.unknown, m) }

func (f *filler) num(m member, dst *num) {
	if m.v.kind != vNum {
		f.bad(m)
		return
	}
	*dst = num{m.v}
}

func (f *filler) str(m member, dst *optStr) {
	if m.v.kind != vStr {
		f.bad(m)
		return
	}
	*dst = optStr{m.v}
}

func (f *filler) schema(m member, dst **node) {
	if !isSchemaValue(m.v) {
		f.bad(m)
		return
	}
	*dst = f.d.under(m.v, f.n, 1, m.k, "")
}

func (f *filler) schemaMap(m member) []named {
	if m.v.kind != vObj {
		f.bad(m)
		return nil
	}
	f.d.reserve(len(m.v.members()))
	out := make([]named, 0, len(m.v.members()))
	for _, p := range m.v.members() {
		if !isSchemaValue(p.v) {
			f.bad(m)
			return nil
		}
		out = append(out, named{p.k, f.d.under(p.v, f.n, 2, m.k, p.k)})
	}
	return out
}

func (f *filler) schemaList(m member) []*node {
	if m.v.kind != vArr || len(m.v.elems()) == 0 {
		f.bad(m)
		return nil
	}
	out := make([]*node, len(m.v.elems()))
	for i, e := range m.v.elems() {
		if !isSchemaValue(e) {
			f.bad(m)
			return nil
		}
		out[i] = f.d.under(e, f.n, 2, m.k, strconv.Itoa(i))
	}
	return out
}

// keyword reads one member of the schema object.
func (f *filler) keyword(m member) {
	n := f.n
	switch m.k {
	case "type":
		if !n.parseType(m.v) {
			f.bad(m)
		}
	case "enum":
		if m.v.kind != vArr || len(m.v.elems()) == 0 {
			f.bad(m)
			return
		}
		n.hasEnum, n.enumV = true, m.v
	case "const":
		n.hasConst, n.constV = true, m.v
	case "multipleOf":
		f.num(m, &n.multipleOf)
	case "maximum":
		f.num(m, &n.maximum)
	case "minimum":
		f.num(m, &n.minimum)
	case "exclusiveMaximum":
		if m.v.kind == vBool {
			n.exclMaxBool = m.v.b
			return
		}
		f.num(m, &n.exclMax)
	case "exclusiveMinimum":
		if m.v.kind == vBool {
			n.exclMinBool = m.v.b
			return
		}
		f.num(m, &n.exclMin)
	case "maxLength":
		f.num(m, &n.maxLength)
	case "minLength":
		f.num(m, &n.minLength)
	case "maxItems":
		f.num(m, &n.maxItems)
	case "minItems":
		f.num(m, &n.minItems)
	case "maxContains":
		f.num(m, &n.maxContains)
	case "minContains":
		f.num(m, &n.minContains)
	case "maxProperties":
		f.num(m, &n.maxProps)
	case "minProperties":
		f.num(m, &n.minProps)
	case "pattern":
		f.str(m, &n.pattern)
	case "format":
		f.str(m, &n.format)
	case "contentEncoding":
		f.str(m, &n.contentEncoding)
	case "contentMediaType":
		f.str(m, &n.contentMediaType)
	case "contentSchema":
		f.schema(m, &n.contentSchema)
	case "properties":
		n.props = f.schemaMap(m)
	case "patternProperties":
		n.patProps = f.schemaMap(m)
	case "dependentSchemas":
		n.depSchemas = append(n.depSchemas, f.schemaMap(m)...)
	case "required":
		if !n.parseRequired(m.v) {
			f.bad(m)
		}
	case "dependentRequired":
		if !n.parseDepReq(m.v, "dependentRequired", false) {
			f.bad(m)
		}
	case "dependencies":
		if m.v.kind != vObj {
			f.bad(m)
			return
		}
		for _, p := range m.v.members() {
			switch {
			case p.v.kind == vArr:
				one := &value{kind: vObj, obj: []member{p}}
				if !n.parseDepReq(one, "dependencies", true) {
					f.bad(m)
				}
				n.setRawKw("dependentRequired", "dependencies")
			case isSchemaValue(p.v):
				n.depSchemas = append(n.depSchemas, named{p.k, f.d.under(p.v, n, 2, "dependencies", p.k)})
				n.setRawKw("dependentSchemas", "dependencies")
			default:
				f.bad(m)
			}
		}
	case "additionalProperties":
		f.schema(m, &n.addl)
	case "unevaluatedProperties":
		f.schema(m, &n.uneval)
	case "propertyNames":
		f.schema(m, &n.propNames)
	case "items":
		if m.v.kind == vArr {
			f.itemsArr = m.v
			return
		}
		f.schema(m, &n.items)
	case "additionalItems":
		if !isSchemaValue(m.v) {
			f.bad(m)
			return
		}
		f.addItems = m.v
	case "prefixItems":
		n.prefix = f.schemaList(m)
	case "unevaluatedItems":
		f.schema(m, &n.unevalItems)
	case "contains":
		f.schema(m, &n.contains)
	case "uniqueItems":
		if m.v.kind != vBool {
			f.bad(m)
			return
		}
		n.unique = m.v.b
	case "allOf":
		n.allOf = f.schemaList(m)
	case "anyOf":
		n.anyOf = f.schemaList(m)
	case "oneOf":
		n.oneOf = f.schemaList(m)
	case "not":
		f.schema(m, &n.not)
	case "if":
		f.schema(m, &n.ifS)
	case "then":
		f.schema(m, &n.thenS)
	case "else":
		f.schema(m, &n.elseS)
	case "$ref":
		if m.v.kind != vStr {
			f.bad(m)
			return
		}
		n.refStr = m.v.s
	case "nullable":
		if m.v.kind != vBool {
			f.bad(m)
			return
		}
		n.nullable = m.v.b
	case "title", "description", "default", "examples", "example", "deprecated",
		"readOnly", "writeOnly", "x-mcp-header", "$comment":
		n.ann = append(n.ann, m)
	case "$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary",
		"$defs", "definitions":
		// identity and containers: they matter only through $ref
	case "id":
		if !f.d.legacy || m.v.kind != vStr {
			f.bad(m)
		}
	default:
		f.bad(m)
	}
}

// settle finishes n once fill has read every keyword.
func (d *doc) settle(n *node, itemsArr, addItems *value) {
	// draft-07 tuple form.
	if itemsArr != nil {
		if len(itemsArr.elems()) == 0 {
			n.prefix = nil
		} else {
			out := make([]*node, 0, len(itemsArr.elems()))
			for i, e := range itemsArr.elems() {
				if !isSchemaValue(e) {
					n.unknown = append(n.unknown, member{"items", itemsArr})
					out = nil
					break
				}
				out = append(out, d.under(e, n, 2, "items", strconv.Itoa(i)))
			}
			if out != nil && n.prefix == nil {
				n.prefix = out
				n.setRawKw("prefixItems", "items")
			}
		}
		if addItems != nil {
			n.items = d.under(addItems, n, 1, "additionalItems", "")
			n.setRawKw("items", "additionalItems")
		}
	}
	// draft-04 boolean exclusives move the bound.
	if n.exclMinBool && n.minimum.v != nil && n.exclMin.v == nil {
		n.exclMin, n.minimum = n.minimum, num{}
		n.setRawKw("exclusiveMinimum", "minimum")
	}
	if n.exclMaxBool && n.maximum.v != nil && n.exclMax.v == nil {
		n.exclMax, n.maximum = n.maximum, num{}
		n.setRawKw("exclusiveMaximum", "maximum")
	}
	if n.nullable && n.hasType {
		n.types |= tNull
	}
	d.normalize(n)
	if n.contains == nil {
		n.minContains, n.maxContains = num{}, num{}
	} else if n.minContains.v == nil {
		n.minContains = num{oneValue} // the default, made explicit
	}
	if n.ifS == nil {
		n.thenS, n.elseS = nil, nil
	} else if n.thenS == nil && n.elseS == nil {
		n.ifS = nil
	}
	slices.SortFunc(n.depSchemas, func(a, b named) int { return strings.Compare(a.name, b.name) })
	slices.SortFunc(n.depReq, func(a, b depReq) int { return strings.Compare(a.name, b.name) })
	n.depReq = slices.DeleteFunc(n.depReq, func(e depReq) bool { return len(e.names) == 0 })
	// allowed values
	if n.hasEnum || n.hasConst {
		n.computeVals()
	}
	slices.SortFunc(n.unknown, func(a, b member) int { return strings.Compare(a.k, b.k) })
	// 2019-09 and later: $ref next to assertions is one more allOf member.
	if ref := n.refStr; ref != "" && !d.legacy && n.hasAssertionsBesidesRef() {
		rv := &value{kind: vObj, obj: []member{{"$ref", &value{kind: vStr, s: n.refStr}}}, refDone: true, ref: true}
		r := &node{d: d, raw: rv, ptrS: n.P(), ptrOK: true, filled: true, keywords: &keywords{refStr: n.refStr}}
		n.allOf = append([]*node{r}, n.allOf...)
		n.refStr = ""
	}
}
