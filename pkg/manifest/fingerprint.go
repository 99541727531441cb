package manifest

import (
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// What each per-item fingerprint covers. All three are Hash(CanonicalizeValue(x))
// of the value x described here, so they are independent of key order and
// of the server's list order.
//
// full: the whole item exactly as served (every field, unknown ones and
// item-level _meta included).
//
// contract: what a client's calls depend on:
//   - tool: name; inputSchema and outputSchema with the documentation
//     keywords (title, description, examples, $comment,
//     markdownDescription) removed at every schema position; the four
//     behaviour hints of annotations as effective values, with the spec's
//     defaults applied (readOnlyHint false, destructiveHint true,
//     idempotentHint false, openWorldHint true); execution.
//   - prompt: name; each argument's name and effective required flag
//     (default false), sorted by name.
//   - resource: uri, name, mimeType.
//   - resource template: uriTemplate, name, mimeType.
//
// prose: every model-visible text, as a map from JSON Pointer to text:
// title and description of the item, annotations.title, title and
// description at every schema position of inputSchema and outputSchema,
// and each prompt argument's title and description.
//
// The manifest hash covers the whole snapshot except the fingerprints
// block (and protocolTrials, capabilityTrials): serverInfo, protocolVersion, handshake,
// supportedVersions, capabilities, instructions, failedMethods, partial
// and every item.

// Spec defaults for tool annotation hints.
var hintDefaults = map[string]bool{
	"readOnlyHint":    false,
	"destructiveHint": true,
	"idempotentHint":  false,
	"openWorldHint":   true,
}

// effectiveHints returns the four behaviour hints of a tool's annotations
// object with the spec's defaults applied. Non-boolean values are kept as
// served so that a malformed hint still changes the contract.
func effectiveHints(annotations any) map[string]any {
	a, _ := annotations.(map[string]any)
	out := make(map[string]any, len(hintDefaults))
	for k, def := range hintDefaults {
		if v, ok := a[k]; ok && v != nil {
			out[k] = v
		} else {
			out[k] = def
		}
	}
	return out
}

func contractOf(list string, item map[string]any) any {
	pick := func(keys ...string) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			if v, ok := item[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	switch list {
	case ListTools:
		c := pick("name", "execution")
		for _, k := range []string{"inputSchema", "outputSchema"} {
			if v, ok := item[k]; ok {
				b, err := appendNoDocs(nil, v, 1)
				if err != nil {
					// Leave the value whole; the caller's encode reports
					// the same error.
					c[k] = v
					continue
				}
				c[k] = canonjson.Canonical(b)
			}
		}
		c["annotations"] = effectiveHints(item["annotations"])
		return c
	case ListPrompts:
		c := pick("name")
		var args []any
		if arr, ok := item["arguments"].([]any); ok {
			type arg struct {
				name string
				v    map[string]any
			}
			var as []arg
			for _, a := range arr {
				am, _ := a.(map[string]any)
				name, _ := am["name"].(string)
				req, ok := am["required"]
				if !ok || req == nil {
					req = false
				}
				as = append(as, arg{name, map[string]any{"name": am["name"], "required": req}})
			}
			slices.SortStableFunc(as, func(x, y arg) int {
				switch {
				case x.name < y.name:
					return -1
				case x.name > y.name:
					return 1
				}
				return 0
			})
			for _, a := range as {
				args = append(args, a.v)
			}
		}
		c["arguments"] = args
		return c
	case ListResources:
		return pick("uri", "name", "mimeType")
	case ListResourceTemplates:
		return pick("uriTemplate", "name", "mimeType")
	}
	return item
}

func proseOf(list string, item map[string]any) map[string]any {
	out := map[string]any{}
	text := func(ptr string, v any) {
		if s, ok := v.(string); ok {
			out[ptr] = s
		}
	}
	text("/title", item["title"])
	text("/description", item["description"])
	if a, ok := item["annotations"].(map[string]any); ok {
		text("/annotations/title", a["title"])
	}
	if list == ListTools {
		for _, k := range []string{"inputSchema", "outputSchema"} {
			walkSchema(item[k], jsonptr.New(k), func(obj map[string]any, ptr jsonptr.Pointer) {
				// The pointer is built only for a text that is there: most
				// schema nodes have neither.
				for _, key := range []string{"title", "description"} {
					if s, ok := obj[key].(string); ok {
						out[ptr.Append(key).String()] = s
					}
				}
			})
		}
	}
	if list == ListPrompts {
		if arr, ok := item["arguments"].([]any); ok {
			for i, a := range arr {
				am, _ := a.(map[string]any)
				p := "/arguments/" + strconv.Itoa(i)
				text(p+"/title", am["title"])
				text(p+"/description", am["description"])
			}
		}
	}
	return out
}

// printsOf computes the three fingerprints of one decoded item.
func printsOf(list string, full []byte, item map[string]any) (Prints, error) {
	c, err := CanonicalizeValue(contractOf(list, item))
	if err != nil {
		return Prints{}, err
	}
	p, err := CanonicalizeValue(proseOf(list, item))
	if err != nil {
		return Prints{}, err
	}
	return Prints{Full: hash(full), Contract: hash(c), Prose: hash(p)}, nil
}
