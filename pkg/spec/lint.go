package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// duplicates reports every identity that a list repeats, once, on the
// first occurrence, naming where the others are.
func (k *checker) duplicates() {
	for _, sec := range itemLists {
		first := map[string]*item{}
		where := map[string][]int{}
		var order []string
		for _, it := range k.bySec[sec] {
			id := identity(sec, it.value)
			if id == "" {
				continue
			}
			if _, ok := first[id]; !ok {
				first[id] = it
				order = append(order, id)
			}
			where[id] = append(where[id], it.index)
		}
		for _, id := range order {
			pos := where[id]
			if len(pos) < 2 {
				continue
			}
			it := first[id]
			ps := make([]string, len(pos))
			for i, p := range pos {
				ps[i] = strconv.Itoa(p)
			}
			k.add(rules.DuplicateIdentity, it.subj, "",
				fmt.Sprintf("%s is listed %d times by %s (positions %s); clients keep only one of them", it.label(), len(pos), sec.method, strings.Join(ps, ", ")))
		}
	}
}

var toolNameRE = lazyre.New(`^[A-Za-z0-9_.-]{1,128}$`)

// toolName checks the name rule 2025-11-25 introduced (a SHOULD).
func (k *checker) toolName(it *item) {
	name, ok := it.obj()["name"].(string)
	if !ok || toolNameRE().MatchString(name) {
		return
	}
	var why string
	switch n := len([]rune(name)); {
	case n == 0:
		why = "is empty"
	case n > 128:
		why = fmt.Sprintf("is %d characters long", n)
	default:
		var bad []string
		seen := map[rune]bool{}
		for _, r := range name {
			if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') && !seen[r] {
				seen[r] = true
				bad = append(bad, strconv.QuoteRune(r))
			}
		}
		why = "contains " + strings.Join(bad, ", ")
	}
	k.add(rules.ToolNameInvalid, it.subj, "/name",
		fmt.Sprintf("%s: the name %s; since 2025-11-25 tool names should be 1 to 128 characters of A-Z, a-z, 0-9, _, - and .", it.label(), why))
}

// description reports an item without a description.
func (k *checker) description(it *item) {
	d, present := it.obj()["description"]
	if s, ok := d.(string); present && (!ok || strings.TrimSpace(s) != "") {
		return // a description that is not a string is a schema violation
	}
	k.add(rules.DescriptionMissing, it.subj, "/description",
		fmt.Sprintf("%s has no description; the model has only its name to go by", it.label()))
}

// maxSchemaDepth bounds the schema walks; it is the one nesting limit,
// which the decoded schema is within already.
const maxSchemaDepth = canonjson.MaxDepth

// requiredUndefined reports, at any depth of a tool schema, a "required"
// entry naming a property the schema does not define. A property counts
// as defined when it is under "properties" of the same schema, of one of
// its composition branches (allOf, anyOf, oneOf, if/then/else), of the
// schemas a branch belongs to, or matches "patternProperties". Schemas with
// a reference next to "required" are skipped: the referenced schema may
// define it.
func (k *checker) requiredUndefined(it *item, field string, schema any) {
	// owners are the schemas whose composition the current schema is a
	// branch of, innermost last; they define properties for it too.
	var walk func(s any, at []string, owners []map[string]any, depth int)
	walk = func(s any, at []string, owners []map[string]any, depth int) {
		m, ok := s.(map[string]any)
		if !ok || depth > maxSchemaDepth {
			return
		}
		if req, ok := m["required"].([]any); ok && len(req) > 0 {
			k.checkRequired(it, field, m, req, at, owners)
		}
		for _, sk := range kw.Subschemas {
			x, ok := m[sk.Name]
			if !ok {
				continue
			}
			// A branch of an in-place keyword applies to the same instance:
			// the schemas it belongs to define properties for it too.
			var inh []map[string]any
			if sk.InPlace {
				inh = append(owners[:len(owners):len(owners)], m)
			}
			switch v := x.(type) {
			case map[string]any:
				switch {
				case sk.Form == kw.Map:
					for name, sub := range v {
						walk(sub, append(at, sk.Name, name), inh, depth+1)
					}
				case kw.HoldsOne(sk.Name):
					walk(v, append(at, sk.Name), inh, depth+1)
				}
			case []any:
				if kw.HoldsList(sk.Name) {
					for i, sub := range v {
						walk(sub, append(at, sk.Name, strconv.Itoa(i)), inh, depth+1)
					}
				}
			}
		}
	}
	walk(schema, nil, nil, 0)
}

func (k *checker) checkRequired(it *item, field string, m map[string]any, req []any, at []string, owners []map[string]any) {
	defined := map[string]bool{}
	for _, s := range append(owners[:len(owners):len(owners)], m) {
		if !addDefined(defined, s) {
			return // a reference may define anything
		}
	}
	for i, r := range req {
		name, ok := r.(string)
		if !ok || defined[name] || matchesPattern(m, name) {
			continue
		}
		ptr := jsonptr.New(field).Append(at...).Append("required").AppendIndex(i).String()
		where := field
		if len(at) > 0 {
			where = pathOf(append([]string{field}, at...))
		}
		k.add(rules.SchemaRequiredUndefined, it.subj, ptr,
			fmt.Sprintf("%s: %s requires %q but defines no such property", it.label(), where, name))
	}
}

// addDefined adds the properties a schema and its composition branches
// define; false when one of them has a reference (unknowable).
func addDefined(defined map[string]bool, m map[string]any) bool {
	add := func(s any) bool {
		sm, ok := s.(map[string]any)
		if !ok {
			return true
		}
		for _, name := range kw.Refers {
			if _, ok := sm[name]; ok {
				return false
			}
		}
		if props, ok := sm["properties"].(map[string]any); ok {
			for n := range props {
				defined[n] = true
			}
		}
		return true
	}
	if !add(m) {
		return false
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if arr, ok := m[kw].([]any); ok {
			for _, b := range arr {
				if !add(b) {
					return false
				}
			}
		}
	}
	for _, kw := range []string{"if", "then", "else"} {
		if sub, ok := m[kw]; ok && !add(sub) {
			return false
		}
	}
	return true
}

func matchesPattern(m map[string]any, name string) bool {
	pp, ok := m["patternProperties"].(map[string]any)
	if !ok {
		return false
	}
	for p := range pp {
		re, err := lenientRegexp(p)
		if err != nil || re.MatchString(name) {
			return true
		}
	}
	return false
}

// subjectLabel names a subject in messages.
func subjectLabel(s finding.Subject) string {
	if s.Kind == finding.KindResourceTemplate {
		return "resource template " + s.Name
	}
	return s.String()
}
