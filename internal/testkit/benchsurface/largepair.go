package benchsurface

import (
	"fmt"
)

// LargePair is a base and a head snapshot file of the largest class a diff
// meets in real histories (about 3 MB each): tools tools, each with an
// inputSchema and an outputSchema of some 30 properties, recursive $refs
// (a filter that nests itself, a tree of nodes) and descriptions on every
// member. In head every tool carries the breaks a real release makes at
// once: an enum that loses two values, a maxLength lowered, a type
// narrowed, a nullable enum collapsed, and, in its output, a new enum
// value; each of them is witnessed. Generated, deterministic.
func LargePair(tools int) (base, head []byte, err error) {
	mk := func(changed bool) ([]byte, error) {
		return snapshotOf("bench-large", tools, func(i int) map[string]any { return largeTool(i, changed) })
	}
	if base, err = mk(false); err != nil {
		return nil, nil, err
	}
	head, err = mk(true)
	return base, head, err
}

func largeTool(i int, changed bool) map[string]any {
	desc := func(what string) string {
		return fmt.Sprintf("%s of tool %d. Accepts the values documented in the project's reference; an unknown value is rejected with a validation error that names it.", what, i)
	}
	states := []any{"open", "closed", "all", "draft"}
	maxTitle, limitType := 256, any("integer")
	kind := map[string]any{"anyOf": []any{
		map[string]any{"type": "string", "enum": []any{"bug", "task", "epic"}},
		map[string]any{"type": "null"},
	}, "description": desc("Kind")}
	outStates := []any{"open", "closed"}
	if changed {
		states = []any{"open", "closed"}
		maxTitle = 64
		limitType = "string"
		kind = map[string]any{"type": "string", "enum": []any{"bug", "task", "epic"}, "description": desc("Kind")}
		outStates = []any{"open", "closed", "merged"}
	}
	props := map[string]any{
		"title":  map[string]any{"type": "string", "maxLength": maxTitle, "description": desc("Title")},
		"state":  map[string]any{"type": "string", "enum": states, "description": desc("State")},
		"limit":  map[string]any{"type": limitType, "description": desc("Limit")},
		"kind":   kind,
		"filter": map[string]any{"$ref": "#/$defs/Filter"},
		"tree":   map[string]any{"$ref": "#/$defs/Node"},
	}
	for p := range 24 {
		props[fmt.Sprintf("opt_%02d", p)] = map[string]any{
			"type":        []string{"string", "integer", "boolean", "number"}[p%4],
			"description": desc(fmt.Sprintf("Option %d", p)),
		}
	}
	defs := map[string]any{
		"Filter": map[string]any{"type": "object", "description": desc("A filter"), "properties": map[string]any{
			"field": map[string]any{"type": "string", "description": desc("Field")},
			"op":    map[string]any{"enum": []any{"eq", "ne", "lt", "gt"}, "description": desc("Operator")},
			"and":   map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/Filter"}, "description": desc("All of")},
			"or":    map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/Filter"}, "description": desc("Any of")},
		}},
		"Node": map[string]any{"type": "object", "description": desc("A node"), "required": []any{"id"}, "properties": map[string]any{
			"id":       map[string]any{"type": "string", "description": desc("Id")},
			"children": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/Node"}, "description": desc("Children")},
		}},
	}
	out := map[string]any{"type": "object", "properties": map[string]any{
		"state": map[string]any{"enum": outStates, "description": desc("Result state")},
		"items": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/Node"}, "description": desc("Items")},
		"total": map[string]any{"type": "integer", "description": desc("Total")},
	}, "$defs": defs}
	return map[string]any{
		"name":         fmt.Sprintf("tool_%04d", i),
		"description":  desc("The tool"),
		"inputSchema":  map[string]any{"type": "object", "required": []any{"title"}, "properties": props, "$defs": defs},
		"outputSchema": out,
	}
}
