package diff

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// enumOrder reports enums that kept their values but changed their order
// (the snapshot keeps enum order: hosts show the values to the model in
// the order served). It walks both schemas along the subschema keywords
// and returns whether the schemas are the same once their enums are
// sorted, so that the schema comparer's "equivalent rewrite" for the same
// edit is not reported as well.
func (d *differ) enumOrder(subj finding.Subject, root string, base, head json.RawMessage, dir schemadiff.Direction) (onlyOrder bool) {
	bv, err1 := d.schemas.Decode(base)
	hv, err2 := d.schemas.Decode(head)
	if err1 != nil || err2 != nil {
		return false
	}
	rule := rules.ToolInputEnumOrderChanged
	if dir == schemadiff.Output {
		rule = rules.ToolOutputEnumOrderChanged
	}
	found := false
	walkPair(bv, hv, jsonptr.Root, 0, func(p jsonptr.Pointer, b, h []any) {
		be, he := elements(b), elements(h)
		if slices.Equal(be, he) {
			return
		}
		sb, sh := slices.Clone(be), slices.Clone(he)
		slices.Sort(sb)
		slices.Sort(sh)
		if !slices.Equal(sb, sh) {
			return // values changed: the schema comparer reports that
		}
		found = true
		ptr := root + p.String() + "/enum"
		before, after := arrayOf(be), arrayOf(he)
		d.emit(rule, subj, ptr, fmt.Sprintf("enum values reordered (the model sees them in this order): %s", short(after)), before, after)
	})
	if !found {
		return false
	}
	return sameOrderedJSON(sortEnums(bv, 0), sortEnums(hv, 0))
}

// walkPair visits the enums present on both sides at the same place.
func walkPair(b, h any, p jsonptr.Pointer, depth int, visit func(jsonptr.Pointer, []any, []any)) {
	bo, ok1 := b.(map[string]any)
	ho, ok2 := h.(map[string]any)
	if !ok1 || !ok2 || depth > canonjson.MaxDepth {
		return
	}
	if be, ok := bo["enum"].([]any); ok {
		if he, ok := ho["enum"].([]any); ok {
			visit(p, be, he)
		}
	}
	for _, kw := range jsonschemakw.Subschemas {
		bs, hs := bo[kw.Name], ho[kw.Name]
		if bs == nil || hs == nil {
			continue
		}
		kp := p.Append(kw.Name)
		switch kw.Form {
		case jsonschemakw.Map:
			bm, _ := bs.(map[string]any)
			hm, _ := hs.(map[string]any)
			for k, v := range bm {
				if hv, ok := hm[k]; ok {
					walkPair(v, hv, kp.Append(k), depth+1, visit)
				}
			}
		default:
			bl, bok := bs.([]any)
			hl, hok := hs.([]any)
			if bok && hok {
				for i := range min(len(bl), len(hl)) {
					walkPair(bl[i], hl[i], kp.AppendIndex(i), depth+1, visit)
				}
				continue
			}
			walkPair(bs, hs, kp, depth+1, visit)
		}
	}
}

// sortEnums copies a schema with every enum of primitives sorted.
func sortEnums(v any, depth int) any {
	o, ok := v.(map[string]any)
	if !ok || depth > canonjson.MaxDepth {
		return v
	}
	out := make(map[string]any, len(o))
	for k, x := range o {
		out[k] = x
	}
	if e, ok := o["enum"].([]any); ok {
		els := elements(e)
		slices.Sort(els)
		out["enum"] = rawList(els)
	}
	for _, kw := range jsonschemakw.Subschemas {
		switch x := o[kw.Name].(type) {
		case map[string]any:
			if kw.Form == jsonschemakw.Map {
				m := make(map[string]any, len(x))
				for k, s := range x {
					m[k] = sortEnums(s, depth+1)
				}
				out[kw.Name] = m
			} else {
				out[kw.Name] = sortEnums(x, depth+1)
			}
		case []any:
			l := make([]any, len(x))
			for i, s := range x {
				l[i] = sortEnums(s, depth+1)
			}
			out[kw.Name] = l
		}
	}
	return out
}

// elements are an array's elements in canonical form.
func elements(a []any) []string {
	out := make([]string, len(a))
	for i, v := range a {
		c, err := canonjson.CanonicalizeValue(v)
		if err != nil {
			c = []byte(fmt.Sprint(v))
		}
		out[i] = string(c)
	}
	return out
}

// arrayOf is the canonical array of canonical elements.
func arrayOf(els []string) json.RawMessage {
	b := []byte{'['}
	for i, e := range els {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

func rawList(els []string) []any {
	out := make([]any, len(els))
	for i, e := range els {
		out[i] = json.RawMessage(e)
	}
	return out
}

// sameOrderedJSON compares two decoded values keeping array order.
func sameOrderedJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
