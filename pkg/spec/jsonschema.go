package spec

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// errNoLoading is what every $ref to a document outside the one being
// compiled gets: mcp-surface never reads files or the network on behalf
// of a schema it checks (a tool schema comes from the server under test).
var errNoLoading = errors.New("external references are not followed")

type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) { return nil, errNoLoading }

// draftOf maps a dialect URI onto the library's draft.
func draftOf(dialect string) *jsonschema.Draft {
	if dialect == DialectDraft07 {
		return jsonschema.Draft7
	}
	return jsonschema.Draft2020
}

// lenientRegexp compiles patterns with Go's RE2 engine. JSON Schema
// patterns are ECMA-262 regular expressions, a superset in places
// (lookaround, backreferences): such a pattern is accepted and matches
// everything rather than being reported as invalid, so only patterns that
// are malformed in any engine (an unclosed group, a trailing backslash)
// make a schema invalid.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err == nil {
		return re, nil
	}
	var serr *syntax.Error
	if errors.As(err, &serr) {
		switch serr.Code {
		case syntax.ErrInvalidPerlOp, syntax.ErrInvalidEscape, syntax.ErrInvalidRepeatSize,
			syntax.ErrInvalidNamedCapture, syntax.ErrInvalidCharRange, syntax.ErrLarge, syntax.ErrNestingDepth:
			return anyMatch(s), nil
		}
	}
	return nil, err
}

// anyMatch stands in for a pattern RE2 cannot evaluate.
type anyMatch string

func (anyMatch) MatchString(string) bool { return true }
func (a anyMatch) String() string        { return string(a) }

// newCompiler returns a compiler that reads nothing from outside, treats
// formats as annotations and uses dialect when a document has no $schema.
func newCompiler(dialect string) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draftOf(dialect))
	c.UseLoader(refusingLoader{})
	c.UseRegexpEngine(lenientRegexp)
	return c
}

// ignoreFormats registers a no-op for every format name used in doc, so
// that formats are annotations in every dialect. The library asserts
// formats by default for draft-07 only; the published schemas switch
// from draft-07 to 2020-12 between revisions, and a finding must not
// depend on which dialect a revision happened to be written in. Unknown
// formats ("byte") are ignored by the library anyway.
func ignoreFormats(c *jsonschema.Compiler, doc any) {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "format" && !seen[s] {
					seen[s] = true
					c.RegisterFormat(&jsonschema.Format{Name: s, Validate: func(any) error { return nil }})
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
}

// decodeJSON decodes bytes the way the validator wants them: numbers as
// json.Number, so large integers and exact decimals survive. It uses the
// manifest's decoder (the values encoding/json produces with UseNumber,
// without reflection, nesting bounded), several times faster on the
// megabytes of a large server's pages.
func decodeJSON(data []byte) (any, error) {
	v, err := manifest.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return v, nil
}
