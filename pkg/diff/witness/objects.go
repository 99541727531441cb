package witness

import (
	"maps"
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// propNodes is every subschema a property of the given name must match in
// a flat conjunction: properties, matching patternProperties, otherwise
// additionalProperties.
func propNodes(flat []sref, name string) []sref {
	var out []sref
	for _, f := range flat {
		m := f.v.(map[string]any)
		matched := false
		if ps, ok := m["properties"].(map[string]any); ok {
			if s, ok := ps[name]; ok {
				out = append(out, f.child(s, "/properties/"+jsonptr.Escape(name)))
				matched = true
			}
		}
		if pp, ok := m["patternProperties"].(map[string]any); ok {
			for _, p := range slices.Sorted(maps.Keys(pp)) {
				if re, ok := compileECMA(p); ok && re.MatchString(name) {
					out = append(out, f.child(pp[p], "/patternProperties/"+jsonptr.Escape(p)))
					matched = true
				}
			}
		}
		if !matched {
			if ap, ok := m["additionalProperties"]; ok {
				out = append(out, f.child(ap, "/additionalProperties"))
			}
		}
	}
	return out
}

// declared is every property name the conjunction's properties list,
// sorted.
func declared(flat []sref) []string {
	var out []string
	for _, f := range flat {
		if ps, ok := f.v.(map[string]any)["properties"].(map[string]any); ok {
			out = slices.AppendSeq(out, maps.Keys(ps))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func required(flat []sref) []string {
	var out []string
	for _, f := range flat {
		if rs, ok := f.v.(map[string]any)["required"].([]any); ok {
			for _, r := range rs {
				if s, ok := r.(string); ok && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// object is the minimal object: every required property (and those the
// present ones depend on), then optional ones up to minProperties.
func (g *gen) object(flat []sref, depth int) (any, bool) {
	obj := map[string]any{}
	want := required(flat)
	minProps := 0
	for _, f := range flat {
		if n, ok := intKw(f.v.(map[string]any), "minProperties"); ok && n > minProps {
			minProps = min(n, maxItems)
		}
	}
	var opt []string
	if len(want) < minProps {
		opt = declared(flat)
	}
	for _, name := range opt {
		if len(want) >= minProps {
			break
		}
		if !slices.Contains(want, name) {
			want = append(want, name)
		}
	}
	for i := 0; len(want) < minProps; i++ {
		want = append(want, "p"+strconv.Itoa(i))
	}
	for round := 0; round < 8 && len(want) > 0; round++ {
		var more []string
		for _, name := range want {
			if _, done := obj[name]; done {
				continue
			}
			v, ok := g.value(propNodes(flat, name), depth+1)
			if !ok {
				return nil, false
			}
			obj[name] = v
			more = append(more, dependents(flat, name)...)
		}
		want = more
	}
	return obj, true
}

// dependents is what dependentRequired (or draft-07 dependencies) asks
// for when name is present.
func dependents(flat []sref, name string) []string {
	var out []string
	for _, f := range flat {
		m := f.v.(map[string]any)
		for _, kw := range []string{"dependentRequired", "dependencies"} {
			if dr, ok := m[kw].(map[string]any); ok {
				if list, ok := dr[name].([]any); ok {
					for _, x := range list {
						if s, ok := x.(string); ok {
							out = append(out, s)
						}
					}
				}
			}
		}
	}
	return out
}

// itemNodes is every subschema item i of an array must match.
func (g *gen) itemNodes(flat []sref, i int) []sref {
	var out []sref
	for _, f := range flat {
		m := f.v.(map[string]any)
		prefixKw, restKw := "prefixItems", "items"
		if f.d.legacy {
			if _, isArr := m["items"].([]any); isArr {
				prefixKw, restKw = "items", "additionalItems"
			} else {
				prefixKw = ""
			}
		}
		if pre, ok := m[prefixKw].([]any); ok && prefixKw != "" && i < len(pre) {
			out = append(out, f.child(pre[i], "/"+prefixKw+"/"+itoa(i)))
			continue
		}
		if it, ok := m[restKw]; ok {
			if _, isArr := it.([]any); !isArr {
				out = append(out, f.child(it, "/"+restKw))
			}
		}
	}
	return out
}

// array is the minimal array (n items when n >= 0): minItems items, at
// least one matching contains.
func (g *gen) array(flat []sref, n int, depth int) (any, bool) {
	minItems, unique := 0, false
	var contains []sref
	for _, f := range flat {
		m := f.v.(map[string]any)
		if v, ok := intKw(m, "minItems"); ok && v > minItems {
			minItems = v
		}
		if u, _ := m["uniqueItems"].(bool); u {
			unique = true
		}
		if c, ok := m["contains"]; ok {
			contains = append(contains, f.child(c, "/contains"))
		}
	}
	if n < 0 {
		n = minItems
		if len(contains) > 0 && n == 0 {
			n = 1
		}
	}
	if n > maxItems {
		return nil, false
	}
	arr := make([]any, 0, n)
	for i := 0; i < n; i++ {
		nodes := g.itemNodes(flat, i)
		if i == 0 {
			nodes = append(nodes, contains...)
		}
		v, ok := g.value(nodes, depth+1)
		if !ok {
			return nil, false
		}
		if unique {
			v = distinct(v, i)
		}
		arr = append(arr, v)
	}
	return arr, true
}

// distinct makes the i-th generated item of a unique array differ from
// the others where that is easy (strings, integers).
func distinct(v any, i int) any {
	if i == 0 {
		return v
	}
	switch x := v.(type) {
	case string:
		return x + strconv.Itoa(i)
	case bool:
		return i%2 == 0
	}
	if r, ok := rat(v); ok {
		return number(r.Add(r, ratInt(i)))
	}
	return v
}
