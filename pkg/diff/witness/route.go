package witness

import (
	"maps"
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// A route leads from a schema's root to one of its subschemas the way an
// instance does: each level is one instance location (the root, then a
// property or an item), with the subschemas on the way that apply to it
// ($ref targets, chosen branches).
type level struct {
	seg   any // string (property) or int (item); nil at the root
	nodes []sref
}

type route struct {
	levels []level
	choose map[at]int
}

type edge struct {
	seg    any // nil: the same instance
	node   sref
	choice string // the anyOf/oneOf keyword pointer when entering a branch
	index  int
}

const maxRouteNodes = 4096

// findRoute is the shortest route (in schema steps) from the root to the
// subschema at target.
func (d *doc) findRoute(target string) (route, bool) {
	type qe struct {
		e      edge
		parent int
	}
	q := []qe{{e: edge{node: sref{d.root, "", d}}, parent: -1}}
	seen := map[string]bool{"": true}
	for i := 0; i < len(q) && i < maxRouteNodes; i++ {
		if q[i].e.node.ptr == target {
			var path []edge
			for j := i; j >= 0; j = q[j].parent {
				path = append(path, q[j].e)
			}
			slices.Reverse(path)
			return buildRoute(path), true
		}
		for _, e := range d.edges(q[i].e.node) {
			if !seen[e.node.ptr] {
				seen[e.node.ptr] = true
				q = append(q, qe{e, i})
			}
		}
	}
	return route{}, false
}

func buildRoute(path []edge) route {
	r := route{choose: map[at]int{}}
	for i, e := range path {
		if i == 0 || e.seg != nil {
			r.levels = append(r.levels, level{seg: e.seg})
		}
		l := &r.levels[len(r.levels)-1]
		l.nodes = append(l.nodes, e.node)
		if e.choice != "" {
			r.choose[at{e.node.d, e.choice}] = e.index
		}
	}
	return r
}

// edges lists the subschemas of n an instance walks into, in a fixed
// order.
func (d *doc) edges(n sref) []edge {
	m, ok := n.v.(map[string]any)
	if !ok {
		return nil
	}
	var out []edge
	p := n.ptr
	if ref, ok := m["$ref"].(string); ok {
		if t, ok := d.deref(ref); ok {
			out = append(out, edge{node: t})
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		bs, _ := m[kw].([]any)
		for i, b := range bs {
			e := edge{node: n.child(b, "/"+kw+"/"+itoa(i))}
			if kw != "allOf" {
				e.choice, e.index = p+"/"+kw, i
			}
			out = append(out, e)
		}
	}
	for _, kw := range []string{"then", "else"} {
		if s, ok := m[kw]; ok {
			out = append(out, edge{node: n.child(s, "/"+kw)})
		}
	}
	if ds, ok := m["dependentSchemas"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(ds)) {
			out = append(out, edge{node: n.child(ds[k], "/dependentSchemas/"+jsonptr.Escape(k))})
		}
	}
	if ps, ok := m["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(ps)) {
			out = append(out, edge{seg: k, node: n.child(ps[k], "/properties/"+jsonptr.Escape(k))})
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(pp)) {
			name, ok, _ := patternString([]string{k}, 1, -1, 2000)
			if !ok {
				continue
			}
			out = append(out, edge{seg: name, node: n.child(pp[k], "/patternProperties/"+jsonptr.Escape(k))})
		}
	}
	for _, kw := range []string{"additionalProperties", "unevaluatedProperties"} {
		if s, ok := m[kw]; ok {
			out = append(out, edge{seg: freshName([]sref{n}), node: n.child(s, "/"+kw)})
		}
	}
	out = append(out, d.itemEdges(n, m)...)
	return out
}

func (d *doc) itemEdges(n sref, m map[string]any) []edge {
	var out []edge
	prefixKw, restKw := "prefixItems", "items"
	if d.legacy {
		prefixKw, restKw = "items", "additionalItems"
		if _, isArr := m["items"].([]any); !isArr {
			prefixKw, restKw = "", "items"
		}
	}
	pre, _ := m[prefixKw].([]any)
	for i, s := range pre {
		out = append(out, edge{seg: i, node: n.child(s, "/"+prefixKw+"/"+itoa(i))})
	}
	for _, kw := range []string{restKw, "unevaluatedItems"} {
		if s, ok := m[kw]; ok {
			if _, isArr := s.([]any); !isArr {
				out = append(out, edge{seg: len(pre), node: n.child(s, "/"+kw)})
			}
		}
	}
	if s, ok := m["contains"]; ok {
		out = append(out, edge{seg: 0, node: n.child(s, "/contains")})
	}
	return out
}

// freshName is a property name that no properties or patternProperties
// of the nodes claim.
func freshName(flat []sref) string {
	decl := declared(flat)
	for i := 0; i < 100; i++ {
		name := "x"
		if i > 0 {
			name += strconv.Itoa(i)
		}
		taken := slices.Contains(decl, name)
		for _, f := range flat {
			if pp, ok := f.v.(map[string]any)["patternProperties"].(map[string]any); ok {
				for k := range pp {
					if re, ok := compileECMA(k); ok && re.MatchString(name) {
						taken = true
					}
				}
			}
		}
		if !taken {
			return name
		}
	}
	return "x_"
}

// segsEqual reports whether two routes reach the same instance location.
func segsEqual(a, b route) bool {
	if len(a.levels) != len(b.levels) {
		return false
	}
	for i := range a.levels {
		if a.levels[i].seg != b.levels[i].seg {
			return false
		}
	}
	return true
}
