package probe

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// Bounds of a derived shape: deeper values are "anything" ({}), further
// properties of one object and further array elements are not looked at.
const (
	MaxShapeDepth      = 16
	MaxShapeProperties = 200
	MaxShapeItems      = 100
)

// shape is a JSON Schema derived from values: the set of JSON types seen
// and, for objects and arrays, the shapes of members and elements.
type shape struct {
	any      bool // past MaxShapeDepth: no constraint
	types    map[string]bool
	props    map[string]*shape
	required map[string]bool // keys present in every object seen
	objects  int             // objects merged in, for required
	items    *shape
}

// valueSchema derives a JSON Schema from one JSON value: "type" (null,
// boolean, number, string, object, array), "properties" and "required" (every key present) for objects,
// "items" (the merge of the elements' shapes: types united, properties
// united, required intersected) for arrays. It holds key names and types,
// never a value. The result is canonical JSON.
func valueSchema(value json.RawMessage) (json.RawMessage, error) {
	v, err := manifest.Decode(value)
	if err != nil {
		return nil, err
	}
	return shapeOf(v, 0).canonical()
}

func shapeOf(v any, depth int) *shape {
	if depth > MaxShapeDepth {
		return &shape{any: true}
	}
	s := &shape{types: map[string]bool{}}
	switch x := v.(type) {
	case nil:
		s.types["null"] = true
	case bool:
		s.types["boolean"] = true
	case json.Number, float64:
		// One type for every number: a sample that happens to be whole
		// says nothing about the next one.
		s.types["number"] = true
	case string:
		s.types["string"] = true
	case []any:
		s.types["array"] = true
		for i, e := range x {
			if i == MaxShapeItems {
				break
			}
			s.items = merge(s.items, shapeOf(e, depth+1))
		}
	case map[string]any:
		s.types["object"] = true
		s.objects = 1
		s.props = map[string]*shape{}
		s.required = map[string]bool{}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if len(s.props) == MaxShapeProperties {
				break
			}
			s.props[k] = shapeOf(x[k], depth+1)
			s.required[k] = true
		}
	}
	return s
}

// merge unites two shapes (either may be nil).
func merge(a, b *shape) *shape {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.any || b.any:
		return &shape{any: true}
	}
	out := &shape{types: map[string]bool{}}
	for t := range a.types {
		out.types[t] = true
	}
	for t := range b.types {
		out.types[t] = true
	}
	out.items = merge(a.items, b.items)
	if a.objects+b.objects > 0 {
		out.objects = a.objects + b.objects
		out.props = map[string]*shape{}
		for k, p := range a.props {
			out.props[k] = p
		}
		for k, p := range b.props {
			out.props[k] = merge(out.props[k], p)
		}
		out.required = map[string]bool{}
		for k := range out.props {
			if (a.objects == 0 || a.required[k]) && (b.objects == 0 || b.required[k]) {
				out.required[k] = true
			}
		}
	}
	return out
}

// value renders the shape as a JSON Schema value.
func (s *shape) value() map[string]any {
	out := map[string]any{}
	if s.any {
		return out
	}
	types := make([]string, 0, len(s.types))
	for t := range s.types {
		types = append(types, t)
	}
	slices.Sort(types)
	if len(types) == 1 {
		out["type"] = types[0]
	} else {
		ts := make([]any, len(types))
		for i, t := range types {
			ts[i] = t
		}
		out["type"] = ts
	}
	if s.props != nil {
		props := map[string]any{}
		for k, p := range s.props {
			props[k] = p.value()
		}
		if len(props) > 0 {
			out["properties"] = props
		}
		var req []any
		for _, k := range slices.Sorted(maps.Keys(s.required)) {
			req = append(req, k)
		}
		if len(req) > 0 {
			out["required"] = req
		}
	}
	if s.items != nil {
		out["items"] = s.items.value()
	}
	return out
}

func (s *shape) canonical() (json.RawMessage, error) {
	return manifest.CanonicalizeValue(s.value())
}

// shapeTarget is the part of a probe's result whose shape is pinned: the
// structuredContent of a tool result when it has one, else the whole
// result without its _meta.
func shapeTarget(method string, result json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return result
	}
	if sc, ok := m["structuredContent"]; ok && method == capture.MethodToolsCall {
		return sc
	}
	if _, ok := m["_meta"]; !ok {
		return result
	}
	delete(m, "_meta")
	b, err := json.Marshal(m)
	if err != nil {
		return result
	}
	return b
}
