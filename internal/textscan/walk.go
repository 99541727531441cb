package textscan

import (
	"slices"
	"strconv"
)

// MaxDepth bounds the nesting WalkSchema follows, in JSON levels below the
// schema's root (every object and array is one). It is the nesting the
// snapshot decoder accepts, so a schema that could be read is read whole;
// the bound only guards values built some other way.
const MaxDepth = 512

// nameMaps are the keywords whose value maps names to schemas.
var nameMaps = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}

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
// named schemas: patternProperties, $defs, definitions, dependentSchemas)
// are names, not keywords: a property called "default" is walked like any
// other. Visits follow map order: callers sort what they
// report.
//
// Values nested deeper than MaxDepth are not entered; the returned Cut
// (nil when the walk was complete) says where, so that the caller reports
// the text it could not see instead of taking it for clean.
func WalkSchema(v any, visit func(path []string, text string)) *Cut {
	var cut *Cut
	// names is set for the members of a map whose keys are names, not
	// keywords: a property called "default" is a schema like any other.
	var walk func(v any, at []string, depth int, names bool)
	walk = func(v any, at []string, depth int, names bool) {
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
			if cut == nil {
				cut = &Cut{}
			}
			cut.Count++
			if cut.Path == nil || slices.Compare(at, cut.Path) < 0 {
				cut.Path = slices.Clone(at)
			}
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for key, val := range x {
				at = append(at, key)
				switch s, ok := val.(string); {
				case ok && (key == "description" || key == "title"):
					visit(at, s)
				case names:
					walk(val, at, depth+1, false)
				case key == "const", key == "default", key == "enum", key == "examples":
				default:
					walk(val, at, depth+1, nameMaps[key])
				}
				at = at[:len(at)-1]
			}
		case []any:
			for i, e := range x {
				walk(e, append(at, strconv.Itoa(i)), depth+1, false)
			}
		}
	}
	walk(v, nil, 0, false)
	return cut
}
