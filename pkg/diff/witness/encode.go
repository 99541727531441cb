package witness

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// encode renders an instance in the canonical form with one exception:
// every array keeps its order. Canonical form sorts arrays of primitives
// (a set in a schema: required, enum), but in an instance the order is
// data: ["", 0] and [0, ""] are different tuples, and a witness must be
// the instance the validator judged.
func encode(v any) ([]byte, error) { return appendInstance(nil, v, 0) }

func appendInstance(dst []byte, v any, depth int) ([]byte, error) {
	if err := canonjson.CheckDepth(depth); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendInstance(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		return canonjson.AppendObject(dst, x, depth, nil, func(dst []byte, _ string, v any, depth int) ([]byte, error) {
			return appendInstance(dst, v, depth)
		})
	case nil, bool, string, json.Number:
		return canonjson.AppendValue(dst, x, depth)
	}
	return nil, fmt.Errorf("witness: unsupported Go type %T", v)
}
