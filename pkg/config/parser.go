package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

type parser struct {
	file string
	errs Errors
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

// mapping walks a mapping node, calling the handler of each key and
// reporting unknown and repeated keys.
// entries are the entries of the sequence n; anything else is reported
// (notList) and has none.
func (p *parser) entries(n *yaml.Node, notList string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "%s", notList)
		return nil
	}
	return n.Content
}

// mapped parses the mapping n with keys (mapping) and says whether that
// reported no error.
func (p *parser) mapped(n *yaml.Node, what string, keys map[string]func(*yaml.Node)) bool {
	before := len(p.errs)
	p.mapping(n, what, keys)
	return len(p.errs) == before
}

func (p *parser) mapping(n *yaml.Node, what string, keys map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "%s must be a mapping", what)
		return
	}
	known := make([]string, 0, len(keys))
	for k := range keys {
		known = append(known, k)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errf(k, "key %q repeated", k.Value)
			continue
		}
		seen[k.Value] = true
		h, ok := keys[k.Value]
		if !ok {
			p.errf(k, "unknown key %q%s", k.Value, didYouMean(k.Value, known))
			continue
		}
		h(v)
	}
}

// reader reads one value of a key: scalar, str, integer, number or
// boolean, each reporting what is wrong with the value under what.
type reader[T any] func(p *parser, n *yaml.Node, what string) (T, bool)

// set is the handler of a key whose value read reads into dst.
func set[T any](p *parser, dst *T, what string, read reader[T]) func(*yaml.Node) {
	return setIf(p, dst, what, read, nil, "")
}

// setIf is set for a value that must also satisfy valid; one that does
// not is the error "WHAT MUST, not VALUE".
func setIf[T any](p *parser, dst *T, what string, read reader[T], valid func(T) bool, must string) func(*yaml.Node) {
	return func(v *yaml.Node) {
		x, ok := read(p, v, what)
		if !ok {
			return
		}
		if valid != nil && !valid(x) {
			p.errf(v, "%s %s, not %v", what, must, x)
			return
		}
		*dst = x
	}
}

// oneOf is the handler of a key whose value is one of choices; another is
// the error "WHAT "VALUE": USE", with a suggestion.
func oneOf(p *parser, dst *string, what string, choices []string, use string) func(*yaml.Node) {
	return func(v *yaml.Node) {
		x, ok := p.scalar(v, what)
		if !ok {
			return
		}
		if !slices.Contains(choices, x) {
			p.errf(v, "%s %q: %s%s", what, x, use, didYouMean(x, choices))
			return
		}
		*dst = x
	}
}

// noting is h that first records the key's node in seen (for the keys
// that apply to one kind of server only).
func noting(seen map[string]*yaml.Node, key string, h func(*yaml.Node)) func(*yaml.Node) {
	return func(v *yaml.Node) {
		seen[key] = v
		h(v)
	}
}

func (p *parser) scalar(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errf(n, "%s must be a single value", what)
		return "", false
	}
	return n.Value, true
}

// stringMap reads a mapping of names to single values: notMapping is the
// error when v is not a mapping, each+" "+name names a value in its own
// errors. key and value, when set, refuse an entry (reporting why).
func (p *parser) stringMap(v *yaml.Node, notMapping, each string, key func(k *yaml.Node) bool, value func(n *yaml.Node, name, x string) bool) (map[string]string, bool) {
	if v.Kind != yaml.MappingNode {
		p.errf(v, "%s", notMapping)
		return nil, false
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, n := v.Content[i], v.Content[i+1]
		if key != nil && !key(k) {
			continue
		}
		if x, ok := p.scalar(n, each+" "+k.Value); ok && (value == nil || value(n, k.Value, x)) {
			out[k.Value] = x
		}
	}
	return out, true
}

func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	s, ok := p.scalar(n, what)
	if ok && n.Tag != "!!str" {
		p.errf(n, "%s must be a string (quote it)", what)
		return "", false
	}
	return s, ok
}

func (p *parser) integer(n *yaml.Node, what string) (int, bool) {
	return typed(p, n, what, "an integer", strconv.Atoi, "!!int")
}

func (p *parser) number(n *yaml.Node, what string) (float64, bool) {
	return typed(p, n, what, "a number", func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "!!int", "!!float")
}

func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	return typed(p, n, what, "true or false", func(s string) (bool, error) { return s == "true" || s == "True" || s == "TRUE", nil }, "!!bool")
}

// typed reads a scalar that YAML resolved to one of tags, with parse;
// anything else is reported as not being want.
func typed[T any](p *parser, n *yaml.Node, what, want string, parse func(string) (T, error), tags ...string) (T, bool) {
	var zero T
	s, ok := p.scalar(n, what)
	if !ok {
		return zero, false
	}
	v, err := parse(s)
	if err != nil || !slices.Contains(tags, n.Tag) {
		p.errf(n, "%s must be %s, not %q", what, want, s)
		return zero, false
	}
	return v, true
}

func (p *parser) strings(n *yaml.Node, what string) []string {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "%s must be a list", what)
		return nil
	}
	out := []string{}
	for _, e := range n.Content {
		if s, ok := p.str(e, what+" entry"); ok {
			out = append(out, s)
		}
	}
	return out
}

func known(id string) bool { _, ok := rules.Lookup(id); return ok }

// yamlJSON converts a YAML value to compact JSON.
func yamlJSON(n *yaml.Node) (json.RawMessage, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("not representable as JSON (keys must be strings)")
	}
	return b, nil
}

// didYouMean suggests the closest candidate, or "".
func didYouMean(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := textdiff.Levenshtein([]rune(strings.ToLower(s)), []rune(strings.ToLower(c)))
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(s)/4) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func suggestRule(id string) string {
	ids := make([]string, 0, len(rules.All()))
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	if s := didYouMean(id, ids); s != "" {
		return s
	}
	if sug := rules.Suggest(id); len(sug) > 0 {
		return fmt.Sprintf(" (did you mean %q?)", sug[0])
	}
	return "; run `mcp-surface explain --list` for the rule IDs"
}
