package schemadiff

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A small JSON reader of our own: schemas are compared as trees of values
// whose objects are sorted by key and whose numbers are already in one
// canonical text form, so equality and the canonical encoding used for
// Before/After are cheap and never go through reflection.

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

const maxJSONDepth = 10000

var errTooDeep = errors.New("nesting too deep")

// parser reads one document. The first pass (parseJSON) validates all of
// it; later passes (load) re-read spans known to be valid.
type parser struct {
	src   string
	i     int
	off   int // offset of src in the document
	depth int
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
// trailing data is not.
//
// The values share data's memory (no copy): data must not change while
// the values are in use. Compare keeps nothing of it in its result.
func parseJSON(data []byte) (*value, error) {
	p := &parser{src: unsafe.String(unsafe.SliceData(data), len(data))}
	p.root = p
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.src) {
		return nil, fmt.Errorf("offset %d: unexpected data after the top-level value", p.i)
	}
	p.valid = true
	return v, nil
}

type span struct{ start, end int32 }

// sub is a parser over a span of an already validated document, sharing
// the document's arenas.
func (p *parser) sub(src string, off int) *parser {
	return &parser{src: src, off: off, valid: true, root: p.root}
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

func (p *parser) ws() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) errf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

// value reads a value at p.i. Containers below the top level are only
// skipped (and validated, on the first pass) and come back lazy.
func (p *parser) value() (*value, error) {
	if p.i >= len(p.src) {
		return nil, p.errf("unexpected end of input")
	}
	switch c := p.src[p.i]; {
	case c == '{' || c == '[':
		start := p.i
		if err := p.skip(); err != nil {
			return nil, err
		}
		v := p.alloc()
		v.kind = vObj
		if c == '[' {
			v.kind = vArr
		}
		v.lazy, v.hasSpan, v.s, v.p, v.off = true, true, p.src[start:p.i], p.root, int32(p.off+start)
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
	case c == 't':
		return p.lit("true", vBool, true)
	case c == 'f':
		return p.lit("false", vBool, false)
	case c == 'n':
		return p.lit("null", vNull, false)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.errf("unexpected character %q", c)
	}
}

func (p *parser) lit(word string, k vkind, b bool) (*value, error) {
	if !strings.HasPrefix(p.src[p.i:], word) {
		return nil, p.errf("invalid literal")
	}
	p.i += len(word)
	v := p.alloc()
	v.kind = k
	v.b = b
	return v, nil
}

// scanNumber checks the number grammar at p.i and returns its text.
func (p *parser) scanNumber() (string, error) {
	start := p.i
	if p.src[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if n := digits(); n == 0 {
		return "", p.errf("invalid number")
	} else if n > 1 && p.src[intStart] == '0' {
		return "", p.errf("invalid number: leading zero")
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return "", p.errf("invalid number")
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return "", p.errf("invalid number")
		}
	}
	return p.src[start:p.i], nil
}

func (p *parser) number() (*value, error) {
	text, err := p.scanNumber()
	if err != nil {
		return nil, err
	}
	v := p.alloc()
	v.kind = vNum
	v.s = canonNumber(text)
	return v, nil
}

// str parses a JSON string at p.i (which is '"'). Strings without escapes
// share the source's memory.
func (p *parser) str() (string, error) {
	p.i++
	start := p.i
	ascii := true
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			s := p.src[start:p.i]
			p.i++
			if !ascii && !utf8.ValidString(s) {
				s = strings.ToValidUTF8(s, "\uFFFD")
			}
			return s, nil
		case c == '\\':
			return p.strSlow(start)
		case c < 0x20:
			return "", p.errf("control character in string")
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", p.errf("unterminated string")
}

func (p *parser) strSlow(start int) (string, error) {
	var sb strings.Builder
	sb.WriteString(p.src[start:p.i])
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			s := sb.String()
			if !utf8.ValidString(s) {
				s = strings.ToValidUTF8(s, "\uFFFD")
			}
			return s, nil
		case c < 0x20:
			return "", p.errf("control character in string")
		case c != '\\':
			sb.WriteByte(c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.src) {
			break
		}
		e := p.src[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			sb.WriteByte(e)
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if strings.HasPrefix(p.src[p.i:], "\\u") {
					save := p.i
					p.i += 2
					var ok2 bool
					r2, ok2 = p.hex4()
					if !ok2 {
						return "", p.errf("invalid \\u escape")
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						sb.WriteRune(d)
						continue
					}
					p.i = save
				}
				sb.WriteRune(utf8.RuneError)
				continue
			}
			sb.WriteRune(r)
		default:
			return "", p.errf("invalid escape")
		}
	}
	return "", p.errf("unterminated string")
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.src) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.src[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

// skip moves p.i past the value at p.i. On the first pass it checks the
// grammar (and nesting depth); on an already valid document it only finds
// the end.
func (p *parser) skip() error {
	if p.valid {
		p.skipKnown()
		return nil
	}
	if p.i >= len(p.src) {
		return p.errf("unexpected end of input")
	}
	switch c := p.src[p.i]; c {
	case '{', '[':
		k := len(p.ends)
		p.ends = append(p.ends, span{start: int32(p.i)})
		if err := p.skipContainer(c); err != nil {
			return err
		}
		p.ends[k].end = int32(p.i)
		return nil
	}
	return p.skipScalar()
}

func (p *parser) skipContainer(c byte) error {
	switch c {
	case '{':
		p.depth++
		if p.depth > maxJSONDepth {
			return errTooDeep
		}
		p.i++
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			p.depth--
			return nil
		}
		for {
			p.ws()
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				return p.errf("expected object key")
			}
			if err := p.skipString(); err != nil {
				return err
			}
			p.ws()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return p.errf("expected :")
			}
			p.i++
			p.ws()
			if err := p.skip(); err != nil {
				return err
			}
			p.ws()
			if p.i >= len(p.src) {
				return p.errf("unterminated object")
			}
			if p.src[p.i] == ',' {
				p.i++
				continue
			}
			if p.src[p.i] == '}' {
				p.i++
				p.depth--
				return nil
			}
			return p.errf("expected , or }")
		}
	case '[':
		p.depth++
		if p.depth > maxJSONDepth {
			return errTooDeep
		}
		p.i++
		p.ws()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			p.depth--
			return nil
		}
		for {
			p.ws()
			if err := p.skip(); err != nil {
				return err
			}
			p.ws()
			if p.i >= len(p.src) {
				return p.errf("unterminated array")
			}
			if p.src[p.i] == ',' {
				p.i++
				continue
			}
			if p.src[p.i] == ']' {
				p.i++
				p.depth--
				return nil
			}
			return p.errf("expected , or ]")
		}
	}
	return nil
}

func (p *parser) skipScalar() error {
	switch c := p.src[p.i]; {
	case c == '"':
		return p.skipString()
	case c == 't':
		return p.skipLit("true")
	case c == 'f':
		return p.skipLit("false")
	case c == 'n':
		return p.skipLit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := p.scanNumber()
		return err
	}
	return p.errf("unexpected character %q", p.src[p.i])
}

// skipKnown moves past the container at p.i using the ends the first pass
// recorded.
func (p *parser) skipKnown() {
	at := int32(p.off + p.i)
	ends := p.root.ends
	k, ok := slices.BinarySearchFunc(ends, at, func(s span, at int32) int { return cmpInt32(s.start, at) })
	if !ok {
		p.skipFast()
		return
	}
	p.i = int(ends[k].end) - p.off
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

func (p *parser) skipLit(word string) error {
	if !strings.HasPrefix(p.src[p.i:], word) {
		return p.errf("invalid literal")
	}
	p.i += len(word)
	return nil
}

// skipString checks a string at p.i without building it.
func (p *parser) skipString() error {
	p.i++
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return nil
		case c < 0x20:
			return p.errf("control character in string")
		case c == '\\':
			p.i++
			if p.i >= len(p.src) {
				return p.errf("unterminated string")
			}
			switch p.src[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if p.i+4 >= len(p.src) {
					return p.errf("invalid \\u escape")
				}
				if _, err := strconv.ParseUint(p.src[p.i+1:p.i+5], 16, 32); err != nil {
					return p.errf("invalid \\u escape")
				}
				p.i += 4
			default:
				return p.errf("invalid escape")
			}
		}
		p.i++
	}
	return p.errf("unterminated string")
}

// skipFast finds the end of a value in text known to be valid.
func (p *parser) skipFast() {
	depth := 0
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '"':
			p.i++
			for p.i < len(p.src) {
				c := p.src[p.i]
				if c == '\\' {
					p.i += 2
					continue
				}
				p.i++
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
				p.i++
				return
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return
			}
		}
		p.i++
	}
}

// arrayInto reads the array at the start of p.src into v.
func (p *parser) arrayInto(v *value) {
	p.i = 1
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		return
	}
	base := len(p.root.vstack)
	for {
		p.ws()
		e, err := p.value()
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		p.root.vstack = append(p.root.vstack, e)
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != ',' {
			break
		}
		p.i++
	}
	v.arr = p.root.takeValues(base)
}

// objectInto reads the object at the start of p.src into v, sorted by key.
func (p *parser) objectInto(v *value) {
	p.i = 1
	p.ws()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		return
	}
	r := p.root
	sorted := true
	base := len(r.mstack)
	for {
		p.ws()
		k, err := p.str()
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		p.ws()
		p.i++ // ':'
		p.ws()
		e, err := p.value()
		if err != nil {
			panic("schemadiff: re-reading validated JSON: " + err.Error())
		}
		if n := len(r.mstack); n > base && r.mstack[n-1].k >= k {
			sorted = false
		}
		r.mstack = append(r.mstack, member{k, e})
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != ',' {
			break
		}
		p.i++
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

// canonNumber returns the one text form of a JSON number: no exponent
// while the integer has at most 21 digits, no trailing fraction zeros,
// "-0" as "0", otherwise d.ddde±N. Equal numbers give equal text.
func canonNumber(s string) string {
	// Fast path: a plain integer without leading zeros.
	plain := len(s) > 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && !(i == 0 && c == '-') {
			plain = false
			break
		}
	}
	if plain {
		n := len(s)
		if s[0] == '-' {
			n--
		}
		if n <= 21 && s != "-0" {
			return s
		}
	}
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	intPart, frac, exp := s, "", 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			// Exponent too large for an int: keep the text as is; it is
			// still a deterministic form for this input.
			if neg {
				return "-" + s
			}
			return s
		}
		exp = e
		intPart = s[:i]
	}
	if i := strings.IndexByte(intPart, '.'); i >= 0 {
		frac = intPart[i+1:]
		intPart = intPart[:i]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if digits == "" {
		return "0"
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	var out string
	n := len(digits)
	switch {
	case exp >= 0 && n+exp <= 21:
		out = digits + strings.Repeat("0", exp)
	case exp < 0 && -exp < n:
		out = digits[:n+exp] + "." + digits[n+exp:]
	case exp < 0 && -exp-n < 6:
		out = "0." + strings.Repeat("0", -exp-n) + digits
	default:
		e := exp + n - 1
		out = digits[:1]
		if n > 1 {
			out += "." + digits[1:]
		}
		if e >= 0 {
			out += "e+" + strconv.Itoa(e)
		} else {
			out += "e" + strconv.Itoa(e)
		}
	}
	if neg {
		out = "-" + out
	}
	return out
}

// appendCanon appends the canonical encoding of v: keys sorted, compact,
// canonical numbers, minimal string escapes without HTML escaping.
func appendCanon(buf []byte, v *value) []byte {
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
		return appendString(buf, v.s)
	case vArr:
		buf = append(buf, '[')
		for i, e := range v.elems() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendCanon(buf, e)
		}
		return append(buf, ']')
	case vObj:
		buf = append(buf, '{')
		for i, m := range v.members() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, m.k)
			buf = append(buf, ':')
			buf = appendCanon(buf, m.v)
		}
		return append(buf, '}')
	}
	return buf
}

const hexDigits = "0123456789abcdef"

func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// canon returns the canonical JSON of v, or nil for a nil value.
func canon(v *value) []byte {
	if v == nil {
		return nil
	}
	return appendCanon(nil, v)
}

// canonString is canon as a string, used as a set key.
func canonString(v *value) string { return string(appendCanon(nil, v)) }

// short renders v for a message: canonical JSON cut to a readable length.
func short(v *value) string {
	if v == nil {
		return "(absent)"
	}
	b := appendCanon(nil, v)
	const max = 80
	if len(b) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut]) + "…"
	}
	return string(b)
}

// JSON Pointer helpers (RFC 6901).

func ptrEscape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	s = strings.ReplaceAll(s, "~", "~0")
	return strings.ReplaceAll(s, "/", "~1")
}

func ptrJoin(base string, toks ...string) string {
	n := len(base)
	for _, t := range toks {
		n += 1 + len(t)
	}
	b := make([]byte, 0, n)
	b = append(b, base...)
	for _, t := range toks {
		b = append(b, '/')
		b = append(b, ptrEscape(t)...)
	}
	return string(b)
}

// lookupPointer resolves an RFC 6901 pointer (already URI-fragment decoded)
// in doc.
func lookupPointer(doc *value, ptr string) (*value, bool) {
	if ptr == "" {
		return doc, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
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
