package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// Doc is a JSON or JSONC document whose top-level value is an object,
// edited in place. The zero value is not usable: call Parse.
type Doc struct {
	src   []byte // the document as written, with the edits so far
	plain []byte // src with comments and trailing commas blanked
	unit  string // the file's indentation unit
}

// Parse reads data, which may hold comments and trailing commas. Its
// errors name the line (an unterminated comment or string) or the problem
// as encoding/json words it.
func Parse(data []byte) (*Doc, error) {
	d := &Doc{src: bytes.Clone(data), unit: detectIndent(data)}
	if err := d.reparse(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Doc) reparse() error {
	plain, err := Plain(d.src)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(plain, &v); err != nil {
		return err
	}
	if _, ok := v.(map[string]any); !ok {
		return errors.New("not a JSON object")
	}
	d.plain = plain
	return nil
}

// Bytes is the document with the edits made so far.
func (d *Doc) Bytes() []byte { return bytes.Clone(d.src) }

// Get is the value at path (object keys from the top) as plain JSON, and
// whether it is there. An empty path is the whole document.
func (d *Doc) Get(path ...string) (json.RawMessage, bool) {
	sp, _, _, err := d.find(path)
	if err != nil || sp.start < 0 {
		return nil, false
	}
	return bytes.Clone(d.plain[sp.start:sp.end]), true
}

// Set makes the value at path value (valid JSON; strings as the caller
// encoded them). A missing member is added after the last member of its
// object, and missing objects on the way are created; an existing value
// is replaced where it stands. Every other byte is kept.
func (d *Doc) Set(value json.RawMessage, path ...string) error {
	if len(path) == 0 {
		return errors.New("jsonedit: Set needs a path")
	}
	if !json.Valid(value) {
		return fmt.Errorf("jsonedit: the value for %s is not JSON", strings.Join(path, "."))
	}
	sp, obj, rest, err := d.find(path)
	if err != nil {
		return err
	}
	before := d.src
	if sp.start >= 0 {
		d.replace(sp, value)
	} else {
		for i := len(rest) - 1; i > 0; i-- {
			value = json.RawMessage(`{` + encodeKey(rest[i]) + `:` + string(value) + `}`)
		}
		d.insert(obj, rest[0], value)
	}
	if err := d.reparse(); err != nil {
		d.src = before
		return fmt.Errorf("jsonedit: the edit of %s broke the document: %w", strings.Join(path, "."), err)
	}
	return nil
}

// span is the bytes of one value.
type span struct{ start, end int }

// object is what an edit needs of an object: its braces, its members'
// values (a repeated key: the last, as encoding/json reads it) and the
// last member's value; keys are where each member's name starts, order
// the members' values as written.
type object struct {
	open, close int
	members     map[string]span
	keys        map[string]int
	order       []span
	last        span // start -1: no member
}

// find walks path from the top. It returns the value's span (start -1
// when a member is missing), and then the object where the first missing
// key goes and the keys from it on.
func (d *Doc) find(path []string) (span, object, []string, error) {
	s := canonjson.NewScanner(d.plain)
	s.SkipSpace()
	pos := s.Pos
	if len(path) == 0 {
		return span{pos, len(bytes.TrimRight(d.plain, " \t\r\n"))}, object{}, nil, nil
	}
	for i, key := range path {
		obj, err := d.objectAt(pos)
		if err != nil {
			return span{}, object{}, nil, err
		}
		sp, ok := obj.members[key]
		if !ok {
			return span{start: -1}, obj, path[i:], nil
		}
		if i == len(path)-1 {
			return sp, obj, nil, nil
		}
		if d.plain[sp.start] != '{' {
			return span{}, object{}, nil, fmt.Errorf("%s is not an object", strings.Join(path[:i+1], "."))
		}
		pos = sp.start
	}
	panic("unreachable")
}

// objectAt reads the object whose '{' is at pos.
func (d *Doc) objectAt(pos int) (object, error) {
	s := canonjson.NewScanner(d.plain)
	s.Pos = pos
	obj := object{open: pos, members: map[string]span{}, keys: map[string]int{}, last: span{start: -1}}
	prev := pos + 1
	err := s.EachMember(func(name string) error {
		start := s.Pos
		if err := s.SkipValue(1); err != nil {
			return err
		}
		// In the plain bytes only blanks and the comma separate a
		// member's name from what comes before it.
		key := prev
		for key < start && (isSpace(d.plain[key]) || d.plain[key] == ',') {
			key++
		}
		obj.members[name] = span{start, s.Pos}
		obj.keys[name] = key
		obj.order = append(obj.order, span{start, s.Pos})
		obj.last = span{start, s.Pos}
		prev = s.Pos
		return nil
	})
	obj.close = s.Pos - 1
	return obj, err
}

// replace writes value over sp, on one line when the old value was.
func (d *Doc) replace(sp span, value json.RawMessage) {
	var text []byte
	if bytes.IndexByte(d.src[sp.start:sp.end], '\n') < 0 {
		text = oneLine(value)
	} else {
		text = d.indented(value, lineIndent(d.src, sp.start))
	}
	d.splice(sp.start, sp.end, text)
}

// insert adds the member key: value to obj, after its last member.
func (d *Doc) insert(obj object, key string, value json.RawMessage) {
	multiline := bytes.IndexByte(d.src[obj.open:obj.close], '\n') >= 0 || obj.last.start < 0
	after := obj.open + 1
	indent := lineIndent(d.src, obj.open) + d.unit
	if obj.last.start >= 0 {
		after = obj.last.end
		indent = lineIndent(d.src, obj.last.start)
	}
	// The new member goes after the comments on the same line as what it
	// follows, and after a trailing comma.
	at, comma := skipSameLine(d.src, after, obj.close)
	var member, closing []byte
	if multiline {
		member = append([]byte("\n"+indent+encodeKey(key)+": "), d.indented(value, indent)...)
		if bytes.IndexByte(d.src[at:obj.close], '\n') < 0 {
			closing = []byte("\n" + lineIndent(d.src, obj.open))
			member = append(member, closing...)
		}
	} else {
		member = append([]byte(" "+encodeKey(key)+": "), oneLine(value)...)
	}
	if comma && multiline {
		// The file ends its members with a comma: so does the new one,
		// and Delete takes the member out again without touching the
		// comma before it.
		member = append(member[:len(member)-len(closing)], append([]byte(","), closing...)...)
	}
	d.splice(at, at, member)
	if obj.last.start >= 0 && !comma {
		d.splice(obj.last.end, obj.last.end, []byte(","))
	}
}

// skipSameLine moves from i past blanks, comments and a comma on the same
// line, not beyond limit; it returns the end of the last of them skipped
// that is not a blank, and whether a comma was.
func skipSameLine(src []byte, i, limit int) (int, bool) {
	end, comma := i, false
	for i < limit {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\r':
			i++
		case src[i] == ',':
			comma = true
			i++
			end = i
		case bytes.HasPrefix(src[i:], []byte("//")):
			for i < limit && src[i] != '\n' {
				i++
			}
			return i, comma
		case bytes.HasPrefix(src[i:], []byte("/*")):
			j := bytes.Index(src[i+2:limit], []byte("*/"))
			if j < 0 {
				return end, comma
			}
			i += 2 + j + 2
			end = i
		default:
			return end, comma
		}
	}
	return end, comma
}

func (d *Doc) splice(start, end int, text []byte) {
	d.src = append(d.src[:start:start], append(text, d.src[end:]...)...)
}

// indented is value laid out over lines, at prefix, indented by the
// file's unit.
func (d *Doc) indented(value json.RawMessage, prefix string) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, value, prefix, d.unit); err != nil {
		return value
	}
	return b.Bytes()
}

// oneLine is value on one line, a space after each comma and colon.
func oneLine(value json.RawMessage) []byte {
	var c bytes.Buffer
	if err := json.Compact(&c, value); err != nil {
		return value
	}
	var out []byte
	in, esc := false, false
	for _, ch := range c.Bytes() {
		out = append(out, ch)
		switch {
		case esc:
			esc = false
		case in && ch == '\\':
			esc = true
		case ch == '"':
			in = !in
		case !in && (ch == ',' || ch == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

// encodeKey is key as a JSON string.
func encodeKey(key string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(key)
	return strings.TrimSuffix(b.String(), "\n")
}

// lineIndent is the blanks that start the line holding src[i].
func lineIndent(src []byte, i int) string {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// detectIndent is the indentation of the first indented line, else two
// spaces (npm's and VS Code's).
func detectIndent(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n"))[1:] {
		n := len(line) - len(bytes.TrimLeft(line, " \t"))
		if n > 0 && n < len(line) {
			return string(line[:n])
		}
	}
	return "  "
}
