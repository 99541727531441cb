package manifest

import "strconv"

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
