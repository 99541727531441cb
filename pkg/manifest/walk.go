package manifest

import "github.com/mcp-surface/mcp-surface/internal/base/jsonptr"

// WalkSchema calls fn for every subschema object reachable from schema
// through the JSON Schema keywords (never through instance data such as
// enum, const or default), with its JSON Pointer prefixed by ptr: the walk
// the fingerprints use, for packages that judge schemas by keyword. The
// order of siblings is not defined.
func WalkSchema(schema any, ptr string, fn func(obj map[string]any, ptr string)) {
	walkSchema(schema, jsonptr.Pointer(ptr), func(obj map[string]any, p jsonptr.Pointer) { fn(obj, p.String()) })
}
