package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// varRef is ${NAME}; $${ is a literal ${.
var varRef = lazyre.New(`\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Expand returns copies of the probes with every ${VAR} in a string value
// of their arguments (Arguments, at any depth, ArgumentValue and Context)
// replaced by lookup(VAR); $${ stands for a literal ${. Values expand as
// strings, whatever they hold. Names, URIs and refs are not expanded: they
// identify what is called and appear in reports.
//
// secrets are the non-empty values substituted, sorted, for callers that must
// keep them out of what they print or write (frames). An unset or empty
// variable is an error naming the probe, the argument and the variable,
// never a value.
func Expand(probes []capture.Probe, lookup func(string) string) (out []capture.Probe, secrets []string, err error) {
	var missing []string
	seen := map[string]bool{}
	expand := func(p capture.Probe, where, s string) string {
		if !strings.Contains(s, "${") {
			return s
		}
		return varRef().ReplaceAllStringFunc(s, func(m string) string {
			if m == "$${" {
				return "${"
			}
			name := m[2 : len(m)-1]
			v := lookup(name)
			if v == "" {
				missing = append(missing, fmt.Sprintf("probe %s: %s: environment variable %s is not set", p.ID, where, name))
				return ""
			}
			if !seen[v] {
				seen[v] = true
				secrets = append(secrets, v)
			}
			return v
		})
	}
	for _, p := range probes {
		q := p
		if bytes.Contains(p.Arguments, []byte("${")) {
			v, derr := decode(p.Arguments)
			if derr != nil {
				return nil, nil, fmt.Errorf("probe %s: arguments: %w", p.ID, derr)
			}
			v = walkStrings(v, "", func(path, s string) string { return expand(p, "argument "+path, s) })
			b, merr := json.Marshal(v)
			if merr != nil {
				return nil, nil, fmt.Errorf("probe %s: arguments: %w", p.ID, merr)
			}
			q.Arguments = b
		}
		q.ArgumentValue = expand(p, "argumentValue", p.ArgumentValue)
		if len(p.Context) > 0 {
			q.Context = make(map[string]string, len(p.Context))
			for _, k := range slices.Sorted(maps.Keys(p.Context)) {
				q.Context[k] = expand(p, "context "+k, p.Context[k])
			}
		}
		out = append(out, q)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, nil, fmt.Errorf("%s", strings.Join(slices.Compact(missing), "; "))
	}
	slices.Sort(secrets)
	return out, secrets, nil
}

// walkStrings replaces every string in a decoded JSON value; path names
// the place by its keys ("query", "filter.owner", "ids[2]").
func walkStrings(v any, path string, f func(path, s string) string) any {
	switch x := v.(type) {
	case string:
		return f(path, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			x[k] = walkStrings(x[k], p, f)
		}
	case []any:
		for i := range x {
			x[i] = walkStrings(x[i], fmt.Sprintf("%s[%d]", path, i), f)
		}
	}
	return v
}

// decode parses JSON keeping numbers exact.
func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// argumentNames returns the top-level argument names of a probe, sorted:
// what reports may show of its arguments.
func argumentNames(p capture.Probe) []string {
	var names []string
	if len(p.Arguments) > 0 {
		var m map[string]json.RawMessage
		if json.Unmarshal(p.Arguments, &m) == nil {
			names = slices.Sorted(maps.Keys(m))
		}
	}
	return names
}

// argumentStrings returns every string value in a probe's arguments,
// longest first: what must be cut out of server text before it is quoted.
func argumentStrings(p capture.Probe) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 3 {
			out = append(out, s)
		}
	}
	if len(p.Arguments) > 0 {
		if v, err := decode(p.Arguments); err == nil {
			walkStrings(v, "", func(_, s string) string { add(s); return s })
		}
	}
	add(p.ArgumentValue)
	for _, v := range p.Context {
		add(v)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// scrub removes every argument value of p from server text, bounds it and
// makes it one line.
func scrub(p capture.Probe, s string) string {
	for _, v := range argumentStrings(p) {
		s = strings.ReplaceAll(s, v, "…")
	}
	s = strings.Join(strings.Fields(s), " ")
	return textscan.Clip(s, 160, "…")
}
