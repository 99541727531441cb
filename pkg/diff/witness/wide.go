package witness

import (
	"errors"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// A wide schema is one with so many subschemas (tens of thousands of
// properties) that compiling it whole costs more than the search: the
// validator's compiler keeps its work queue in a list it scans for every
// subschema it meets, so its time grows with the square of their number.
//
// A properties member whose name an instance does not use is never
// consulted when that instance is validated: properties applies only to
// the members present, and additionalProperties and unevaluatedProperties
// read the declared names only for those members too. So a wide side is
// compiled per instance, with each large properties map cut down to the
// names the instance uses anywhere (and the members a reference, $id or
// anchor needs kept whole). The verdict and every error location are what
// the whole schema gives for that instance. The whole document is still
// checked against its dialect's metaschema once, so a schema that does not
// compile whole never yields a witness.
const (
	// wideSubschemas is the subschema count above which a side is wide.
	wideSubschemas = 2000
	// wideMembers is the size above which a properties map is cut.
	wideMembers = 16
	// wideCache bounds the compiled cuts kept per side.
	wideCache = 64
)

// wideSide compiles one side per instance (see wideSubschemas).
type wideSide struct {
	name, dialect string
	root          any
	cuts          []cut
	cache         map[string]*validator
}

// cut is one properties map to narrow: the tokens from the root to the
// map, its members, and the members kept whatever the instance.
type cut struct {
	path    []string
	members map[string]any
	pinned  map[string]bool
}

// mayBeWide is newWideSide's size test alone, cheaply (no order, no
// paths): whether its walk, which it follows, would count more than
// wideSubschemas subschemas and find a properties map of more than
// wideMembers members. Most schemas are not wide, and need no more.
func mayBeWide(doc any) bool {
	count, big := 0, false
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 128 || count > wideSubschemas && big {
			return
		}
		count++
		for k, c := range m {
			switch {
			case slices.Contains(jsonschemakw.Refers, k):
			case k == "$id" && depth > 0, k == "$anchor", k == "$dynamicAnchor", k == "$recursiveAnchor":
			case jsonschemakw.HoldsMap(k):
				cm, _ := c.(map[string]any)
				if k == "properties" && len(cm) > wideMembers {
					big = true
				}
				for _, x := range cm {
					walk(x, depth+1)
				}
			case jsonschemakw.HoldsList(k):
				if l, ok := c.([]any); ok {
					for _, x := range l {
						walk(x, depth+1)
					}
					continue
				}
				walk(c, depth+1)
			case jsonschemakw.HoldsOne(k):
				walk(c, depth+1)
			}
		}
	}
	walk(doc, 0)
	return count > wideSubschemas && big
}

// newWideSide is nil when doc is not wide (or when it refers to places a
// cut could lose: a reference that is not a local pointer).
func newWideSide(name string, doc any, dialect string) *wideSide {
	if !mayBeWide(doc) {
		return nil
	}
	w := &wideSide{name: name, dialect: dialect, root: doc, cache: map[string]*validator{}}
	count := 0
	var targets []string // the pointers references lead to
	plain := true
	var walk func(v any, path []string, depth int)
	walk = func(v any, path []string, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 128 {
			return
		}
		count++
		for _, k := range slices.Sorted(maps.Keys(m)) {
			c := m[k]
			switch {
			case slices.Contains(jsonschemakw.Refers, k):
				ref, _ := c.(string)
				frag, ok := strings.CutPrefix(ref, "#")
				if s, err := url.PathUnescape(frag); err == nil {
					frag = s
				}
				if !ok || frag != "" && !strings.HasPrefix(frag, "/") {
					plain = false // an anchor or another document
				}
				targets = append(targets, frag)
			case k == "$id" && depth > 0, k == "$anchor", k == "$dynamicAnchor", k == "$recursiveAnchor":
				plain = false
			case jsonschemakw.HoldsMap(k):
				cm, _ := c.(map[string]any)
				if k == "properties" && len(cm) > wideMembers {
					w.cuts = append(w.cuts, cut{path: append(slices.Clone(path), k), members: cm, pinned: map[string]bool{}})
				}
				for _, n := range slices.Sorted(maps.Keys(cm)) {
					walk(cm[n], append(slices.Clone(path), k, n), depth+1)
				}
			case jsonschemakw.HoldsList(k):
				if l, ok := c.([]any); ok {
					for i, x := range l {
						walk(x, append(slices.Clone(path), k, itoa(i)), depth+1)
					}
					continue
				}
				walk(c, append(slices.Clone(path), k), depth+1)
			case jsonschemakw.HoldsOne(k):
				walk(c, append(slices.Clone(path), k), depth+1)
			}
		}
	}
	walk(doc, nil, 0)
	if count <= wideSubschemas || len(w.cuts) == 0 || !plain {
		return nil
	}
	for _, t := range targets {
		p, err := jsonptr.Parse(t)
		if err != nil {
			return nil
		}
		toks := p.Tokens()
		for _, c := range w.cuts {
			if len(toks) > len(c.path) && slices.Equal(toks[:len(c.path)], c.path) {
				c.pinned[toks[len(c.path)]] = true
			}
		}
	}
	return w
}

// check compiles the side with every cut map reduced to its pinned
// members, and validates the whole document against its metaschema: what
// compiling it whole would have refused.
//
// The metaschema applies the same schema to every member of a properties
// map, so the cut document is checked once and each distinct member once
// (50,000 members that are all {"type": "string"} cost one validation).
func (w *wideSide) check() error {
	if _, err := w.compile(nil); err != nil {
		return err
	}
	meta, err := metaschema(w.root, w.dialect)
	if err != nil {
		return err
	}
	root := w.root
	for _, c := range w.cuts {
		root = replaceAt(root, c.path, map[string]any{})
	}
	if err := meta.Validate(root); err != nil {
		return errors.New("the schema does not conform to its metaschema: " + err.Error())
	}
	seen := map[string]bool{}
	for _, c := range w.cuts {
		for _, n := range slices.Sorted(maps.Keys(c.members)) {
			b, err := encode(c.members[n])
			if err != nil {
				return err
			}
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
			if err := meta.Validate(c.members[n]); err != nil {
				return errors.New("the schema does not conform to its metaschema: " + err.Error())
			}
		}
	}
	return nil
}

// validate validates inst against the side cut to inst's names.
func (w *wideSide) validate(inst any) result {
	names := map[string]bool{}
	instanceNames(inst, names, 0)
	v, err := w.compile(names)
	if err != nil {
		return result{} // not valid, not trusted: no witness
	}
	return v.validate(inst)
}

// compile is the side with each cut map narrowed to names and its pinned
// members, compiled once per distinct narrowing.
func (w *wideSide) compile(names map[string]bool) (*validator, error) {
	kept := make([]map[string]any, len(w.cuts))
	var key strings.Builder
	for i, c := range w.cuts {
		kept[i] = map[string]any{}
		for n := range c.pinned {
			if s, ok := c.members[n]; ok {
				kept[i][n] = s
			}
		}
		for n := range names {
			if s, ok := c.members[n]; ok {
				kept[i][n] = s
			}
		}
		for _, n := range slices.Sorted(maps.Keys(kept[i])) {
			key.WriteString(n)
			key.WriteByte(0)
		}
		key.WriteByte(1)
	}
	if v, ok := w.cache[key.String()]; ok {
		return v, nil
	}
	root := w.root
	for i, c := range w.cuts {
		root = replaceAt(root, c.path, kept[i])
	}
	v, err := compileSide(w.name, root, w.dialect)
	if err != nil {
		return nil, err
	}
	if len(w.cache) < wideCache {
		w.cache[key.String()] = v
	}
	return v, nil
}

// replaceAt is doc with the value at path replaced, the containers on the
// way copied (doc itself is not changed). A path a previous cut removed is
// left alone.
func replaceAt(doc any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	switch c := doc.(type) {
	case map[string]any:
		x, ok := c[path[0]]
		if !ok {
			return doc
		}
		o := clone(c)
		o[path[0]] = replaceAt(x, path[1:], v)
		return o
	case []any:
		for i := range c {
			if itoa(i) == path[0] {
				o := slices.Clone(c)
				o[i] = replaceAt(c[i], path[1:], v)
				return o
			}
		}
	}
	return doc
}

// instanceNames adds every member name of every object in inst.
func instanceNames(inst any, out map[string]bool, depth int) {
	if depth > 256 {
		return
	}
	switch x := inst.(type) {
	case map[string]any:
		for k, v := range x {
			out[k] = true
			instanceNames(v, out, depth+1)
		}
	case []any:
		for _, v := range x {
			instanceNames(v, out, depth+1)
		}
	}
}

// metaschema is the compiled metaschema of a schema document's dialect
// ($schema, else dialect), the one the compiler checks a document against
// before it compiles it.
func metaschema(doc any, dialect string) (*jsonschema.Schema, error) {
	loc := "https://json-schema.org/draft/2020-12/schema"
	if dialect == "draft-07" {
		loc = "http://json-schema.org/draft-07/schema"
	}
	if m, ok := doc.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			loc = strings.TrimSuffix(s, "#")
		}
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	return c.Compile(loc)
}
