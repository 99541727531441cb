package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// InsertElements puts values into the array at path before its element
// at (at its end when at is its length). The array's own elements, and
// the comments between them, stay as written: each value goes on one
// line, on a line of its own when the element it precedes starts its
// line, else after it with ", ". DeleteElements(at, len(values)) takes
// them out again, byte for byte.
func (d *Doc) InsertElements(at int, values []json.RawMessage, path ...string) error {
	name := strings.Join(path, ".")
	if len(values) == 0 {
		return nil
	}
	texts := make([][]byte, len(values))
	for i, v := range values {
		if !json.Valid(v) {
			return fmt.Errorf("jsonedit: value %d for %s is not JSON", i, name)
		}
		texts[i] = oneLine(v)
	}
	arr, elems, err := d.array(path)
	if err != nil {
		return err
	}
	if at < 0 || at > len(elems) {
		return fmt.Errorf("jsonedit: %s has %d elements: no place %d", name, len(elems), at)
	}
	multiline := bytes.IndexByte(d.src[arr.start:arr.end], '\n') >= 0
	// sep is what goes between two elements next to e.
	sep := func(e span) []byte {
		if multiline && startsLine(d.src, e.start) {
			return []byte(",\n" + lineIndent(d.src, e.start))
		}
		return []byte(", ")
	}
	before := d.src
	switch {
	case at < len(elems):
		s := sep(elems[at])
		d.splice(elems[at].start, elems[at].start, append(bytes.Join(texts, s), s...))
	case at > 0:
		last := elems[at-1]
		s := sep(last)
		d.splice(last.end, last.end, append(s, bytes.Join(texts, s)...))
	case multiline:
		indent := lineIndent(d.src, arr.start) + d.unit
		d.splice(arr.start+1, arr.start+1, append([]byte("\n"+indent), bytes.Join(texts, []byte(",\n"+indent))...))
	default:
		d.splice(arr.start+1, arr.start+1, bytes.Join(texts, []byte(", ")))
	}
	return d.check(before, name)
}

// DeleteElements takes n elements out of the array at path from its
// element at on, with the separators InsertElements put: what remains
// is as written.
func (d *Doc) DeleteElements(at, n int, path ...string) error {
	name := strings.Join(path, ".")
	arr, elems, err := d.array(path)
	if err != nil {
		return err
	}
	if at < 0 || n < 1 || at+n > len(elems) {
		return fmt.Errorf("jsonedit: %s has %d elements: no %d from %d", name, len(elems), n, at)
	}
	before := d.src
	switch end := at + n; {
	case end < len(elems):
		d.splice(elems[at].start, elems[end].start, nil)
	case at > 0:
		d.splice(elems[at-1].end, elems[end-1].end, nil)
	default:
		// Every element: the array becomes [] (or its opening line and
		// its closing one), a trailing comma with the last.
		start, stop := elems[0].start, afterComma(d.src, elems[end-1].end)
		if len(bytes.TrimLeft(d.src[arr.start+1:start], " \t\r\n")) == 0 {
			start = arr.start + 1
		}
		d.splice(start, stop, nil)
	}
	return d.check(before, name)
}

// Delete takes the member at path out of its object, with its line when
// it has one of its own, and with the comma that separated it: what
// Set added, Delete removes byte for byte. A missing member is no error.
func (d *Doc) Delete(path ...string) error {
	if len(path) == 0 {
		return errors.New("jsonedit: Delete needs a path")
	}
	name := strings.Join(path, ".")
	sp, obj, _, err := d.find(path)
	if err != nil || sp.start < 0 {
		return err
	}
	key := obj.keys[path[len(path)-1]]
	i := 0
	for i < len(obj.order) && obj.order[i] != sp {
		i++
	}
	last := i == len(obj.order)-1
	end := afterComma(d.src, sp.end)
	comma := end > sp.end
	before := d.src
	switch {
	case startsLine(d.src, key):
		d.splice(bytes.LastIndexByte(d.src[:key], '\n'), end, nil)
	case comma:
		for end < len(d.src) && (d.src[end] == ' ' || d.src[end] == '\t') {
			end++
		}
		d.splice(key, end, nil)
	default:
		start := key
		for start > 0 && (d.src[start-1] == ' ' || d.src[start-1] == '\t') {
			start--
		}
		d.splice(start, end, nil)
	}
	// The last member leaves: the one before it is the last now, and
	// keeps a comma only if the file writes trailing commas (as the
	// member taken out had one).
	if last && !comma && i > 0 {
		prev := obj.order[i-1].end
		if c := afterComma(d.src, prev); c > prev {
			d.splice(c-1, c, nil)
		}
	}
	return d.check(before, name)
}

// array is the span of the array at path and of each of its elements.
func (d *Doc) array(path []string) (span, []span, error) {
	name := strings.Join(path, ".")
	sp, _, _, err := d.find(path)
	if err != nil {
		return span{}, nil, err
	}
	if sp.start < 0 {
		return span{}, nil, fmt.Errorf("jsonedit: there is no %s", name)
	}
	if d.plain[sp.start] != '[' {
		return span{}, nil, fmt.Errorf("jsonedit: %s is not an array", name)
	}
	s := canonjson.NewScanner(d.plain)
	s.Pos = sp.start
	var elems []span
	err = s.EachElement(func(int) error {
		start := s.Pos
		if err := s.SkipValue(1); err != nil {
			return err
		}
		elems = append(elems, span{start, s.Pos})
		return nil
	})
	return sp, elems, err
}

// check parses the document after an edit of name; a document the edit
// broke is put back as it was before.
func (d *Doc) check(before []byte, name string) error {
	if err := d.reparse(); err != nil {
		d.src = before
		d.reparse()
		return fmt.Errorf("jsonedit: the edit of %s broke the document: %w", name, err)
	}
	return nil
}

// afterComma is i moved past blanks on the same line and a comma, when
// one follows; else i.
func afterComma(src []byte, i int) int {
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
		j++
	}
	if j < len(src) && src[j] == ',' {
		return j + 1
	}
	return i
}

// startsLine reports whether only blanks precede src[i] on its line, and
// there is a line before it.
func startsLine(src []byte, i int) bool {
	nl := bytes.LastIndexByte(src[:i], '\n')
	return nl >= 0 && len(bytes.Trim(src[nl+1:i], " \t")) == 0
}
