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

func (d *doc) fill(n *node, v *value) {
	bad := func(m member) { n.unknown = append(n.unknown, m) }
	numKw := func(m member, dst *num) {
		if m.v.kind != vNum {
			bad(m)
			return
		}
		*dst = num{m.v}
	}
	strKw := func(m member, dst *optStr) {
		if m.v.kind != vStr {
			bad(m)
			return
		}
		*dst = optStr{m.v}
	}
	schemaKw := func(m member, dst **node) {
		if !isSchemaValue(m.v) {
			bad(m)
			return
		}
		*dst = d.under(m.v, n, 1, m.k, "")
	}
	schemaMap := func(m member) []named {
		if m.v.kind != vObj {
			bad(m)
			return nil
		}
		d.reserve(len(m.v.members()))
		out := make([]named, 0, len(m.v.members()))
		for _, p := range m.v.members() {
			if !isSchemaValue(p.v) {
				bad(m)
				return nil
			}
			out = append(out, named{p.k, d.under(p.v, n, 2, m.k, p.k)})
		}
		return out
	}
	schemaList := func(m member) []*node {
		if m.v.kind != vArr || len(m.v.elems()) == 0 {
			bad(m)
			return nil
		}
		out := make([]*node, len(m.v.elems()))
		for i, e := range m.v.elems() {
			if !isSchemaValue(e) {
				bad(m)
				return nil
			}
			out[i] = d.under(e, n, 2, m.k, strconv.Itoa(i))
		}
		return out
	}
	var itemsArr, addItems *value
	for _, m := range v.members() {
		switch m.k {
		case "type":
			if !n.parseType(m.v) {
				bad(m)
			}
		case "enum":
			if m.v.kind != vArr || len(m.v.elems()) == 0 {
				bad(m)
				continue
			}
			n.hasEnum, n.enumV = true, m.v
		case "const":
			n.hasConst, n.constV = true, m.v
		case "multipleOf":
			numKw(m, &n.multipleOf)
		case "maximum":
			numKw(m, &n.maximum)
		case "minimum":
			numKw(m, &n.minimum)
		case "exclusiveMaximum":
			if m.v.kind == vBool {
				n.exclMaxBool = m.v.b
				continue
			}
			numKw(m, &n.exclMax)
		case "exclusiveMinimum":
			if m.v.kind == vBool {
				n.exclMinBool = m.v.b
				continue
			}
			numKw(m, &n.exclMin)
		case "maxLength":
			numKw(m, &n.maxLength)
		case "minLength":
			numKw(m, &n.minLength)
		case "maxItems":
			numKw(m, &n.maxItems)
		case "minItems":
			numKw(m, &n.minItems)
		case "maxContains":
			numKw(m, &n.maxContains)
		case "minContains":
			numKw(m, &n.minContains)
		case "maxProperties":
			numKw(m, &n.maxProps)
		case "minProperties":
			numKw(m, &n.minProps)
		case "pattern":
			strKw(m, &n.pattern)
		case "format":
			strKw(m, &n.format)
		case "contentEncoding":
			strKw(m, &n.contentEncoding)
		case "contentMediaType":
			strKw(m, &n.contentMediaType)
		case "contentSchema":
			schemaKw(m, &n.contentSchema)
		case "properties":
			n.props = schemaMap(m)
		case "patternProperties":
			n.patProps = schemaMap(m)
		case "dependentSchemas":
			n.depSchemas = append(n.depSchemas, schemaMap(m)...)
		case "required":
			if !n.parseRequired(m.v) {
				bad(m)
			}
		case "dependentRequired":
			if !n.parseDepReq(m.v, "dependentRequired", false) {
				bad(m)
			}
		case "dependencies":
			if m.v.kind != vObj {
				bad(m)
				continue
			}
			for _, p := range m.v.members() {
				switch {
				case p.v.kind == vArr:
					one := &value{kind: vObj, obj: []member{p}}
					if !n.parseDepReq(one, "dependencies", true) {
						bad(m)
					}
					n.setRawKw("dependentRequired", "dependencies")
				case isSchemaValue(p.v):
					n.depSchemas = append(n.depSchemas, named{p.k, d.under(p.v, n, 2, "dependencies", p.k)})
					n.setRawKw("dependentSchemas", "dependencies")
				default:
					bad(m)
				}
			}
		case "additionalProperties":
			schemaKw(m, &n.addl)
		case "unevaluatedProperties":
			schemaKw(m, &n.uneval)
		case "propertyNames":
			schemaKw(m, &n.propNames)
		case "items":
			if m.v.kind == vArr {
				itemsArr = m.v
				continue
			}
			schemaKw(m, &n.items)
		case "additionalItems":
			if !isSchemaValue(m.v) {
				bad(m)
				continue
			}
			addItems = m.v
		case "prefixItems":
			n.prefix = schemaList(m)
		case "unevaluatedItems":
			schemaKw(m, &n.unevalItems)
		case "contains":
			schemaKw(m, &n.contains)
		case "uniqueItems":
			if m.v.kind != vBool {
				bad(m)
				continue
			}
			n.unique = m.v.b
		case "allOf":
			n.allOf = schemaList(m)
		case "anyOf":
			n.anyOf = schemaList(m)
		case "oneOf":
			n.oneOf = schemaList(m)
		case "not":
			schemaKw(m, &n.not)
		case "if":
			schemaKw(m, &n.ifS)
		case "then":
			schemaKw(m, &n.thenS)
		case "else":
			schemaKw(m, &n.elseS)
		case "$ref":
			if m.v.kind != vStr {
				bad(m)
				continue
			}
			n.refStr = m.v.s
		case "nullable":
			if m.v.kind != vBool {
				bad(m)
				continue
			}
			n.nullable = m.v.b
		case "title", "description", "default", "examples", "example", "deprecated",
			"readOnly", "writeOnly", "x-mcp-header", "$comment":
			n.ann = append(n.ann, m)
		case "$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary",
			"$defs", "definitions":
			// identity and containers: they matter only through $ref
		case "id":
			if !d.legacy || m.v.kind != vStr {
				bad(m)
			}
		default:
			bad(m)
		}
	}
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
