package clients

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// Tool is one tool as served: its name and decoded object.
type Tool struct {
	Name  string
	Value map[string]any
}

// Violation is one constraint of one profile that one tool (or the
// server, for tool-count) does not meet.
type Violation struct {
	Profile    Profile
	Constraint Constraint
	// Tool is the tool's name; "" for the server.
	Tool string
	// Pointer is where in the tool (or the server) the constraint fails.
	Pointer string
	// Detail says what is wrong there, without the reason.
	Detail string
}

// Violations checks tools against each profile. server is the name a
// prefixing profile without its own Server uses (the server's
// serverInfo.name). The result is sorted by tool, pointer and profile.
func Violations(server string, tools []Tool, ps []Profile) []Violation {
	var out []Violation
	for _, p := range ps {
		srv := cmp.Or(p.Server, server)
		for _, c := range p.Constraints {
			if c.Kind == KindToolCount {
				if len(tools) > c.Max {
					out = append(out, Violation{Profile: p, Constraint: c, Pointer: "/tools",
						Detail: fmt.Sprintf("the server lists %d tools, %d more than %d", len(tools), len(tools)-c.Max, c.Max)})
				}
				continue
			}
			for _, t := range tools {
				for _, v := range checkTool(c, srv, t) {
					v.Profile, v.Constraint, v.Tool = p, c, t.Name
					out = append(out, v)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Tool, b.Tool), strings.Compare(a.Pointer, b.Pointer),
			strings.Compare(a.Constraint.Rule(), b.Constraint.Rule()), strings.Compare(a.Profile.Name, b.Profile.Name))
	})
	return out
}

// checkTool returns the places where t fails c (Pointer and Detail set).
func checkTool(c Constraint, server string, t Tool) []Violation {
	if c.Kind == KindToolName {
		name := strings.ReplaceAll(c.Prefix, "{server}", server) + t.Name
		if c.re.MatchString(name) {
			return nil
		}
		detail := fmt.Sprintf("the name %q", t.Name)
		if name != t.Name {
			detail = fmt.Sprintf("the name as the client sends it, %q (%d characters),", name, len(name))
		}
		return []Violation{{Pointer: "/name", Detail: detail + " does not match " + c.Pattern}}
	}
	schema, ok := t.Value["inputSchema"].(map[string]any)
	if !ok {
		return nil
	}
	var out []Violation
	add := func(ptr, detail string) { out = append(out, Violation{Pointer: ptr, Detail: detail}) }
	manifest.WalkSchema(schema, "/inputSchema", func(obj map[string]any, ptr string) {
		switch c.Kind {
		case KindKeywords:
			for k := range obj {
				if !slices.Contains(c.Keywords, k) {
					add(ptr+"/"+escape(k), fmt.Sprintf("the keyword %q is not accepted", k))
				}
			}
		case KindSingleType:
			if ts, ok := obj["type"].([]any); ok {
				add(ptr+"/type", fmt.Sprintf("type is a list of %d types", len(ts)))
			}
		case KindClosedObject:
			if !isObject(obj) {
				return
			}
			switch ap, present := obj["additionalProperties"]; {
			case !present:
				add(ptr+"/additionalProperties", "the object does not set additionalProperties")
			case ap != false:
				add(ptr+"/additionalProperties", "additionalProperties is "+compact(ap)+", not false")
			}
		case KindAllRequired:
			props, _ := obj["properties"].(map[string]any)
			req := map[string]bool{}
			if rs, ok := obj["required"].([]any); ok {
				for _, r := range rs {
					if s, ok := r.(string); ok {
						req[s] = true
					}
				}
			}
			for name := range props {
				if !req[name] {
					add(ptr+"/properties/"+escape(name), fmt.Sprintf("the property %q is not in required", name))
				}
			}
		}
	})
	if c.Kind == KindKeywords {
		out = outermost(out)
	}
	return out
}

// outermost drops violations inside another one's pointer: a keyword the
// client refuses is reported once, not again for what it contains.
func outermost(vs []Violation) []Violation {
	slices.SortFunc(vs, func(a, b Violation) int { return strings.Compare(a.Pointer, b.Pointer) })
	var out []Violation
	for _, v := range vs {
		if n := len(out); n > 0 && strings.HasPrefix(v.Pointer, out[n-1].Pointer+"/") {
			continue
		}
		out = append(out, v)
	}
	return out
}

func isObject(obj map[string]any) bool {
	switch t := obj["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	_, ok := obj["properties"]
	return ok
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func escape(s string) string { return jsonptr.Escape(s) }

// findings turns violations into findings: the profiles that refuse the
// same thing at the same place make one finding, which names each with
// its reason and documentation.
func findings(vs []Violation) []finding.Finding {
	type key struct{ rule, tool, ptr string }
	var order []key
	by := map[key][]Violation{}
	for _, v := range vs {
		k := key{v.Constraint.Rule(), v.Tool, v.Pointer}
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], v)
	}
	out := make([]finding.Finding, 0, len(order))
	for _, k := range order {
		subj := finding.Subject{Kind: finding.KindServer}
		label := "server"
		if k.tool != "" {
			subj = finding.Subject{Kind: finding.KindTool, Name: k.tool}
			label = "tool " + strconv.Quote(k.tool)
		}
		// Profiles that see the same problem share its description.
		var details []string
		who := map[string][]string{}
		for _, v := range by[k] {
			if _, ok := who[v.Detail]; !ok {
				details = append(details, v.Detail)
			}
			who[v.Detail] = append(who[v.Detail], v.Describe())
		}
		parts := make([]string, len(details))
		for i, d := range details {
			parts[i] = d + ", rejected by " + strings.Join(who[d], "; ")
		}
		msg := label + ": " + strings.Join(parts, "; and ")
		out = append(out, finding.New(k.rule, subj, k.ptr, msg, nil, nil))
	}
	finding.Sort(out)
	return out
}

// Describe names the profile, the documented reason and its source.
func (v Violation) Describe() string {
	return fmt.Sprintf("%s (%s: %s, checked %s)", v.Profile.Label(), v.Constraint.Reason, v.Constraint.Source, v.Constraint.Checked)
}

// Check is Findings of Violations.
func Check(server string, tools []Tool, ps []Profile) []finding.Finding {
	return findings(Violations(server, tools, ps))
}

// ToolsOf returns a snapshot's server name and tools, for Violations.
func ToolsOf(m *manifest.Manifest) (string, []Tool, error) {
	var server string
	if len(m.ServerInfo) > 0 {
		var info struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(m.ServerInfo, &info); err == nil {
			server = info.Name
		}
	}
	tools := make([]Tool, 0, len(m.Tools))
	for _, it := range m.Tools {
		v, err := manifest.ItemValue(it)
		if err != nil {
			return "", nil, fmt.Errorf("tool %s: %w", it.ID, err)
		}
		tools = append(tools, Tool{Name: it.ID, Value: v})
	}
	return server, tools, nil
}
