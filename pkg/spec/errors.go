package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders validator messages; made on first use (start-up cost).
var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// leaf is one reportable validation failure.
type leaf struct {
	loc  []string // instance location
	kind jsonschema.ErrorKind
	// branches, for an anyOf/oneOf that no branch satisfied: each
	// branch's name and, when short, why it failed.
	branches []string
	// types, for an anyOf/oneOf whose every branch is for another value
	// of the "type" member: the values the branches want.
	types []string
}

// places are the instance locations l is reported at: its own, or for
// missing required properties the location of each property.
func (l leaf) places() [][]string {
	req, ok := l.kind.(*kind.Required)
	if !ok {
		return [][]string{l.loc}
	}
	var out [][]string
	for _, m := range req.Missing {
		out = append(out, append(slices.Clone(l.loc), m))
	}
	return out
}

// flatten reduces the validator's error tree to the failures worth
// reporting. Wrappers (a $ref, allOf, the root) are looked through. For
// anyOf/oneOf it reports the one branch the value was evidently meant to
// match (the only branch whose "type" discriminator the value does not
// contradict), or the alternative as a whole when that is ambiguous.
func flatten(e *jsonschema.ValidationError) []leaf {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		if len(e.Causes) == 0 {
			return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind}}
		}
		var out []leaf
		for _, c := range e.Causes {
			out = append(out, flatten(c)...)
		}
		return out
	case *kind.AnyOf, *kind.OneOf:
		if ok, _ := k.(*kind.OneOf); ok != nil && len(ok.Subschemas) > 0 {
			return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind}}
		}
		var cands [][]leaf
		var names, types []string
		allTyped := true
		for i, c := range e.Causes {
			ls := flatten(c)
			name := branchName(c, i)
			if len(ls) <= 2 {
				var why []string
				for _, l := range ls {
					why = append(why, shortWhy(e.InstanceLocation, l))
				}
				name += ": " + strings.Join(why, ", ")
			}
			names = append(names, name)
			if !contradictsDiscriminator(ls, e.InstanceLocation) {
				cands = append(cands, ls)
			} else if w, ok := discriminatorWant(ls, e.InstanceLocation); ok {
				types = append(types, w)
			} else {
				allTyped = false
			}
		}
		if len(cands) == 1 {
			return cands[0]
		}
		if len(cands) > 0 || !allTyped {
			types = nil
		}
		return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind, branches: names, types: types}}
	}
	return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind}}
}

// contradictsDiscriminator reports whether a branch failed because the
// value's "type" member is not the one the branch is for.
func contradictsDiscriminator(ls []leaf, at []string) bool {
	for _, l := range ls {
		if len(l.loc) == len(at)+1 && slices.Equal(l.loc[:len(at)], at) && l.loc[len(at)] == "type" {
			switch l.kind.(type) {
			case *kind.Const, *kind.Enum:
				return true
			}
		}
		if slices.Equal(l.loc, at) {
			if _, ok := l.kind.(*kind.Type); ok {
				return true
			}
		}
	}
	return false
}

// discriminatorWant returns the "type" value a branch wants, when the
// branch failed on it.
func discriminatorWant(ls []leaf, at []string) (string, bool) {
	for _, l := range ls {
		if len(l.loc) == len(at)+1 && slices.Equal(l.loc[:len(at)], at) && l.loc[len(at)] == "type" {
			if c, ok := l.kind.(*kind.Const); ok {
				return display(c.Want), true
			}
		}
	}
	return "", false
}

// branchName names an anyOf/oneOf branch by the definition it refers to.
func branchName(e *jsonschema.ValidationError, i int) string {
	if r, ok := e.ErrorKind.(*kind.Reference); ok {
		if j := strings.LastIndexByte(r.URL, '/'); j >= 0 {
			return r.URL[j+1:]
		}
	}
	return "branch " + strconv.Itoa(i)
}

// shortWhy is a branch's failure in a few words, for an anyOf summary.
func shortWhy(at []string, l leaf) string {
	rel := pathOf(l.loc[min(len(at), len(l.loc)):])
	switch k := l.kind.(type) {
	case *kind.Required:
		return "no " + joinQuoted(k.Missing, rel)
	case *kind.Const:
		return fmt.Sprintf("%s is not %s", orValue(rel), display(k.Want))
	case *kind.Type:
		return fmt.Sprintf("%s is %s", orValue(rel), article(k.Got))
	}
	return strings.TrimSpace(orValue(rel) + " " + l.kind.LocalizedString(printer()))
}

func joinQuoted(names []string, parent string) string {
	q := make([]string, len(names))
	for i, n := range names {
		if parent != "" {
			n = parent + "." + n
		}
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func orValue(s string) string {
	if s == "" {
		return "value"
	}
	return s
}

// pathOf renders location tokens for people: inputSchema.properties.x,
// icons[0].src.
func pathOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if _, err := strconv.Atoi(t); err == nil {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if t == "" || strings.ContainsAny(t, ". []\"") {
			b.WriteString(strconv.Quote(t))
		} else {
			b.WriteString(t)
		}
	}
	return b.String()
}

// display renders a JSON value for a message, bounded.
func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// article prefixes a JSON type name: "an object", "a string".
func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func articles(ts []string) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = article(t)
	}
	return strings.Join(out, " or ")
}

// valueAt returns the value at a location, if any.
func valueAt(root any, loc []string) (any, bool) {
	v := root
	for _, t := range loc {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[t]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// validateValue validates v against a definition of the negotiated
// revision and reports every failure through loc.
func (k *checker) validateValue(def string, v any, loc locator) {
	err := k.schema.ValidateValue(def, v)
	if err == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		// The published schema failed to compile: a bug, not a finding.
		panic(fmt.Sprintf("spec: %v", err))
	}
	for _, l := range flatten(ve) {
		for _, at := range l.places() {
			k.violation(v, at, l, loc)
		}
	}
}

// violation reports one failure at location at (for a missing property,
// the location of the property).
func (k *checker) violation(root any, at []string, l leaf, loc locator) {
	subj, ptr, label := loc(at)
	rule := rules.SchemaViolation
	rel := relTokens(ptr)
	where := pathOf(rel)
	if where == "" {
		where = "the value"
		if subj.Kind == finding.KindServer {
			where = "the result"
		}
	}
	revs := "the " + k.rev.Name + " schema"
	var msg string
	if subj.Kind == finding.KindTool && len(rel) >= 1 && len(rel) <= 2 && (rel[0] == "inputSchema" || rel[0] == "outputSchema") &&
		(len(rel) == 1 || rel[1] == "type") {
		if r, m, ok := k.notObject(root, l, rel, revs); ok {
			// One pointer for the whole requirement, so that the
			// fingerprint does not depend on how it was broken.
			rule, msg, ptr = r, m, "/"+rel[0]
		}
	}
	if msg == "" && len(l.types) > 0 {
		got, _ := valueAt(root, appendPath(l.loc, "type"))
		msg = fmt.Sprintf("%s has \"type\": %s, which is none of the types %s allows there (%s)", where, display(got), revs, strings.Join(l.types, ", "))
	}
	if msg == "" {
		msg = describe(l, where, revs)
	}
	k.add(rule, subj, ptr, label+": "+msg)
}

// notObject words a failure of a tool schema's root type requirement.
func (k *checker) notObject(root any, l leaf, rel []string, revs string) (rule, msg string, ok bool) {
	field := rel[0]
	rule = rules.ToolInputSchemaNotObject
	if field == "outputSchema" {
		rule = rules.ToolOutputSchemaNotObject
	}
	switch x := l.kind.(type) {
	case *kind.Required:
		if len(rel) == 2 {
			return rule, fmt.Sprintf(`%s has no "type": "object", which %s requires`, field, revs), true
		}
	case *kind.Type:
		if len(rel) == 1 {
			return rule, fmt.Sprintf(`%s is %s, but %s requires a JSON Schema object with "type": "object"`, field, article(x.Got), revs), true
		}
		got, _ := valueAt(root, l.loc)
		return rule, fmt.Sprintf(`%s has "type": %s, but %s requires "type": "object"`, field, display(got), revs), true
	case *kind.Const:
		if len(rel) == 2 {
			return rule, fmt.Sprintf(`%s has "type": %s, but %s requires "type": "object"`, field, display(x.Got), revs), true
		}
	}
	return "", "", false
}

// relTokens splits a JSON Pointer back into unescaped tokens.
func relTokens(ptr string) []string {
	return jsonptr.Pointer(ptr).Tokens()
}

// describe words one failure: where it is, what it is and what authority
// (a schema) wants instead.
func describe(l leaf, where, authority string) string {
	switch x := l.kind.(type) {
	case *kind.Required:
		return fmt.Sprintf("%s is missing, which %s requires", where, authority)
	case *kind.Type:
		return fmt.Sprintf("%s is %s, but %s requires %s", where, article(x.Got), authority, articles(x.Want))
	case *kind.Const:
		return fmt.Sprintf("%s is %s, but %s requires %s", where, display(x.Got), authority, display(x.Want))
	case *kind.Enum:
		var want []string
		for _, w := range x.Want {
			want = append(want, display(w))
		}
		return fmt.Sprintf("%s is %s, but %s allows only %s", where, display(x.Got), authority, strings.Join(want, ", "))
	case *kind.AnyOf:
		if len(l.types) > 0 {
			return fmt.Sprintf("%s has a \"type\" that is none of those %s allows there (%s)", where, authority, strings.Join(l.types, ", "))
		}
		return fmt.Sprintf("%s matches none of the shapes %s allows (%s)", where, authority, strings.Join(l.branches, "; "))
	case *kind.OneOf:
		if len(x.Subschemas) > 0 {
			return fmt.Sprintf("%s matches more than one of the shapes %s allows, and must match exactly one", where, authority)
		}
		return fmt.Sprintf("%s matches none of the shapes %s allows (%s)", where, authority, strings.Join(l.branches, "; "))
	case *kind.FalseSchema:
		return fmt.Sprintf("%s is not allowed by %s", where, authority)
	case *kind.AdditionalProperties:
		return fmt.Sprintf("%s has %s, which %s does not allow", where, joinQuoted(x.Properties, ""), authority)
	}
	return fmt.Sprintf("%s: %s (%s)", where, l.kind.LocalizedString(printer()), authority)
}
