package canonjson

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// What a JSON parser repairs without a word, and so what two parsers may
// repair differently: a repeated member name (encoding/json keeps the last
// value, others the first or refuse) and bytes that are not UTF-8 (decoded
// as U+FFFD). Canonicalize does the same repairs; Audit finds them.
const (
	ProblemDuplicateKey ProblemKind = iota + 1
	ProblemInvalidUTF8
)

// ProblemKind is what Audit found.
type ProblemKind int

// A Problem is one repair Audit found.
type Problem struct {
	Kind ProblemKind
	// Pointer is where: the repeated member (duplicate-key), or the string
	// value or the member whose name holds the bytes (invalid-utf8).
	Pointer jsonptr.Pointer
	// Key is the repeated name, decoded (duplicate-key).
	Key string
	// Count is how many times the name appears in its object.
	Count int
}

// Audit walks a JSON document and reports every repeated member name and
// every string that is not valid UTF-8, in document order, with their
// pointers. It refuses invalid JSON and nesting beyond MaxDepth, like
// Canonicalize. Documents without problems cost one scan and no pointer.
func Audit(data []byte) ([]Problem, error) {
	a := auditor{Scanner: Scanner{data: data}}
	a.SkipSpace()
	if err := a.value(0); err != nil {
		return nil, err
	}
	if err := a.End(); err != nil {
		return nil, err
	}
	return a.found, nil
}

// CheckUnique returns a *DuplicateKeyError for the first repeated member
// name in data, nil when there is none (or data is not JSON: its reader
// reports that).
func CheckUnique(data []byte) error {
	ps, err := Audit(data)
	if err != nil {
		return nil
	}
	for _, p := range ps {
		if p.Kind == ProblemDuplicateKey {
			return &DuplicateKeyError{Key: p.Key, Pointer: p.Pointer, Count: p.Count}
		}
	}
	return nil
}

// DuplicateKeyError is an object that names a member more than once.
type DuplicateKeyError struct {
	Key     string
	Pointer jsonptr.Pointer // the member
	Count   int
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("duplicate key %q at %q (%d times in one object; which value counts depends on the JSON parser)", e.Key, e.Pointer, e.Count)
}

type auditor struct {
	Scanner
	// path holds the raw (still escaped) tokens to the current value;
	// pointers are built from it only when a problem is found.
	path  []token
	found []Problem
	// names is per-depth scratch space for the names of an open object.
	names []*nameSet
	// outline, when set, receives the top-level members' spans, and
	// makes the walk go on past MaxDepth (see Outline).
	outline *Outline
}

type token struct {
	raw   []byte // a member name as written
	index int    // an element's index when raw is nil
}

func (a *auditor) value(depth int) error {
	if err := CheckDepth(depth); err != nil {
		if a.outline == nil {
			return err
		}
		a.outline.Deep = true
	}
	switch c := a.Peek(); {
	case c == '{':
		if err := a.checkNesting(depth); err != nil {
			return err
		}
		return a.object(depth)
	case c == '[':
		if err := a.checkNesting(depth); err != nil {
			return err
		}
		var elems *[][2]int
		if depth == 1 && a.outline != nil && a.outline.Object {
			m := &a.outline.Members[len(a.outline.Members)-1]
			m.Array = true
			elems = &m.Elements
		}
		return a.EachElement(func(i int) error {
			a.path = append(a.path, token{index: i})
			start := a.Pos
			err := a.value(depth + 1)
			a.path = a.path[:len(a.path)-1]
			if elems != nil {
				*elems = append(*elems, [2]int{start, a.Pos})
			}
			return err
		})
	case c == '"':
		raw, _, err := a.ScanString()
		if err == nil && a.outline == nil && !validUTF8(raw) {
			a.found = append(a.found, Problem{Kind: ProblemInvalidUTF8, Pointer: a.pointer("")})
		}
		return err
	}
	return a.SkipScalar()
}

func (a *auditor) object(depth int) error {
	for len(a.names) <= depth {
		a.names = append(a.names, &nameSet{})
	}
	names := a.names[depth]
	names.reset()
	var dups map[string]int
	a.Pos++ // {
	a.SkipSpace()
	if a.Peek() == '}' {
		a.Pos++
		return nil
	}
	for {
		a.SkipSpace()
		if a.Peek() != '"' {
			return a.Fail("expected a member name")
		}
		raw, plain, err := a.ScanString()
		if err != nil {
			return err
		}
		a.path = append(a.path, token{raw: raw})
		if a.outline == nil && !validUTF8(raw) {
			a.found = append(a.found, Problem{Kind: ProblemInvalidUTF8, Pointer: a.pointer("")})
		}
		if names.add(raw) {
			if dups == nil {
				dups = map[string]int{}
			}
			dups[a.pointer("").String()]++
		}
		a.SkipSpace()
		if a.Peek() != ':' {
			return a.Fail("expected ':'")
		}
		a.Pos++
		a.SkipSpace()
		if depth == 0 && a.outline != nil {
			name := string(raw)
			if !plain {
				name = Unquote(raw)
			}
			a.outline.Members = append(a.outline.Members, Member{Name: name})
		}
		start := a.Pos
		err = a.value(depth + 1)
		a.path = a.path[:len(a.path)-1]
		if depth == 0 && a.outline != nil && err == nil {
			// The member is added before its value is walked, so that
			// an array value can record its elements in it.
			a.outline.Members[len(a.outline.Members)-1].Start = start
			a.outline.Members[len(a.outline.Members)-1].End = a.Pos
		}
		if err != nil {
			return err
		}
		done, err := a.next('}')
		if err != nil {
			return err
		}
		if done {
			break
		}
	}
	if len(dups) == 0 {
		return nil
	}
	// One problem per repeated name, in the order of first appearance.
	for _, k := range names.keys {
		ptr := a.pointer(Unquote(k))
		n, ok := dups[ptr.String()]
		if !ok {
			continue
		}
		delete(dups, ptr.String())
		a.found = append(a.found, Problem{Kind: ProblemDuplicateKey, Pointer: ptr, Key: Unquote(k), Count: n + 1})
	}
	return nil
}

// pointer is the pointer to the current value, plus a member name when
// one is given.
func (a *auditor) pointer(member string) jsonptr.Pointer {
	p := jsonptr.Root
	for _, t := range a.path {
		if t.raw == nil {
			p = p.AppendIndex(t.index)
		} else {
			p = p.Append(Unquote(t.raw))
		}
	}
	if member != "" {
		p = p.Append(member)
	}
	return p
}

// validUTF8 reports whether a string body as written holds only UTF-8;
// escapes are ASCII, so they never make it invalid.
func validUTF8(raw []byte) bool {
	for _, c := range raw {
		if c >= utf8.RuneSelf {
			return utf8.Valid(raw)
		}
	}
	return true
}

// nameSet holds the member names of one object as written, and tells a
// repeated one.
type nameSet struct {
	keys [][]byte
	// Past a few names, look-ups go through maps: raw holds the names
	// without escapes as written, all every name decoded, escaped the
	// names with escapes decoded.
	raw, all, escaped map[string]bool
}

// setLinear is how many names are compared one by one: most objects are
// small, and then a linear look-up beats a map.
const setLinear = 16

func (n *nameSet) reset() {
	n.keys = n.keys[:0]
	n.raw, n.all, n.escaped = nil, nil, nil
}

// add adds a name and reports whether the object already had it. Names
// as written are the same name when their bytes are equal, or, when
// either has an escape, when they decode to the same text.
func (n *nameSet) add(raw []byte) bool {
	seen := false
	switch {
	case len(n.keys) < setLinear:
		for _, k := range n.keys {
			if bytes.Equal(k, raw) || (bytes.IndexByte(raw, '\\') >= 0 || bytes.IndexByte(k, '\\') >= 0) && Unquote(k) == Unquote(raw) {
				seen = true
				break
			}
		}
	default:
		if n.raw == nil {
			n.raw, n.all, n.escaped = map[string]bool{}, map[string]bool{}, map[string]bool{}
			for _, k := range n.keys {
				n.index(k)
			}
		}
		if bytes.IndexByte(raw, '\\') >= 0 {
			seen = n.all[Unquote(raw)]
		} else {
			seen = n.raw[string(raw)] || n.escaped[Unquote(raw)]
		}
	}
	n.keys = append(n.keys, raw)
	if n.raw != nil {
		n.index(raw)
	}
	return seen
}

func (n *nameSet) index(raw []byte) {
	u := Unquote(raw)
	n.all[u] = true
	if bytes.IndexByte(raw, '\\') >= 0 {
		n.escaped[u] = true
	} else {
		n.raw[string(raw)] = true
	}
}
