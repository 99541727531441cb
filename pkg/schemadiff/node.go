package schemadiff

import (
	"bytes"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Type bits. "number" is tInt|tFrac, so integer ⊂ number falls out of set
// arithmetic and [number, integer] equals number.
const (
	tNull uint8 = 1 << iota
	tBool
	tObj
	tArr
	tStr
	tInt
	tFrac

	tNumber = tInt | tFrac
	tAll    = tNull | tBool | tObj | tArr | tStr | tNumber
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBool, "object": tObj, "array": tArr,
	"string": tStr, "integer": tInt, "number": tNumber,
}

// typeNames renders a type set the way a schema author writes it.
func typeNames(t uint8) []string {
	var out []string
	for _, x := range []struct {
		bit  uint8
		name string
	}{{tArr, "array"}, {tBool, "boolean"}, {tInt, "integer"}, {tNull, "null"}, {tNumber, "number"}, {tObj, "object"}, {tStr, "string"}} {
		switch {
		case x.bit == tInt:
			if t&tNumber == tInt {
				out = append(out, x.name)
			}
		case x.bit == tNumber:
			if t&tFrac != 0 {
				out = append(out, x.name)
			}
		case t&x.bit != 0:
			out = append(out, x.name)
		}
	}
	return out
}

func typeString(t uint8) string {
	n := typeNames(t)
	if len(n) == 1 {
		return n[0]
	}
	return "[" + strings.Join(n, ", ") + "]"
}

// valueType is the type bit(s) a JSON value belongs to.
func valueType(v *value) uint8 {
	switch v.kind {
	case vNull:
		return tNull
	case vBool:
		return tBool
	case vStr:
		return tStr
	case vArr:
		return tArr
	case vObj:
		return tObj
	case vNum:
		if isIntegral(v.s) {
			return tInt
		}
		return tFrac
	}
	return 0
}

func isIntegral(s string) bool {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		// canonical scientific form: d.ddd e±N is integral when N ≥ digits after the point
		mant, exp := s[:i], s[i+1:]
		e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
		if err != nil {
			return false
		}
		frac := 0
		if j := strings.IndexByte(mant, '.'); j >= 0 {
			frac = len(mant) - j - 1
		}
		return e >= frac
	}
	return !strings.Contains(s, ".")
}

// num is an optional number keyword (nil = absent); v.s is canonical.
type num struct{ v *value }

// dec is a JSON number as digits × 10^exp (digits without leading or
// trailing zeros; "" is zero). Numbers are compared in this form, so even
// 1e999999999 costs nothing.
type dec struct {
	neg    bool
	digits string
	exp    int
}

func parseDec(s string) (dec, bool) {
	var d dec
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	}
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 1<<40 || e < -(1<<40) {
			return d, false
		}
		d.exp = e
		mant = s[:i]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	d.exp -= len(frac)
	t := strings.TrimRight(digits, "0")
	d.exp += len(digits) - len(t)
	d.digits = t
	if t == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// cmpMag compares |a| and |b|.
func cmpMag(a, b dec) int {
	switch {
	case a.digits == "" && b.digits == "":
		return 0
	case a.digits == "":
		return -1
	case b.digits == "":
		return 1
	}
	// order of magnitude: position of the leading digit
	ma, mb := a.exp+len(a.digits), b.exp+len(b.digits)
	if ma != mb {
		if ma < mb {
			return -1
		}
		return 1
	}
	// same magnitude: compare digit strings padded on the right
	n := max(len(a.digits), len(b.digits))
	for i := 0; i < n; i++ {
		var x, y byte = '0', '0'
		if i < len(a.digits) {
			x = a.digits[i]
		}
		if i < len(b.digits) {
			y = b.digits[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func numCmp(a, b string) int {
	if a == b {
		return 0
	}
	x, ok1 := parseDec(a)
	y, ok2 := parseDec(b)
	if !ok1 || !ok2 {
		return strings.Compare(a, b)
	}
	switch {
	case x.neg && !y.neg:
		return -1
	case !x.neg && y.neg:
		return 1
	case x.neg:
		return -cmpMag(x, y)
	}
	return cmpMag(x, y)
}

// divides reports whether b/a is an integer (a divides b), for multipleOf.
// The second result is false when it cannot tell (zero, or exponents too
// far apart to compute).
func divides(a, b string) (bool, bool) {
	x, ok1 := parseDec(a)
	y, ok2 := parseDec(b)
	if !ok1 || !ok2 || x.digits == "" {
		return false, false
	}
	if y.digits == "" {
		return true, true
	}
	// b/a = (Y/X) × 10^(ey-ex)
	shift := y.exp - x.exp
	if shift > 400 || shift < -400 || len(x.digits) > 400 || len(y.digits) > 400 {
		return false, false
	}
	var X, Y big.Int
	X.SetString(x.digits, 10)
	Y.SetString(y.digits, 10)
	ten := big.NewInt(10)
	var p big.Int
	if shift >= 0 {
		p.Exp(ten, big.NewInt(int64(shift)), nil)
		Y.Mul(&Y, &p)
	} else {
		p.Exp(ten, big.NewInt(int64(-shift)), nil)
		X.Mul(&X, &p)
	}
	var r big.Int
	r.Rem(&Y, &X)
	return r.Sign() == 0, true
}

type optStr struct{ v *value }

type named struct {
	name string
	n    *node
}

type depReq struct {
	name  string
	names []string
	raw   *value
}

// node is one schema location after normalisation. Fields are read only
// through a resolved node (doc.res), which has followed pure $ref and
// singleton-composition wrappers and folded the null encodings.
type node struct {
	d      *doc
	raw    *value
	filled bool // keywords read (lazily: unchanged subtrees are never read)

	// The JSON pointer of the raw location is built on first use from the
	// parent's pointer and up to two tokens (most nodes never need it).
	ptrS  string
	ptrOK bool
	pn    uint8
	pp    *node
	pt1   string
	pt2   string

	// Resolution.
	aliasTo   *node  // pure wrapper target
	aliasKind string // "$ref", "allOf", "anyOf", "oneOf"
	res       *node
	resState  uint8
	isFalse   bool

	// keywords is allocated when the node is read (doc.load), so a subtree
	// the walk never enters costs one small shell per schema.
	*keywords
}

// keywords are a node's normalised keywords.
type keywords struct {
	refStr   string // $ref as written
	nullWrap string // set on a resolved copy made for an X-or-null wrapper
	nullPtr  string // where the null came from, for messages
	nullRaw  *value
	// foldedFrom keeps the branches of a union of plain types that was
	// folded into a type set, so a union on the other side pairs with them.
	foldedFrom []*node
	// opaque nodes cannot be interpreted (invalid schema, unresolvable or
	// looping $ref); they compare equal only to an identical opaque node.
	opaque    string
	opaqueKey string
	unresRef  bool

	hasType bool
	types   uint8
	typeRaw *value
	orNull  bool

	hasConst bool
	constV   *value
	hasEnum  bool
	enumV    *value
	vals     []string // allowed values (canonical), sorted; valid when hasVals
	valVals  []*value
	hasVals  bool

	minimum, maximum, exclMin, exclMax, multipleOf num
	minLength, maxLength                           num
	minItems, maxItems, minContains, maxContains   num
	minProps, maxProps                             num

	pattern, format, contentEncoding, contentMediaType optStr
	contentSchema                                      *node

	props      []named
	required   []string
	reqRaw     *value
	addl       *node
	uneval     *node
	patProps   []named
	propNames  *node
	depReq     []depReq
	depSchemas []named

	prefix      []*node
	items       *node
	unevalItems *node
	contains    *node
	unique      bool

	allOf, anyOf, oneOf    []*node
	not, ifS, thenS, elseS *node

	unknown []member
	ann     []member

	// rawKw records the keyword as written where normalisation renamed it
	// (draft-07 items array → prefixItems, additionalItems → items,
	// dependencies → dependentRequired/dependentSchemas).
	rawKw map[string]string
	// boolean draft-04 exclusives, resolved in finish
	exclMinBool, exclMaxBool bool
	nullable                 bool
}

func (n *node) kw(k string) string {
	if n.rawKw != nil {
		if r, ok := n.rawKw[k]; ok {
			return r
		}
	}
	return k
}

func (n *node) setRawKw(k, raw string) {
	if n.rawKw == nil {
		n.rawKw = map[string]string{}
	}
	n.rawKw[k] = raw
}

func (n *node) annGet(k string) *value {
	for _, m := range n.ann {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

// doc is one parsed schema document.
type doc struct {
	root    *value
	legacy  bool // draft-04/06/07: siblings of $ref are ignored
	id      string
	anchors map[string]anchorLoc
	err     error
	slab    []node
}

type anchorLoc struct {
	v   *value
	ptr string
}

func newDoc(data []byte, defaultDialect string) *doc {
	d := &doc{}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	v, err := parseJSON(data)
	if err != nil {
		d.err = err
		d.root = &value{kind: vObj}
		return d
	}
	d.root = v
	dialect := defaultDialect
	if s := v.get("$schema"); s != nil && s.kind == vStr {
		dialect = s.s
	}
	d.legacy = isLegacyDialect(dialect)
	if id := v.get("$id"); id != nil && id.kind == vStr {
		d.id, _, _ = strings.Cut(id.s, "#")
	} else if id := v.get("id"); id != nil && id.kind == vStr && d.legacy {
		d.id, _, _ = strings.Cut(id.s, "#")
	}
	return d
}

func isLegacyDialect(s string) bool {
	for _, x := range []string{"draft-03", "draft-04", "draft-05", "draft-06", "draft-07", "draft3", "draft4", "draft6", "draft7"} {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func (d *doc) rootNode() *node { return d.node(d.root, "") }

// node returns the node for raw value v, building it on first use. Nodes
// are memoised by raw identity, so a subschema reached inline and through
// a $ref is one node, and cycles terminate.
func (d *doc) node(v *value, ptr string) *node {
	if v.node != nil {
		return v.node
	}
	n := d.newNode(v)
	n.ptrS, n.ptrOK = ptr, true
	return n
}

// under returns the node for v found under parent at tokens t1 (and t2 when
// nt is 2).
func (d *doc) under(v *value, parent *node, nt uint8, t1, t2 string) *node {
	if v.node != nil {
		return v.node
	}
	n := d.newNode(v)
	n.pp, n.pn, n.pt1, n.pt2 = parent, nt, t1, t2
	return n
}

func (d *doc) newNode(v *value) *node {
	if len(d.slab) == cap(d.slab) {
		d.reserve(8)
	}
	d.slab = d.slab[:len(d.slab)+1]
	n := &d.slab[len(d.slab)-1]
	n.d, n.raw = d, v
	v.node = n
	switch v.kind {
	case vBool:
		n.isFalse = !v.b
	case vObj:
	default:
		n.filled = true
		n.keywords = &keywords{
			opaque:    "not a schema (a JSON " + kindName(v.kind) + ")",
			opaqueKey: "invalid:" + canonString(v),
		}
	}
	return n
}

// reserve makes room for n more nodes in one allocation.
func (d *doc) reserve(n int) {
	if cap(d.slab)-len(d.slab) < n {
		d.slab = make([]node, 0, n)
	}
}

// P is the node's JSON pointer.
func (n *node) P() string {
	if !n.ptrOK {
		switch n.pn {
		case 1:
			n.ptrS = ptrJoin(n.pp.P(), n.pt1)
		case 2:
			n.ptrS = ptrJoin(n.pp.P(), n.pt1, n.pt2)
		}
		n.ptrOK = true
	}
	return n.ptrS
}

// load reads n's keywords on first use.
func (d *doc) load(n *node) {
	if n.filled {
		return
	}
	n.filled = true
	n.keywords = new(keywords)
	if n.raw.kind == vObj && n.opaque == "" {
		d.fill(n, n.raw)
	}
}

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
	// Integer bounds at ±(2^53−1) are what generators write for "any
	// integer"; they exclude no interoperable value.
	if n.hasType && n.types&tNumber == tInt && n.types&^(tInt|tNull) == 0 {
		if n.minimum.v != nil && n.minimum.v.s == "-9007199254740991" {
			n.minimum = num{}
		}
		if n.maximum.v != nil && n.maximum.v.s == "9007199254740991" {
			n.maximum = num{}
		}
	}
	// Keywords that constrain nothing.
	for _, p := range []*num{&n.minLength, &n.minItems, &n.minProps} {
		if p.v != nil && p.v.s == "0" {
			*p = num{}
		}
	}
	if n.contains == nil {
		n.minContains, n.maxContains = num{}, num{}
	} else if n.minContains.v == nil {
		n.minContains = num{oneValue} // the default, made explicit
	}
	if n.pattern.v != nil && universalPattern(n.pattern.v.s) {
		n.pattern = optStr{}
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
func (n *node) hasOwnAssertions() bool {
	return n.isFalse || n.opaque != "" || n.hasType || n.hasVals || n.orNull ||
		n.minimum.v != nil || n.maximum.v != nil || n.exclMin.v != nil || n.exclMax.v != nil || n.multipleOf.v != nil ||
		n.minLength.v != nil || n.maxLength.v != nil || n.minItems.v != nil || n.maxItems.v != nil ||
		n.minContains.v != nil || n.maxContains.v != nil || n.minProps.v != nil || n.maxProps.v != nil ||
		n.pattern.v != nil || n.format.v != nil || n.contentEncoding.v != nil || n.contentMediaType.v != nil ||
		n.contentSchema != nil || len(n.props) > 0 || len(n.required) > 0 || n.addl != nil ||
		n.uneval != nil || len(n.patProps) > 0 || n.propNames != nil || len(n.depReq) > 0 ||
		len(n.depSchemas) > 0 || len(n.prefix) > 0 || n.items != nil || n.unevalItems != nil ||
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

// ---- resolution ----

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
			continue
		}
		out = append(out, b)
	}
	n.orNull = true
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
	c.nullPtr = w.P()
	c.nullRaw = w.raw
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

func (d *doc) lookupRef(ref string) (*node, string) {
	r := ref
	if d.id != "" && strings.HasPrefix(r, d.id) {
		r = r[len(d.id):]
	}
	if r == "" {
		return d.rootNode(), ""
	}
	if r[0] != '#' {
		return nil, "external $ref " + strconv.Quote(ref) + " is not resolved (external references are off)"
	}
	frag, err := url.PathUnescape(r[1:])
	if err != nil {
		return nil, "$ref " + strconv.Quote(ref) + " is not a valid URI fragment"
	}
	if frag == "" || frag[0] == '/' {
		v, ok := lookupPointer(d.root, frag)
		if !ok || !isSchemaValue(v) {
			return nil, "$ref " + strconv.Quote(ref) + " points at nothing in this schema"
		}
		return d.node(v, frag), ""
	}
	if d.anchors == nil {
		d.anchors = map[string]anchorLoc{}
		d.indexAnchors(d.root, "", 0)
	}
	if a, ok := d.anchors[frag]; ok {
		return d.node(a.v, a.ptr), ""
	}
	return nil, "$ref " + strconv.Quote(ref) + " names an anchor this schema does not define"
}

func (d *doc) indexAnchors(v *value, ptr string, depth int) {
	if depth > 256 {
		return
	}
	switch v.kind {
	case vObj:
		if a := v.get("$anchor"); a != nil && a.kind == vStr {
			if _, dup := d.anchors[a.s]; !dup {
				d.anchors[a.s] = anchorLoc{v, ptr}
			}
		}
		for _, k := range []string{"$id", "id"} {
			if a := v.get(k); a != nil && a.kind == vStr && strings.HasPrefix(a.s, "#") && len(a.s) > 1 {
				if _, dup := d.anchors[a.s[1:]]; !dup {
					d.anchors[a.s[1:]] = anchorLoc{v, ptr}
				}
			}
		}
		for _, m := range v.members() {
			d.indexAnchors(m.v, ptrJoin(ptr, m.k), depth+1)
		}
	case vArr:
		for i, e := range v.elems() {
			d.indexAnchors(e, ptrJoin(ptr, strconv.Itoa(i)), depth+1)
		}
	}
}
