package manifest

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// Keywords whose value is a map of name → subschema.
var schemaMapKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true,
}

// Keywords whose value is a subschema.
var schemaKeywords = map[string]bool{
	"additionalProperties": true, "additionalItems": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "contains": true, "propertyNames": true, "not": true,
	"if": true, "then": true, "else": true, "items": true, "contentSchema": true,
}

// Keywords whose value is an array of subschemas.
var schemaArrayKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true,
}

// docKeywords are annotations meant for people and models, not validation.
var docKeywords = map[string]bool{
	"title": true, "description": true, "examples": true, "$comment": true,
	"markdownDescription": true,
}

// walkSchema calls fn for every subschema object reachable from s through
// the schema keywords (not through instance data such as enum or default),
// with its JSON Pointer relative to ptr. Depth is bounded by the decoder.
func walkSchema(s any, ptr string, fn func(obj map[string]any, ptr string)) {
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(obj, ptr)
	for k, v := range obj {
		kp := ptr + "/" + escapePointer(k)
		switch {
		case schemaMapKeywords[k]:
			if m, ok := v.(map[string]any); ok {
				for name, sub := range m {
					walkSchema(sub, kp+"/"+escapePointer(name), fn)
				}
			}
		case k == "dependencies":
			// draft-07: values are subschemas or arrays of names.
			if m, ok := v.(map[string]any); ok {
				for name, sub := range m {
					walkSchema(sub, kp+"/"+escapePointer(name), fn)
				}
			}
		case schemaArrayKeywords[k]:
			if arr, ok := v.([]any); ok {
				for i, sub := range arr {
					walkSchema(sub, kp+"/"+strconv.Itoa(i), fn)
				}
			} else if schemaKeywords[k] {
				walkSchema(v, kp, fn)
			}
		case schemaKeywords[k]:
			walkSchema(v, kp, fn)
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
		if docKeywords[k] {
			continue
		}
		switch {
		case schemaMapKeywords[k] || k == "dependencies":
			if m, ok := v.(map[string]any); ok {
				mm := make(map[string]any, len(m))
				for name, sub := range m {
					mm[name] = stripDocs(sub)
				}
				out[k] = mm
				continue
			}
		case schemaArrayKeywords[k]:
			if arr, ok := v.([]any); ok {
				aa := make([]any, len(arr))
				for i, sub := range arr {
					aa[i] = stripDocs(sub)
				}
				out[k] = aa
				continue
			}
			if schemaKeywords[k] {
				out[k] = stripDocs(v)
				continue
			}
		case schemaKeywords[k]:
			out[k] = stripDocs(v)
			continue
		}
		out[k] = v
	}
	return out
}

// escapePointer escapes a reference token (RFC 6901).
func escapePointer(s string) string {
	needs := false
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	out := make([]byte, 0, len(s)+2)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// encodeNoDocs writes schema s in canonical form without documentation
// keywords at schema positions: the same bytes as
// CanonicalizeValue(stripDocs(s)), without building the copy.
func encodeNoDocs(buf *bytes.Buffer, s any, depth int) error {
	obj, ok := s.(map[string]any)
	if !ok {
		return encode(buf, s, depth)
	}
	if depth > maxDepth {
		return fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if !docKeywords[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, k)
		buf.WriteByte(':')
		v := obj[k]
		var err error
		switch {
		case schemaMapKeywords[k] || k == "dependencies":
			if m, ok := v.(map[string]any); ok {
				err = encodeMap(buf, m, depth+1, func(sub any) error { return encodeNoDocs(buf, sub, depth+2) })
				break
			}
			err = encode(buf, v, depth+1)
		case schemaArrayKeywords[k]:
			if arr, ok := v.([]any); ok {
				buf.WriteByte('[')
				for j, sub := range arr {
					if j > 0 {
						buf.WriteByte(',')
					}
					if err = encodeNoDocs(buf, sub, depth+1); err != nil {
						return err
					}
				}
				buf.WriteByte(']')
				break
			}
			if schemaKeywords[k] {
				err = encodeNoDocs(buf, v, depth+1)
				break
			}
			err = encode(buf, v, depth+1)
		case schemaKeywords[k]:
			err = encodeNoDocs(buf, v, depth+1)
		default:
			err = encode(buf, v, depth+1)
		}
		if err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// encodeMap writes an object with sorted keys, each value by fn.
func encodeMap(buf *bytes.Buffer, m map[string]any, depth int, fn func(any) error) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(buf, k)
		buf.WriteByte(':')
		if err := fn(m[k]); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}
