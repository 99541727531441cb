package canonjson

import (
	"bytes"
	"slices"
	"strings"
)

// Canonicalize renders raw JSON in canonical form (see the package doc).
// It refuses invalid JSON, trailing data and nesting deeper than MaxDepth.
func Canonicalize(data []byte) ([]byte, error) { return canonicalize(data, false) }

// CanonicalizeOrdered is Canonicalize for a snapshot's items: it sorts an
// array of primitives only where JSON Schema makes its order irrelevant
// (the value of required or type), and never inside a value that is data
// rather than schema (default, examples, const, _meta), where order is
// meaning: a reversed default is a different default. enum is kept in
// order too: hosts show its values to the model in the order served.
func CanonicalizeOrdered(data []byte) ([]byte, error) { return canonicalize(data, true) }

func canonicalize(data []byte, ordered bool) ([]byte, error) {
	var c canonicalizer
	return c.append(make([]byte, 0, len(data)), data, ordered)
}

// A Canonicalizer renders one value after another, keeping its scratch
// space between them, so that canonicalizing many small values (a
// snapshot's items) does not allocate it again for each. It is not safe
// for concurrent use.
type Canonicalizer struct{ c canonicalizer }

// AppendOrdered appends CanonicalizeOrdered(data) to dst.
func (z *Canonicalizer) AppendOrdered(dst, data []byte) ([]byte, error) {
	return z.c.append(dst, data, true)
}

func (c *canonicalizer) append(dst, data []byte, ordered bool) ([]byte, error) {
	c.Scanner = Scanner{data: data}
	c.ordered, c.sortNext, c.inData = ordered, false, 0
	defer func() { c.data = nil }() // keep no reference to the input
	c.SkipSpace()
	out, _, err := c.value(dst, 0)
	if err != nil {
		return nil, err
	}
	if err := c.End(); err != nil {
		return nil, err
	}
	return out, nil
}

// setKeys are the keywords whose arrays are sets; dataKeys hold data.
var (
	setKeys  = map[string]bool{"required": true, "type": true}
	dataKeys = map[string]bool{"default": true, "examples": true, "const": true, "_meta": true}
)

// canonicalizer writes canonical output in the same pass that reads the
// input, so that canonicalizing builds no tree of Go values. Object
// members are rendered into per-depth scratch space, reused across
// objects, and then emitted in key order.
type canonicalizer struct {
	Scanner
	scratch [][]byte
	members [][]member
	// ordered: sort only set-valued keywords (CanonicalizeOrdered).
	// sortNext says whether the next array is one; inData counts the
	// enclosing data values.
	ordered  bool
	sortNext bool
	inData   int
}

type member struct {
	key   string // decoded
	start int    // span of "key":value in the scratch space
	end   int
}

// value appends the canonical form of the next value; prim reports whether
// it was a primitive (not an object or array).
func (c *canonicalizer) value(out []byte, depth int) ([]byte, bool, error) {
	if err := CheckDepth(depth); err != nil {
		return nil, false, err
	}
	if c.Pos >= len(c.data) {
		return nil, false, c.Fail("unexpected end")
	}
	switch ch := c.data[c.Pos]; {
	case ch == '{':
		out, err := c.object(out, depth)
		return out, false, err
	case ch == '[':
		out, err := c.array(out, depth)
		return out, false, err
	case ch == '"':
		raw, plain, err := c.ScanString()
		if err != nil {
			return nil, false, err
		}
		if plain {
			out = append(out, '"')
			out = append(out, raw...)
			return append(out, '"'), true, nil
		}
		return AppendString(out, Unquote(raw)), true, nil
	case ch == '-' || (ch >= '0' && ch <= '9'):
		lit, err := c.Number()
		if err != nil {
			return nil, false, err
		}
		out, err = AppendNumber(out, lit)
		return out, true, err
	}
	start := c.Pos
	if err := c.SkipScalar(); err != nil {
		return nil, false, err
	}
	return append(out, c.data[start:c.Pos]...), true, nil
}

func (c *canonicalizer) object(out []byte, depth int) ([]byte, error) {
	for len(c.scratch) <= depth {
		c.scratch = append(c.scratch, nil)
		c.members = append(c.members, nil)
	}
	scratch := c.scratch[depth][:0]
	members := c.members[depth][:0]
	defer func() {
		c.scratch[depth] = scratch[:0]
		c.members[depth] = members[:0]
	}()
	err := c.EachMember(func(name string) error {
		st := len(scratch)
		scratch = append(AppendString(scratch, name), ':')
		var err error
		data := c.ordered && dataKeys[name]
		if data {
			c.inData++
		}
		c.sortNext = c.inData == 0 && setKeys[name]
		scratch, _, err = c.value(scratch, depth+1)
		if data {
			c.inData--
		}
		members = append(members, member{key: name, start: st, end: len(scratch)})
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	out = append(out, '{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue // a repeated name keeps its last value
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, scratch[m.start:m.end]...)
	}
	return append(out, '}'), nil
}

func (c *canonicalizer) array(out []byte, depth int) ([]byte, error) {
	sortable := !c.ordered || c.sortNext
	start := len(out)
	out = append(out, '[')
	var spans [][2]int
	allPrim := true
	err := c.EachElement(func(i int) error {
		if i > 0 {
			out = append(out, ',')
		}
		st := len(out)
		var prim bool
		var err error
		c.sortNext = false
		out, prim, err = c.value(out, depth+1)
		allPrim = allPrim && prim
		spans = append(spans, [2]int{st, len(out)})
		return err
	})
	if err != nil {
		return nil, err
	}
	if allPrim && sortable {
		out = SortElements(out, start, spans)
	}
	return append(out, ']'), nil
}

// SortElements puts the canonical elements of an array of primitives in
// canonical order. out[start] is the array's '[' and spans are where each
// element lies in out; the result is out up to the last element, without
// the closing ']'.
func SortElements(out []byte, start int, spans [][2]int) []byte {
	if len(spans) < 2 {
		return out
	}
	elems := make([][]byte, len(spans))
	for i, s := range spans {
		elems[i] = slices.Clone(out[s[0]:s[1]])
	}
	slices.SortFunc(elems, bytes.Compare)
	out = append(out[:start], '[')
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	return out
}
