package canonjson

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/jsonptr"
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
	// keys is per-depth scratch space for the names of an open object.
	keys [][][]byte
}

type token struct {
	raw   []byte // a member name as written
	index int    // an element's index when raw is nil
}

func (a *auditor) value(depth int) error {
	if err := CheckDepth(depth); err != nil {
		return err
	}
	switch c := a.Peek(); {
	case c == '{':
		return a.object(depth)
	case c == '[':
		return a.EachElement(func(i int) error {
			a.path = append(a.path, token{index: i})
			err := a.value(depth + 1)
			a.path = a.path[:len(a.path)-1]
			return err
		})
	case c == '"':
		raw, _, err := a.ScanString()
		if err == nil && !validUTF8(raw) {
			a.found = append(a.found, Problem{Kind: ProblemInvalidUTF8, Pointer: a.pointer("")})
		}
		return err
	}
	return a.SkipScalar()
}

func (a *auditor) object(depth int) error {
	for len(a.keys) <= depth {
		a.keys = append(a.keys, nil)
	}
	keys := a.keys[depth][:0]
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
		raw, _, err := a.ScanString()
		if err != nil {
			return err
		}
		a.path = append(a.path, token{raw: raw})
		if !validUTF8(raw) {
			a.found = append(a.found, Problem{Kind: ProblemInvalidUTF8, Pointer: a.pointer("")})
		}
		// Objects are small: a linear look-up beats a map, and comparing
		// the names as written is exact unless one of them has escapes.
		for _, k := range keys {
			if bytes.Equal(k, raw) || (bytes.IndexByte(raw, '\\') >= 0 || bytes.IndexByte(k, '\\') >= 0) && Unquote(k) == Unquote(raw) {
				if dups == nil {
					dups = map[string]int{}
				}
				dups[a.pointer("").String()]++
				break
			}
		}
		keys = append(keys, raw)
		a.SkipSpace()
		if a.Peek() != ':' {
			return a.Fail("expected ':'")
		}
		a.Pos++
		a.SkipSpace()
		err = a.value(depth + 1)
		a.path = a.path[:len(a.path)-1]
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
	a.keys[depth] = keys[:0]
	if len(dups) == 0 {
		return nil
	}
	// One problem per repeated name, in the order of first appearance.
	for _, k := range keys {
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
