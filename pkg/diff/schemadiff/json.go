package schemadiff

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
)

// A small JSON reader of our own: schemas are compared as trees of values
// whose objects are sorted by key and whose numbers are already in one
// canonical text form, so equality and the canonical encoding used for
// Before/After are cheap and never go through reflection.
//
// It is not a second JSON grammar: the project's one scanner (canonjson)
// validates every document, and numbers and strings take canonjson's
// canonical forms. What it adds is laziness, and BenchmarkReader
// (reader_bench_test.go) shows what that is worth: reading a document
// costs about a quarter of the CPU time of canonjson.Decode (which would
// still leave keys to sort and numbers to canonicalize), and comparing two
// 2,000-property schemas that differ in one place costs less than
// decoding one of them with canonjson, because only the changed path is
// ever split into members.

type vkind uint8

const (
	vNull vkind = iota
	vBool
	vNum
	vStr
	vArr
	vObj
)

// value is one parsed JSON value. Objects keep their members sorted by key
// (a duplicated key keeps its last value, as encoding/json does). Numbers
// hold their canonical text in s.
//
// Containers are parsed lazily: the document is validated in one pass, but
// an array or object is only split into members when something reads it
// (load). s keeps the container's text as written, so two subtrees that
// are the same bytes, the common case between two canonical snapshots, are
// equal without being parsed.
type value struct {
	kind    vkind
	b       bool
	lazy    bool // a container whose members are not read yet
	hasSpan bool
	refDone bool
	ref     bool
	off     int32 // containers: offset of s in the document
	// s is a string's contents, a number's canonical text, or a
	// container's text as written (when hasSpan).
	s   string
	arr []*value
	obj []member
	p   *parser // reads lazy containers
	// node is the schema node built for this value, if any (one document
	// owns each value, so this is the per-document memo).
	node *node
}

type member struct {
	k string
	v *value
}

// load reads a lazy container's members.
func (v *value) load() {
	if !v.lazy {
		return
	}
	v.lazy = false
	q := v.p.sub(v.s, int(v.off))
	switch v.kind {
	case vArr:
		q.arrayInto(v)
	case vObj:
		q.objectInto(v)
	}
}

// get returns the member value for key k, or nil.
func (v *value) get(k string) *value {
	if v == nil || v.kind != vObj {
		return nil
	}
	v.load()
	i, ok := slices.BinarySearchFunc(v.obj, k, func(m member, k string) int { return strings.Compare(m.k, k) })
	if !ok {
		return nil
	}
	return v.obj[i].v
}

// members returns an object's members (loading it).
func (v *value) members() []member {
	v.load()
	return v.obj
}

// elems returns an array's elements (loading it).
func (v *value) elems() []*value {
	v.load()
	return v.arr
}

// hasRef reports whether the value might contain a key whose meaning
// depends on something outside the subtree ($ref, $dynamicRef,
// $recursiveRef); raw equality proves nothing then. Conservative: any text
// that looks like such a key counts.
func (v *value) hasRef() bool {
	if v.kind != vObj && v.kind != vArr {
		return false
	}
	if !v.refDone {
		v.refDone = true
		if v.hasSpan {
			v.ref = strings.Contains(v.s, `$ref"`) || strings.Contains(v.s, `Ref"`)
		} else {
			v.ref = true
		}
	}
	return v.ref
}

// parser reads one document. The first pass (parseJSON) validates all of
// it with the project's one JSON scanner; later passes (load) re-read
// spans known to be valid.
type parser struct {
	canonjson.Scanner
	// src is the scanner's data as a string: strings and container texts
	// are cut from it without a copy.
	src   string
	off   int  // offset of src in the document
	valid bool // src is known to be valid JSON: skip without checking
	root  *parser
	// ends records, in document order, where each container ends; the first
	// pass fills it, loads look ends up instead of scanning again.
	ends []span
	slab []value
	// Members and elements are collected on a scratch stack and copied into
	// exactly sized slices cut from arenas: few allocations, no growth.
	mstack []member
	vstack []*value
	marena []member
	varena []*value
}

// parseJSON parses one JSON document. Trailing whitespace is allowed,
// trailing data is not; nesting is bounded by canonjson.MaxDepth.
//
// The values share data's memory (no copy): data must not change while
// the values are in use. Compare keeps nothing of it in its result.
func parseJSON(data []byte) (*value, error) {
	p := &parser{Scanner: *canonjson.NewScanner(data), src: unsafe.String(unsafe.SliceData(data), len(data))}
	p.root = p
	p.SkipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	p.valid = true
	return v, nil
}

type span struct{ start, end int32 }

// sub is a parser over a span of an already validated document, sharing
// the document's arenas.
func (p *parser) sub(src string, off int) *parser {
	data := unsafe.Slice(unsafe.StringData(src), len(src))
	return &parser{Scanner: *canonjson.NewScanner(data), src: src, off: off, valid: true, root: p.root}
}

// slabChunk keeps value chunks below the runtime's large-object size
// (32 KB), which is allocated and returned page by page.
const slabChunk = 16 << 10 / int(unsafe.Sizeof(value{}))

func (p *parser) alloc() *value {
	r := p
	if p.root != nil {
		r = p.root
	}
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]value, 0, min(max(2*cap(r.slab), 16), slabChunk))
	}
	r.slab = r.slab[:len(r.slab)+1]
	return &r.slab[len(r.slab)-1]
}

// value reads a value at Pos, depth levels below the top. Containers
// below the top level are only skipped (and validated, on the first pass)
// and come back lazy.
func (p *parser) value(depth int) (*value, error) {
	if p.Pos >= len(p.src) {
		return nil, p.Fail("unexpected end")
	}
	switch c := p.src[p.Pos]; {
	case c == '{' || c == '[':
		start := p.Pos
		if err := p.skip(depth); err != nil {
			return nil, err
		}
		v := p.alloc()
		v.kind = vObj
		if c == '[' {
			v.kind = vArr
		}
		v.lazy, v.hasSpan, v.s, v.p, v.off = true, true, p.src[start:p.Pos], p.root, int32(p.off+start)
		return v, nil
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v := p.alloc()
		v.kind = vStr
		v.s = s
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		v := p.alloc()
		v.kind = vNum
		v.s = n
		return v, nil
	}
	start := p.Pos
	if err := p.SkipScalar(); err != nil {
		return nil, err
	}
	v := p.alloc()
	switch p.src[start] {
	case 't':
		v.kind, v.b = vBool, true
	case 'f':
		v.kind = vBool
	default:
		v.kind = vNull
	}
	return v, nil
}

// number reads a number at Pos and returns its canonical text.
func (p *parser) number() (string, error) {
	lit, err := p.Number()
	if err != nil {
		return "", err
	}
	if n := len(lit); n > 0 && lit[0] != '-' && n <= 21 && allDigits(lit) {
		return p.src[p.Pos-n : p.Pos], nil // already canonical: share it
	}
	return canonjson.Number(string(lit))
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// str reads a string at Pos (which is '"'). Strings without escapes
// share the source's memory.
func (p *parser) str() (string, error) {
	start := p.Pos + 1
	raw, plain, err := p.ScanString()
	if err != nil {
		return "", err
	}
	if plain {
		return p.src[start : start+len(raw)], nil
	}
	return canonjson.Unquote(raw), nil
}

// skip moves Pos past the value at Pos, depth levels below the top. On
// the first pass it checks the grammar, the numbers and the nesting (one
// limit, canonjson's); on an already valid document it only finds the end.
func (p *parser) skip(depth int) error {
	if p.valid {
		p.skipKnown()
		return nil
	}
	if err := canonjson.CheckDepth(depth); err != nil {
		return err
	}
	switch p.Peek() {
	case '{':
		k := len(p.ends)
		p.ends = append(p.ends, span{start: int32(p.Pos)})
		if err := p.EachMember(func(string) error { return p.skip(depth + 1) }); err != nil {
			return err
		}
		p.ends[k].end = int32(p.Pos)
		return nil
	case '[':
		k := len(p.ends)
		p.ends = append(p.ends, span{start: int32(p.Pos)})
		if err := p.EachElement(func(int) error { return p.skip(depth + 1) }); err != nil {
			return err
		}
		p.ends[k].end = int32(p.Pos)
		return nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, err := p.number()
		return err
	}
	return p.SkipScalar()
}

// skipKnown moves past the container at Pos using the ends the first pass
// recorded.
func (p *parser) skipKnown() {
	at := int32(p.off + p.Pos)
	ends := p.root.ends
	k, ok := slices.BinarySearchFunc(ends, at, func(s span, at int32) int { return cmpInt32(s.start, at) })
	if !ok {
		p.skipFast()
		return
	}
	p.Pos = int(ends[k].end) - p.off
}

func cmpInt32(a, b int32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// skipFast finds the end of a value in text known to be valid.
func (p *parser) skipFast() {
	depth := 0
	for p.Pos < len(p.src) {
		switch p.src[p.Pos] {
		case '"':
			p.Pos++
			for p.Pos < len(p.src) {
				c := p.src[p.Pos]
				if c == '\\' {
					p.Pos += 2
					continue
				}
				p.Pos++
				if c == '"' {
					break
				}
			}
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				p.Pos++
				return
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
		}
		p.Pos++
	}
}

// arrayInto reads the array at the start of p.src into v.
func (p *parser) arrayInto(v *value) {
	p.Pos = 1
	p.SkipSpace()
	if p.Peek() == ']' {
		return
	}
	base := len(p.root.vstack)
	for {
		p.SkipSpace()
		e, err := p.value(0)
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		p.root.vstack = append(p.root.vstack, e)
		p.SkipSpace()
		if p.Peek() != ',' {
			break
		}
		p.Pos++
	}
	v.arr = p.root.takeValues(base)
}

// objectInto reads the object at the start of p.src into v, sorted by key.
func (p *parser) objectInto(v *value) {
	p.Pos = 1
	p.SkipSpace()
	if p.Peek() == '}' {
		return
	}
	r := p.root
	sorted := true
	base := len(r.mstack)
	for {
		p.SkipSpace()
		k, err := p.str()
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		p.SkipSpace()
		p.Pos++ // ':'
		p.SkipSpace()
		e, err := p.value(0)
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		if n := len(r.mstack); n > base && r.mstack[n-1].k >= k {
			sorted = false
		}
		r.mstack = append(r.mstack, member{k, e})
		p.SkipSpace()
		if p.Peek() != ',' {
			break
		}
		p.Pos++
	}
	obj := r.takeMembers(base)
	if !sorted {
		// Stable sort, then keep the last of each duplicated key.
		slices.SortStableFunc(obj, func(a, b member) int { return strings.Compare(a.k, b.k) })
		out := obj[:0]
		for i, m := range obj {
			if i+1 < len(obj) && obj[i+1].k == m.k {
				continue
			}
			out = append(out, m)
		}
		obj = out
	}
	v.obj = obj
}

func (p *parser) takeValues(base int) []*value {
	n := len(p.vstack) - base
	if n > cap(p.varena)-len(p.varena) {
		p.varena = make([]*value, 0, max(n, min(2*cap(p.varena), 1024), 32))
	}
	l := len(p.varena)
	p.varena = append(p.varena, p.vstack[base:]...)
	p.vstack = p.vstack[:base]
	return p.varena[l : l+n : l+n]
}

func (p *parser) takeMembers(base int) []member {
	n := len(p.mstack) - base
	if n > cap(p.marena)-len(p.marena) {
		p.marena = make([]member, 0, max(n, min(2*cap(p.marena), 1024), 32))
	}
	l := len(p.marena)
	p.marena = append(p.marena, p.mstack[base:]...)
	p.mstack = p.mstack[:base]
	return p.marena[l : l+n : l+n]
}

// rawEqual reports whether two values are the same JSON value. Equal text
// proves it without reading further.
func rawEqual(a, b *value) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.kind != b.kind {
		return false
	}
	switch a.kind {
	case vNull:
		return true
	case vBool:
		return a.b == b.b
	case vNum, vStr:
		return a.s == b.s
	case vArr:
		if a.hasSpan && b.hasSpan && a.s == b.s {
			return true
		}
		x, y := a.elems(), b.elems()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !rawEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case vObj:
		if a.hasSpan && b.hasSpan && a.s == b.s {
			return true
		}
		x, y := a.members(), b.members()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].k != y[i].k || !rawEqual(x[i].v, y[i].v) {
				return false
			}
		}
		return true
	}
	return false
}

// canonNumber returns the one text form of a JSON number (canonjson's);
// the literal is one the parser accepted.
func canonNumber(s string) string {
	n, err := canonjson.Number(s)
	if err != nil {
		panic("schemadiff: number the parser accepted: " + err.Error())
	}
	return n
}

// appendCanon appends the canonical encoding of v, canonjson's form: keys
// sorted, compact, canonical numbers, arrays of primitives sorted, the
// one string escaper.
func appendCanon(buf []byte, v *value) []byte { return appendJSON(buf, v, true) }

// appendJSON is appendCanon with the sorting of primitive arrays chosen:
// a keyword's array (required, type) is a set, but an instance's array
// (a const or enum value, a default) is a sequence: [1, 2] and [2, 1]
// are different values.
func appendJSON(buf []byte, v *value, sortPrimitives bool) []byte {
	switch v.kind {
	case vNull:
		return append(buf, "null"...)
	case vBool:
		if v.b {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case vNum:
		return append(buf, v.s...)
	case vStr:
		return canonjson.AppendString(buf, v.s)
	case vArr:
		start := len(buf)
		buf = append(buf, '[')
		elems := v.elems()
		spans := make([][2]int, 0, len(elems))
		prim := true
		for i, e := range elems {
			if i > 0 {
				buf = append(buf, ',')
			}
			st := len(buf)
			buf = appendJSON(buf, e, sortPrimitives)
			spans = append(spans, [2]int{st, len(buf)})
			prim = prim && e.kind != vArr && e.kind != vObj
		}
		if prim && sortPrimitives {
			buf = canonjson.SortElements(buf, start, spans)
		}
		return append(buf, ']')
	case vObj:
		buf = append(buf, '{')
		for i, m := range v.members() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = canonjson.AppendString(buf, m.k)
			buf = append(buf, ':')
			buf = appendJSON(buf, m.v, sortPrimitives)
		}
		return append(buf, '}')
	}
	return buf
}

// canon returns the canonical JSON of v, or nil for a nil value.
func canon(v *value) []byte {
	if v == nil {
		return nil
	}
	return appendCanon(nil, v)
}

// canonString is the key of an instance value (a const or enum value) in
// a set of values: canonical JSON whose arrays keep their order, as JSON
// Schema's equality of instances does.
func canonString(v *value) string { return string(appendJSON(nil, v, false)) }

// short renders v for a message: canonical JSON cut to a readable length.
func short(v *value) string {
	if v == nil {
		return "(absent)"
	}
	return textscan.Clip(string(appendCanon(nil, v)), 80, "…")
}

// ptrJoin appends reference tokens to a pointer.
func ptrJoin(base string, toks ...string) string {
	return jsonptr.Pointer(base).Append(toks...).String()
}

// lookupPointer resolves an RFC 6901 pointer (already URI-fragment decoded)
// in doc.
func lookupPointer(doc *value, ptr string) (*value, bool) {
	p, err := jsonptr.Parse(ptr)
	if err != nil {
		return nil, false
	}
	cur := doc
	for _, tok := range p.Tokens() {
		switch cur.kind {
		case vObj:
			cur = cur.get(tok)
			if cur == nil {
				return nil, false
			}
		case vArr:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.elems()) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			cur = cur.arr[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
