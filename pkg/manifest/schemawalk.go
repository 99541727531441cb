package manifest

import (
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// walkSchema calls fn for every subschema object reachable from s through
// the schema keywords (not through instance data such as enum or default),
// with its JSON Pointer relative to ptr. Depth is bounded by the decoder.
func walkSchema(s any, ptr jsonptr.Pointer, fn func(obj map[string]any, ptr jsonptr.Pointer)) {
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(obj, ptr)
	for k, v := range obj {
		// The pointer is built only under a keyword that holds schemas:
		// most members of a schema are not one.
		switch {
		case kw.HoldsMap(k):
			if m, ok := v.(map[string]any); ok {
				for name, sub := range m {
					walkSchema(sub, ptr.Append(k, name), fn)
				}
			}
		case kw.HoldsList(k):
			if arr, ok := v.([]any); ok {
				kp := ptr.Append(k)
				for i, sub := range arr {
					walkSchema(sub, kp.AppendIndex(i), fn)
				}
			} else if kw.HoldsOne(k) {
				walkSchema(v, ptr.Append(k), fn)
			}
		case kw.HoldsOne(k):
			walkSchema(v, ptr.Append(k), fn)
		}
	}
}

// stripDocs returns a deep copy of schema s without documentation keywords
// at schema positions (a property named "description" is kept).
func stripDocs(s any) any {
	obj, ok := s.(map[string]any)
	if !ok {
		return s
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if kw.Doc(k) {
			continue
		}
		switch {
		case kw.HoldsMap(k):
			if m, ok := v.(map[string]any); ok {
				mm := make(map[string]any, len(m))
				for name, sub := range m {
					mm[name] = stripDocs(sub)
				}
				out[k] = mm
				continue
			}
		case kw.HoldsList(k):
			if arr, ok := v.([]any); ok {
				aa := make([]any, len(arr))
				for i, sub := range arr {
					aa[i] = stripDocs(sub)
				}
				out[k] = aa
				continue
			}
			if kw.HoldsOne(k) {
				out[k] = stripDocs(v)
				continue
			}
		case kw.HoldsOne(k):
			out[k] = stripDocs(v)
			continue
		}
		out[k] = v
	}
	return out
}

// appendNoDocs appends schema s in canonical form without documentation
// keywords at schema positions: the same bytes as
// CanonicalizeValue(stripDocs(s)), without building the copy. depth is
// where s sits in the item, so that the one nesting limit holds.
func appendNoDocs(buf []byte, s any, depth int) ([]byte, error) {
	obj, ok := s.(map[string]any)
	if !ok {
		return canonjson.AppendValue(buf, s, depth)
	}
	return canonjson.AppendObject(buf, obj, depth, notDoc, appendKeyword)
}

func notDoc(k string) bool { return !kw.Doc(k) }

// appendKeyword appends the value of keyword k, its subschemas without
// their documentation.
func appendKeyword(buf []byte, k string, v any, depth int) ([]byte, error) {
	switch {
	case kw.HoldsMap(k):
		if m, ok := v.(map[string]any); ok {
			return canonjson.AppendObject(buf, m, depth, nil, appendSubschema)
		}
	case kw.HoldsList(k):
		if arr, ok := v.([]any); ok {
			buf = append(buf, '[')
			var err error
			for j, sub := range arr {
				if j > 0 {
					buf = append(buf, ',')
				}
				if buf, err = appendNoDocs(buf, sub, depth+1); err != nil {
					return nil, err
				}
			}
			return append(buf, ']'), nil
		}
		if kw.HoldsOne(k) {
			return appendNoDocs(buf, v, depth)
		}
	case kw.HoldsOne(k):
		return appendNoDocs(buf, v, depth)
	}
	return canonjson.AppendValue(buf, v, depth)
}

func appendSubschema(buf []byte, _ string, v any, depth int) ([]byte, error) {
	return appendNoDocs(buf, v, depth)
}
