package witness

import (
	"errors"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
)

// errNoLoading answers every reference outside the schema being compiled:
// a tool's schema comes from the server under test, and a witness is
// judged on what the schema says by itself.
var errNoLoading = errors.New("external references are not followed")

type refusingLoader struct{}

func (refusingLoader) Load(string) (any, error) { return nil, errNoLoading }

// validator is one side's raw schema compiled by the real validator.
type validator struct {
	url string
	sch *jsonschema.Schema
	t   *taint
}

// compileSide compiles doc (decoded) in the dialect its $schema declares,
// dialect ("2020-12" or "draft-07") when it declares none, with formats as
// annotations and no loading.
func compileSide(name string, doc any, dialect string) (*validator, error) {
	return compile(name, doc, dialect, false)
}

// compileAsserting is compileSide with the formats the validator knows
// asserted (the others stay annotations).
func compileAsserting(name string, doc any, dialect string) (*validator, error) {
	return compile(name, doc, dialect, true)
}

func compile(name string, doc any, dialect string, assert bool) (*validator, error) {
	v := &validator{url: "mem:///" + name + ".json", t: &taint{}}
	c := jsonschema.NewCompiler()
	if dialect == "draft-07" {
		c.DefaultDraft(jsonschema.Draft7)
	} else {
		c.DefaultDraft(jsonschema.Draft2020)
	}
	c.UseLoader(refusingLoader{})
	c.UseRegexpEngine(v.t.engine)
	if assert {
		c.AssertFormat()
	} else {
		for _, f := range formatNames(doc) {
			c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
		}
	}
	if err := c.AddResource(v.url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(v.url)
	if err != nil {
		return nil, err
	}
	v.sch = sch
	return v, nil
}

// formatNames lists every "format" value in doc, sorted by first
// appearance in a depth-first walk with sorted keys (bounded by the
// document, which the decoder bounds in depth).
func formatNames(doc any) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if s, ok := v[k].(string); ok && k == "format" && !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
				walk(v[k])
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return out
}

// hasFormat reports whether formatNames(doc) is not empty, without
// sorting or collecting anything (bounded, as formatNames, by the
// document, which the decoder bounds in depth).
func hasFormat(doc any) bool {
	switch v := doc.(type) {
	case map[string]any:
		if _, ok := v["format"].(string); ok {
			return true
		}
		for _, x := range v {
			if hasFormat(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasFormat(x) {
				return true
			}
		}
	}
	return false
}

// result is one validation: whether the instance is valid, the leaf
// errors, and whether the answer can be trusted (see taint).
type result struct {
	ok      bool
	leaves  []leaf
	trusted bool
}

// leaf is one error without causes: its keyword location (a JSON Pointer
// into the schema, references followed) and the property names it is
// about: those the keyword names (the missing required ones, the
// additional ones, the dependent ones, the name propertyNames rejected)
// and the member of the instance the error is at.
type leaf struct {
	loc   string
	names []string
}

func (v *validator) validate(inst any) result {
	v.t.set.Store(false)
	err := v.sch.Validate(inst)
	r := result{ok: err == nil}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		r.leaves = leafLocations(ve, v.url, nil, nil, 0)
	} else if err != nil {
		r.ok = false
		r.trusted = false
		return r
	}
	r.trusted = !v.t.set.Load()
	return r
}

// leafLocations collects the errors without causes, bounded in depth and
// count. A value that matched several oneOf branches is located at the
// branches it matched. names are those the errors above it are about.
func leafLocations(e *jsonschema.ValidationError, base string, names []string, out []leaf, depth int) []leaf {
	if depth > 64 || len(out) > 256 {
		return out
	}
	if len(e.Causes) == 0 {
		names := slices.Clone(names)
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			names = append(names, k.Missing...)
		case *kind.AdditionalProperties:
			names = append(names, k.Properties...)
		case *kind.DependentRequired:
			names = append(append(names, k.Prop), k.Missing...)
		case *kind.Dependency:
			names = append(append(names, k.Prop), k.Missing...)
		}
		if n := len(e.InstanceLocation); n > 0 {
			names = append(names, e.InstanceLocation[n-1])
		}
		loc := fragment(e.SchemaURL, base)
		if k, ok := e.ErrorKind.(*kind.OneOf); ok && len(k.Subschemas) > 0 {
			for _, i := range k.Subschemas {
				out = append(out, leaf{jsonptr.Pointer(loc).Append("oneOf", itoa(i)).String(), names})
			}
			return out
		}
		if _, ref := e.ErrorKind.(*kind.Reference); !ref && e.ErrorKind != nil {
			loc = jsonptr.Pointer(loc).Append(e.ErrorKind.KeywordPath()...).String()
		}
		return append(out, leaf{loc, names})
	}
	if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		// the name's own errors are below: they are about that name
		names = append(slices.Clone(names), k.Property)
	}
	for _, c := range e.Causes {
		out = leafLocations(c, base, names, out, depth+1)
	}
	return out
}

// fragment is the JSON Pointer of a schema location inside this side's
// document ("" for the root).
func fragment(loc, base string) string {
	rest, ok := strings.CutPrefix(loc, base)
	if !ok {
		return "?" + loc
	}
	rest = strings.TrimPrefix(rest, "#")
	if s, err := url.PathUnescape(rest); err == nil {
		rest = s
	}
	return rest
}
