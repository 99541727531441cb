package textscan

import (
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// MaxDepth bounds the nesting WalkSchema follows, in JSON levels below the
// schema's root (every object and array is one). It is the one nesting
// limit, canonjson's, so a schema that could be read is read whole; the
// bound only guards values built some other way.
const MaxDepth = canonjson.MaxDepth

// Cut says where WalkSchema stopped: the path (object keys and array
// indices from the schema's root) of the first value it did not enter, in
// sorted order, and how many such values there were.
type Cut struct {
	Path  []string
	Count int
}

// WalkSchema calls visit for every string-valued "title" and "description"
// member at any depth of the decoded JSON Schema v (maps, slices and
// strings as encoding/json or the snapshot decoder produce them), with its
// path from v; the path is reused and valid only during the call. Instance
// data (const, default, enum, examples) is not text written for the model
// and is not walked. The keys of "properties" (and of the other maps of
// named schemas: patternProperties, $defs, definitions, dependentSchemas,
// dependencies)
// are names, not keywords: a property called "default" is walked like any
// other. Visits follow map order: callers sort what they
// report.
//
// Values nested deeper than MaxDepth are not entered; the returned Cut
// (nil when the walk was complete) says where, so that the caller reports
// the text it could not see instead of taking it for clean.
func WalkSchema(v any, visit func(path []string, text string)) *Cut {
	w := walker{visit: visit}
	// One path for the whole walk, deep enough for most schemas.
	w.walk(v, make([]string, 0, 16), 0, false)
	return w.cut
}

// walker is one walk's state (a type, not closures, so that a walk costs
// no allocation beyond its path).
type walker struct {
	visit func(path []string, text string)
	cut   *Cut
}

// walk visits v at depth. names is set for the members of a map whose keys
// are names, not keywords: a property called "default" is a schema like any
// other.
func (w *walker) walk(v any, at []string, depth int, names bool) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return
		}
	case []any:
		if len(x) == 0 {
			return
		}
	default:
		return
	}
	if depth > MaxDepth {
		if w.cut == nil {
			w.cut = &Cut{}
		}
		w.cut.Count++
		if w.cut.Path == nil || slices.Compare(at, w.cut.Path) < 0 {
			w.cut.Path = slices.Clone(at)
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for key, val := range x {
			at = append(at, key)
			switch s, ok := val.(string); {
			case ok && (key == "description" || key == "title"):
				w.visit(at, s)
			case names:
				w.walk(val, at, depth+1, false)
			case key == "const", key == "default", key == "enum", key == "examples":
			default:
				w.walk(val, at, depth+1, kw.HoldsMap(key))
			}
			at = at[:len(at)-1]
		}
	case []any:
		for i, e := range x {
			w.walk(e, append(at, strconv.Itoa(i)), depth+1, false)
		}
	}
}
