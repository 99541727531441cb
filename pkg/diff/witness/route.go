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
// subschema at target. exhausted reports a search that stopped at
// maxRouteNodes without reaching it.
//
// The target's own pointer is tried first: when each of its steps is one
// an instance takes (a property, an item, a branch), that is the route,
// found in time linear in its length however wide the schema is. Only a
// target that the pointer does not reach that way (a $defs entry reached
// through a $ref) is searched for breadth first.
func (d *doc) findRoute(target string) (r route, ok, exhausted bool) {
	if path, ok := d.directPath(target); ok {
		return buildRoute(path), true, false
	}
	type qe struct {
		e      edge
		parent int
	}
	q := []qe{{e: edge{node: sref{d.root, "", d}}, parent: -1}}
	seen := map[string]bool{"": true}
	for i := 0; i < len(q); i++ {
		if i >= maxRouteNodes {
			return route{}, false, true
		}
		if q[i].e.node.ptr == target {
			var path []edge
			for j := i; j >= 0; j = q[j].parent {
				path = append(path, q[j].e)
			}
			slices.Reverse(path)
			return buildRoute(path), true, false
		}
		for _, e := range d.edges(q[i].e.node) {
			if !seen[e.node.ptr] {
				seen[e.node.ptr] = true
				q = append(q, qe{e, i})
			}
		}
	}
	return route{}, false, false
}

// directPath is the chain of edges that follows target's pointer from the
// root, one keyword (and member) at a time, when every step is an edge an
// instance walks (see edges); false when one is not (a $defs entry, a
// keyword generation does not walk).
func (d *doc) directPath(target string) ([]edge, bool) {
	p, err := jsonptr.Parse(target)
	if err != nil {
		return nil, false
	}
	toks := p.Tokens()
	cur := sref{d.root, "", d}
	path := []edge{{node: cur}}
	for i := 0; i < len(toks); {
		m, ok := cur.v.(map[string]any)
		if !ok {
			return nil, false
		}
		kw := toks[i]
		var e edge
		step := 1
		switch kw {
		case "properties", "patternProperties":
			if i+1 >= len(toks) {
				return nil, false
			}
			ps, _ := m[kw].(map[string]any)
			s, ok := ps[toks[i+1]]
			if !ok {
				return nil, false
			}
			name := toks[i+1]
			if kw == "patternProperties" {
				n, ok, _ := patternString([]string{name}, 1, -1, 2000)
				if !ok {
					return nil, false
				}
				name = n
			}
			e, step = edge{seg: name, node: cur.child(s, "/"+kw+"/"+jsonptr.Escape(toks[i+1]))}, 2
		case "allOf", "anyOf", "oneOf":
			if i+1 >= len(toks) {
				return nil, false
			}
			bs, _ := m[kw].([]any)
			n, err := strconv.Atoi(toks[i+1])
			if err != nil || n < 0 || n >= len(bs) || toks[i+1] != strconv.Itoa(n) {
				return nil, false
			}
			e, step = edge{node: cur.child(bs[n], "/"+kw+"/"+toks[i+1])}, 2
			if kw != "allOf" {
				e.choice, e.index = cur.ptr+"/"+kw, n
			}
		default:
			// items, prefixItems, additionalProperties, ...: the edges
			// say how an instance reaches them.
			want := cur.ptr + "/" + jsonptr.Escape(kw)
			if i+1 < len(toks) && (kw == "prefixItems" || kw == "items" && d.legacy) {
				want += "/" + toks[i+1]
				step = 2
			}
			found := false
			for _, c := range d.itemAndRestEdges(cur, m) {
				if c.node.ptr == want {
					e, found = c, true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
		path = append(path, e)
		cur = e.node
		i += step
	}
	return path, true
}

// itemAndRestEdges are the edges of n into its items and into the
// schemas of members no property names.
func (d *doc) itemAndRestEdges(n sref, m map[string]any) []edge {
	var out []edge
	for _, kw := range []string{"additionalProperties", "unevaluatedProperties"} {
		if s, ok := m[kw]; ok {
			out = append(out, edge{seg: freshName([]sref{n}), node: n.child(s, "/"+kw)})
		}
	}
	return append(out, d.itemEdges(n, m)...)
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
	return append(out, d.itemAndRestEdges(n, m)...)
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
