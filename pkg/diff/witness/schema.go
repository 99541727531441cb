package witness

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// doc is one side's schema, decoded, with what generation needs to read
// it: the dialect (draft-07 spellings) and local references.
type doc struct {
	root   any
	legacy bool // draft-07 or older: items arrays, boolean exclusive bounds
}

func newDoc(root any, dialect string) *doc {
	d := &doc{root: root, legacy: dialect == "draft-07"}
	if m, ok := root.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			d.legacy = strings.Contains(s, "draft-0") || strings.Contains(s, "draft-04")
		}
	}
	return d
}

// sref is a subschema and where it is in its document.
type sref struct {
	v   any
	ptr string
	d   *doc
}

// at is the pointer of a subschema together with its document, the key of
// the sets and maps that must tell base from head.
type at struct {
	d   *doc
	ptr string
}

func (s sref) key() at { return at{s.d, s.ptr} }

// child is a subschema of s.
func (s sref) child(v any, tail string) sref { return sref{v, s.ptr + tail, s.d} }

// at resolves a JSON Pointer in the document.
func (d *doc) at(ptr string) (any, bool) {
	if ptr == "" {
		return d.root, true
	}
	p, err := jsonptr.Parse(ptr)
	if err != nil {
		return nil, false
	}
	return jsonptr.Lookup(d.root, p.Tokens())
}

// deref follows a local $ref ("#", "#/json/pointer", "#anchor"). Other
// references are not followed: the validator refuses them too.
func (d *doc) deref(ref string) (sref, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return sref{}, false
	}
	if s, err := url.PathUnescape(frag); err == nil {
		frag = s
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		v, ok := d.at(frag)
		return sref{v, frag, d}, ok
	}
	var found sref
	var walk func(v any, ptr jsonptr.Pointer, depth int) bool
	walk = func(v any, ptr jsonptr.Pointer, depth int) bool {
		m, ok := v.(map[string]any)
		if !ok || depth > 64 {
			return false
		}
		if a, _ := m["$anchor"].(string); a == frag {
			found = sref{m, ptr.String(), d}
			return true
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			switch c := m[k].(type) {
			case map[string]any:
				if walk(c, ptr.Append(k), depth+1) {
					return true
				}
			case []any:
				for i, x := range c {
					if walk(x, ptr.Append(k).AppendIndex(i), depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	return found, walk(d.root, jsonptr.Root, 0)
}

// nodePrefix is the longest prefix of ptr that names a subschema of d
// (ptr itself when it does): "/properties/a/minimum" → "/properties/a".
func (d *doc) nodePrefix(ptr string) string {
	p, err := jsonptr.Parse(ptr)
	if err != nil {
		return ""
	}
	toks := p.Tokens()
	best := jsonptr.Root
	cur := jsonptr.Root
	var val any = d.root
	for i := 0; i < len(toks); {
		m, ok := val.(map[string]any)
		if !ok {
			break
		}
		kw := toks[i]
		child, present := m[kw]
		switch {
		case jsonschemakw.HoldsList(kw) && i+1 < len(toks) && isArray(child, present):
			arr := child.([]any)
			n, err := strconv.Atoi(toks[i+1])
			if err != nil || n < 0 || n >= len(arr) {
				return best.String()
			}
			cur, val, i = cur.Append(kw, toks[i+1]), arr[n], i+2
		case jsonschemakw.HoldsOne(kw) && present:
			cur, val, i = cur.Append(kw), child, i+1
		case jsonschemakw.HoldsMap(kw) && i+1 < len(toks) && present:
			cm, ok := child.(map[string]any)
			if !ok {
				return best.String()
			}
			v, ok := cm[toks[i+1]]
			if !ok {
				return best.String()
			}
			cur, val, i = cur.Append(kw, toks[i+1]), v, i+2
		default:
			return best.String()
		}
		best = cur
	}
	return best.String()
}

func isArray(v any, present bool) bool {
	_, ok := v.([]any)
	return present && ok
}

// within reports whether pointer loc is p or under it.
func within(loc, p string) bool {
	return loc == p || strings.HasPrefix(loc, p+"/") || p == ""
}

// parentOf splits the last token (unescaped) off a pointer.
func parentOf(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", ""
	}
	return p[:i], jsonptr.Unescape(p[i+1:])
}
