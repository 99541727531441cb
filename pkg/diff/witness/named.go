package witness

import (
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// named is what a change that names values asks of its witness: the value
// at the change's location must be one the change names (the enum value
// removed, the old const, null for a null no longer allowed, a value of a
// type no longer allowed), so that "enum value "desc" removed" is never
// proven by a call that sends "asc" (which proves its neighbour). values
// are tried first; ok tells a candidate the change names.
type named struct {
	values []any
	types  []string // the types removed: values of them are the change's
	ok     func(v any) bool
}

// namedOf is nil for a change that names no value.
func namedOf(c schemadiff.Change, dir schemadiff.Direction) *named {
	gone, kept := c.Before, c.After // what the accepting side had and the other lost
	if dir == schemadiff.Output {
		gone, kept = kept, gone
	}
	decode := func(raw []byte) (any, bool) {
		if len(raw) == 0 {
			return nil, false
		}
		v, err := canonjson.Decode(raw)
		return v, err == nil
	}
	switch c.Rule {
	case rules.InputEnumValueRemoved, rules.OutputEnumValueAdded:
		v, ok := decode(gone)
		if !ok {
			return nil
		}
		return &named{values: []any{v}, ok: func(x any) bool { return equal(x, v) }}
	case rules.InputConstChanged, rules.OutputConstChanged, rules.InputConstAdded, rules.OutputConstRemoved:
		// the old const, or the members of the old enum the new const or
		// enum does not keep
		v, ok := decode(gone)
		if !ok {
			return nil
		}
		k, _ := decode(kept)
		vs := []any{v}
		if arr, isArr := v.([]any); isArr {
			vs = append(vs, arr...)
		}
		vs = slices.DeleteFunc(vs, func(x any) bool {
			if equal(x, k) {
				return true
			}
			ks, _ := k.([]any)
			return slices.ContainsFunc(ks, func(y any) bool { return equal(x, y) })
		})
		if len(vs) == 0 {
			return nil
		}
		return &named{values: vs, ok: func(x any) bool { return slices.ContainsFunc(vs, func(y any) bool { return equal(x, y) }) }}
	case rules.InputBecameNotNullable, rules.OutputBecameNullable:
		return &named{values: []any{nil}, ok: func(x any) bool { return x == nil }}
	case rules.InputTypeNarrowed, rules.OutputTypeWidened, rules.InputTypeChanged, rules.OutputTypeChanged:
		g, ok1 := decode(gone)
		k, ok2 := decode(kept)
		if !ok1 || !ok2 {
			return nil
		}
		gt, kt := typeSet(g), typeSet(k)
		if len(gt) == 0 || len(kt) == 0 {
			return nil
		}
		var removed []string
		for _, t := range typeOrder {
			if t != "null" && admits(gt, t) && !admits(kt, t) {
				removed = append(removed, t)
			}
		}
		if len(removed) == 0 {
			return nil
		}
		return &named{types: removed, ok: func(x any) bool { return slices.Contains(removed, typeOf(x)) }}
	}
	return nil
}

// typeSet is the types a type keyword's value lists.
func typeSet(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// admits reports whether a type list admits values of type t ("number"
// admits integers).
func admits(ts []string, t string) bool {
	return slices.Contains(ts, t) || t == "integer" && slices.Contains(ts, "number")
}
