package spec

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// features reports members that the negotiated revision's schema does not
// define for an object but another published revision does (for example
// a Tool's outputSchema under 2025-03-26). The walk follows the value
// through the negotiated schema: every object that a named definition
// describes (Tool, Icon, ToolAnnotations, Implementation,
// ServerCapabilities, ...) has its members compared with the properties
// of the same definition in the other revisions. Inline objects are not
// compared, and nor is anything below a definition that declares no
// properties (free-form objects such as _meta or a tool's inputSchema).
func (k *checker) features(v any, def string, loc locator) {
	if !k.known {
		return
	}
	k.walkDef(v, def, nil, loc, 0)
}

// maxFeatureDepth bounds the walk of a value along its definition: the
// one nesting limit.
const maxFeatureDepth = canonjson.MaxDepth

func (k *checker) walkDef(v any, def string, at []string, loc locator, depth int) {
	node, ok := k.schema.c.defs[def].(map[string]any)
	if !ok || depth > maxFeatureDepth {
		return
	}
	if obj, ok := v.(map[string]any); ok {
		if props, ok := node["properties"].(map[string]any); ok {
			keys := make([]string, 0, len(obj))
			for key := range obj {
				if _, defined := props[key]; !defined {
					keys = append(keys, key)
				}
			}
			sort.Strings(keys)
			for _, key := range keys {
				k.foreignField(def, key, appendPath(at, key), loc)
			}
		}
	}
	k.walkNode(v, node, at, loc, depth+1)
}

func (k *checker) walkNode(v any, node map[string]any, at []string, loc locator, depth int) {
	if depth > maxFeatureDepth {
		return
	}
	if ref, ok := node["$ref"].(string); ok {
		if name := k.refName(ref); name != "" {
			k.walkDef(v, name, at, loc, depth+1)
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if props, ok := node["properties"].(map[string]any); ok {
			for key, val := range x {
				if sub, ok := props[key].(map[string]any); ok {
					k.walkNode(val, sub, appendPath(at, key), loc, depth+1)
				}
			}
		}
	case []any:
		if items, ok := node["items"].(map[string]any); ok {
			for i, e := range x {
				k.walkNode(e, items, appendPath(at, strconv.Itoa(i)), loc, depth+1)
			}
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if branches, ok := node[kw].([]any); ok {
			if b := k.pickBranch(v, branches); b != nil {
				k.walkNode(v, b, at, loc, depth+1)
			}
		}
	}
	if all, ok := node["allOf"].([]any); ok {
		for _, b := range all {
			if bn, ok := b.(map[string]any); ok {
				k.walkNode(v, bn, at, loc, depth+1)
			}
		}
	}
}

// refName returns the definition a local reference names.
func (k *checker) refName(ref string) string {
	prefix := "#/" + k.rev.definitionsKey() + "/"
	if !strings.HasPrefix(ref, prefix) {
		return ""
	}
	name := ref[len(prefix):]
	if strings.Contains(name, "/") {
		return ""
	}
	return name
}

// pickBranch chooses the anyOf/oneOf branch an object is meant for, by
// its "type" member, or nil when that is not clear.
func (k *checker) pickBranch(v any, branches []any) map[string]any {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	t, ok := obj["type"].(string)
	if !ok {
		return nil
	}
	var found map[string]any
	for _, b := range branches {
		bn, ok := b.(map[string]any)
		if !ok {
			continue
		}
		resolved := bn
		if ref, ok := bn["$ref"].(string); ok {
			name := k.refName(ref)
			if resolved, ok = k.schema.c.defs[name].(map[string]any); !ok {
				continue
			}
		}
		props, _ := resolved["properties"].(map[string]any)
		tn, _ := props["type"].(map[string]any)
		if c, ok := tn["const"].(string); ok && c == t {
			if found != nil {
				return nil
			}
			found = bn
		}
	}
	return found
}

// revisionComparison is what features needs of the other revisions:
// their schemas, loaded the first time a member is not defined by the
// negotiated revision (most surfaces never need them), and what could
// not be decided for lack of one.
type revisionComparison struct {
	loaded  bool
	others  []*Schema // every other revision that could be loaded, oldest first
	missing []string  // the revisions that could not be, oldest first
	why     error     // the first one's error
	// undecided are members defined by none of the loaded revisions: an
	// extension, or a field of a missing one.
	undecided []string // "tool read_file /outputSchema"
}

// otherRevisions loads, once, the schemas of every revision but the
// negotiated one.
func (k *checker) otherRevisions() *revisionComparison {
	rc := &k.revisions
	if rc.loaded {
		return rc
	}
	rc.loaded = true
	for _, name := range RevisionNames() {
		if name == k.rev.Name {
			continue
		}
		s, err := k.all.Lookup(name)
		if err != nil {
			rc.missing = append(rc.missing, name)
			if rc.why == nil {
				rc.why = err
			}
			continue
		}
		rc.others = append(rc.others, s)
	}
	return rc
}

// foreignField reports a member of definition def that the negotiated
// revision lacks, when another revision defines it.
func (k *checker) foreignField(def, key string, at []string, loc locator) {
	rc := k.otherRevisions()
	var newer, older []string
	for _, s := range rc.others {
		d, ok := s.c.defs[def].(map[string]any)
		if !ok {
			continue
		}
		props, _ := d["properties"].(map[string]any)
		if _, ok := props[key]; !ok {
			continue
		}
		if s.Revision.Name > k.rev.Name {
			newer = append(newer, s.Revision.Name)
		} else {
			older = append(older, s.Revision.Name)
		}
	}
	subj, ptr, label := loc(at)
	if len(newer) == 0 && len(older) == 0 {
		if len(rc.missing) > 0 {
			rc.undecided = append(rc.undecided, label+" "+pathOf(relTokens(ptr)))
		}
		return // not an MCP field in any loaded revision: an extension
	}
	var since string
	if len(newer) > 0 {
		since = fmt.Sprintf("%s has it from %s", def, newer[0])
		if len(older) > 0 {
			since += fmt.Sprintf(" and had it up to %s", slices.Max(older))
		}
	} else {
		since = fmt.Sprintf("%s had it up to %s", def, slices.Max(older))
	}
	if len(rc.missing) > 0 {
		since += fmt.Sprintf("; not compared with %s, whose schema could not be loaded", strings.Join(rc.missing, ", "))
	}
	k.add(rules.ProtocolFeatureVersionMismatch, subj, ptr,
		fmt.Sprintf("%s: %s is not part of the %s revision (%s); clients that negotiated %s ignore or reject it",
			label, pathOf(relTokens(ptr)), k.rev.Name, since, k.rev.Name))
}

// undecidedFeatures reports, as one finding, the members that could not
// be told apart from extensions because a revision's schema is missing:
// the check is incomplete, and says so instead of passing silently.
func (k *checker) undecidedFeatures() {
	rc := &k.revisions
	if len(rc.undecided) == 0 {
		return
	}
	which := rc.undecided[0]
	if n := len(rc.undecided) - 1; n > 0 {
		which += fmt.Sprintf(" and %d more", n)
	}
	k.add(rules.ProtocolFeatureVersionMismatch, server, "",
		fmt.Sprintf("the comparison with other revisions is incomplete: the schema of %s could not be loaded (%v), so members that the %s schema does not define may be fields of %s or extensions: %s; make every revision's schema available to complete the check",
			strings.Join(rc.missing, ", "), rc.why, k.rev.Name, orList(rc.missing), which))
}

// orList names one revision, or several as "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func appendPath(at []string, tok string) []string {
	out := make([]string, len(at), len(at)+1)
	copy(out, at)
	return append(out, tok)
}
