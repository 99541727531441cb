package mergepatch

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// Keys names, for a member of the top-level object, the member that
// identifies each element of its array (see the package comment).
type Keys map[string]string

// Apply merges patch into doc and returns the result, pretty-printed and
// ending in a newline. Both must be JSON; an error names which is not and
// where.
func Apply(doc, patch []byte, keys Keys) ([]byte, error) {
	d, err := parse(doc)
	if err != nil {
		return nil, fmt.Errorf("merge patch: reading the document: %w", err)
	}
	p, err := parse(patch)
	if err != nil {
		return nil, fmt.Errorf("merge patch: reading the patch: %w", err)
	}
	out, err := mergeTop(d, p, keys)
	if err != nil {
		return nil, fmt.Errorf("merge patch: %w", err)
	}
	var b bytes.Buffer
	out.write(&b, 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

type kind int

const (
	scalar kind = iota
	object
	array
)

// node is one JSON value as written: a scalar's text, an object's members
// in document order, an array's elements.
type node struct {
	kind    kind
	raw     []byte // scalar
	members []member
	elems   []*node
}

// member is one object member: its name decoded, and as written (quotes
// and escapes included).
type member struct {
	name, raw string
	value     *node
}

func (n *node) isNull() bool { return n.kind == scalar && string(n.raw) == "null" }

func (n *node) get(name string) (*node, int) {
	for i, m := range n.members {
		if m.name == name {
			return m.value, i
		}
	}
	return nil, -1
}

// text is the decoded value of a string scalar, and whether n is one.
func (n *node) text() (string, bool) {
	if n.kind != scalar || len(n.raw) < 2 || n.raw[0] != '"' {
		return "", false
	}
	return canonjson.Unquote(n.raw[1 : len(n.raw)-1]), true
}

func parse(data []byte) (*node, error) {
	s := canonjson.NewScanner(data)
	s.SkipSpace()
	n, err := value(s, data, 0)
	if err != nil {
		return nil, err
	}
	if err := s.End(); err != nil {
		return nil, err
	}
	return n, nil
}

func value(s *canonjson.Scanner, data []byte, depth int) (*node, error) {
	if err := canonjson.CheckDepth(depth); err != nil {
		return nil, err
	}
	switch s.Peek() {
	case '{':
		n := &node{kind: object}
		prev := s.Pos
		err := s.EachMember(func(name string) error {
			// The member's name as written lies between the previous
			// member's end (or the brace) and the colon.
			seg := data[prev:s.Pos]
			raw := string(seg[bytes.IndexByte(seg, '"') : bytes.LastIndexByte(seg, '"')+1])
			v, err := value(s, data, depth+1)
			if err != nil {
				return err
			}
			n.members = append(n.members, member{name: name, raw: raw, value: v})
			prev = s.Pos
			return nil
		})
		return n, err
	case '[':
		n := &node{kind: array}
		err := s.EachElement(func(int) error {
			v, err := value(s, data, depth+1)
			if err == nil {
				n.elems = append(n.elems, v)
			}
			return err
		})
		return n, err
	}
	start := s.Pos
	if err := s.SkipScalar(); err != nil {
		return nil, err
	}
	return &node{kind: scalar, raw: data[start:s.Pos]}, nil
}

// merge is RFC 7386's MergePatch(target, patch); target may be nil
// (absent). The result shares no member list with target.
func merge(target, patch *node) *node {
	if patch.kind != object {
		return patch
	}
	out := &node{kind: object}
	if target != nil && target.kind == object {
		out.members = slices.Clone(target.members)
	}
	for _, pm := range patch.members {
		cur, i := out.get(pm.name)
		switch {
		case pm.value.isNull():
			if i >= 0 {
				out.members = slices.Delete(out.members, i, i+1)
			}
		case i >= 0:
			out.members[i].value = merge(cur, pm.value)
		default:
			out.members = append(out.members, member{name: pm.name, raw: pm.raw, value: merge(nil, pm.value)})
		}
	}
	return out
}

// mergeTop is merge for the top-level object, with the keyed lists.
func mergeTop(target, patch *node, keys Keys) (*node, error) {
	if patch.kind != object || len(keys) == 0 {
		return merge(target, patch), nil
	}
	plain := &node{kind: object}
	var keyed []member
	for _, pm := range patch.members {
		if _, ok := keys[pm.name]; ok && pm.value.kind == object {
			keyed = append(keyed, pm)
		} else {
			plain.members = append(plain.members, pm)
		}
	}
	out := merge(target, plain)
	for _, pm := range keyed {
		cur, i := out.get(pm.name)
		list, err := mergeList(cur, pm.value, keys[pm.name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pm.name, err)
		}
		if i >= 0 {
			out.members[i].value = list
		} else {
			out.members = append(out.members, member{name: pm.name, raw: string(canonjson.AppendString(nil, pm.name)), value: list})
		}
	}
	return out, nil
}

// mergeList patches an array of objects identified by their member key
// with an object keyed by that identity.
func mergeList(target, patch *node, key string) (*node, error) {
	out := &node{kind: array}
	if target != nil {
		if target.kind != array {
			return nil, fmt.Errorf("the document's value is not an array: give the patch as an array to replace it")
		}
		out.elems = slices.Clone(target.elems)
	}
	for _, pm := range patch.members {
		i := slices.IndexFunc(out.elems, func(e *node) bool {
			if e.kind != object {
				return false
			}
			id, _ := e.get(key)
			if id == nil {
				return false
			}
			t, ok := id.text()
			return ok && t == pm.name
		})
		switch {
		case pm.value.isNull() && i < 0:
			return nil, fmt.Errorf("no element with %s %s to remove", key, pm.raw)
		case pm.value.isNull():
			out.elems = slices.Delete(out.elems, i, i+1)
		case pm.value.kind != object:
			return nil, fmt.Errorf("element %s: the patch is not an object or null", pm.raw)
		case i >= 0:
			out.elems[i] = merge(out.elems[i], pm.value)
		default:
			id := &node{kind: object, members: []member{{name: key, raw: string(canonjson.AppendString(nil, key)), value: &node{kind: scalar, raw: []byte(pm.raw)}}}}
			out.elems = append(out.elems, merge(id, pm.value))
		}
	}
	return out, nil
}

// write pretty-prints n at the given indentation.
func (n *node) write(b *bytes.Buffer, indent int) {
	switch n.kind {
	case scalar:
		b.Write(n.raw)
	case object:
		if len(n.members) == 0 {
			b.WriteString("{}")
			return
		}
		ms := slices.Clone(n.members)
		slices.SortStableFunc(ms, func(x, y member) int { return strings.Compare(x.name, y.name) })
		b.WriteString("{\n")
		for i, m := range ms {
			pad(b, indent+1)
			b.WriteString(m.raw)
			b.WriteString(": ")
			m.value.write(b, indent+1)
			if i < len(ms)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte('}')
	case array:
		if len(n.elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range n.elems {
			pad(b, indent+1)
			e.write(b, indent+1)
			if i < len(n.elems)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte(']')
	}
}

func pad(b *bytes.Buffer, indent int) {
	for range indent {
		b.WriteString("  ")
	}
}
