package config

import (
	"encoding/json"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The methods a probe calls (probes: method:).
const (
	MethodToolsCall          = "tools/call"
	MethodPromptsGet         = "prompts/get"
	MethodResourcesRead      = "resources/read"
	MethodCompletionComplete = "completion/complete"
)

// ProbeMethods lists the methods a probe can call.
var ProbeMethods = []string{MethodToolsCall, MethodPromptsGet, MethodResourcesRead, MethodCompletionComplete}

// The outcomes a probe can expect (expect:); "" means ExpectOK.
const (
	ExpectOK       = "ok"
	ExpectIsError  = "is-error"
	ExpectRPCError = "rpc-error"
)

// Expectations lists the outcomes a probe can expect.
var Expectations = []string{ExpectOK, ExpectIsError, ExpectRPCError}

// PinShape pins the JSON shape of a probe's result (pin:).
const PinShape = "shape"

// Probe is one entry of a server's probes:. Its fields are those of
// capture.Probe, in the same order, and so are the vocabularies above
// (ProbeMethods, Expectations, PinShape): pkg/check converts a Probe into
// a capture.Probe, and its tests hold the vocabularies equal.
type Probe struct {
	ID            string
	Method        string
	Name          string
	Arguments     json.RawMessage
	URI           string
	AllResources  bool
	MaxResources  int
	Ref           json.RawMessage
	ArgumentName  string
	ArgumentValue string
	Context       map[string]string
	Expect        string
	Pin           string
}

// probes parses a server's probes.
func (p *parser) probes(n *yaml.Node) []Probe {
	var out []Probe
	ids := map[string]bool{}
	for _, e := range p.entries(n, "probes must be a list") {
		var pr Probe
		if !p.mapped(e, "a probe", p.probeKeys(&pr)) {
			continue
		}
		if pr.ID == "" {
			pr.ID = strings.TrimSpace(pr.Method + " " + pr.Name + pr.URI)
		}
		switch {
		case !slices.Contains(ProbeMethods, pr.Method):
			p.errf(e, "probe method %q: use %s%s", pr.Method, strings.Join(ProbeMethods, ", "), didYouMean(pr.Method, ProbeMethods))
		case (pr.Method == MethodToolsCall || pr.Method == MethodPromptsGet) && pr.Name == "":
			p.errf(e, "a %s probe needs a name", pr.Method)
		case pr.Method == MethodResourcesRead && (pr.URI == "") == !pr.AllResources:
			p.errf(e, "a resources/read probe needs exactly one of uri and allResources: true")
		case pr.Method == MethodCompletionComplete && (pr.Ref == nil || pr.ArgumentName == ""):
			p.errf(e, "a completion/complete probe needs ref and argumentName")
		case pr.Expect == ExpectIsError && pr.Method != MethodToolsCall:
			p.errf(e, "expect: is-error applies to tools/call only (other methods answer ok or rpc-error)")
		case ids[pr.ID]:
			p.errf(e, "probe id %q repeated; give each probe an id", pr.ID)
		default:
			ids[pr.ID] = true
			out = append(out, pr)
		}
	}
	return out
}

// probeKeys is the table of a probe's keys.
func (p *parser) probeKeys(pr *Probe) map[string]func(*yaml.Node) {
	str := func(dst *string, what string) func(*yaml.Node) { return set(p, dst, what, (*parser).scalar) }
	object := func(dst *json.RawMessage, what string) func(*yaml.Node) {
		return func(v *yaml.Node) {
			if v.Kind != yaml.MappingNode {
				p.errf(v, "%s must be a mapping", what)
				return
			}
			if b, err := yamlJSON(v); err != nil {
				p.errf(v, "%s: %v", what, err)
			} else {
				*dst = b
			}
		}
	}
	return map[string]func(*yaml.Node){
		"id":            str(&pr.ID, "id"),
		"method":        str(&pr.Method, "method"),
		"name":          str(&pr.Name, "name"),
		"uri":           str(&pr.URI, "uri"),
		"argumentName":  str(&pr.ArgumentName, "argumentName"),
		"argumentValue": str(&pr.ArgumentValue, "argumentValue"),
		"arguments":     object(&pr.Arguments, "arguments"),
		"ref":           object(&pr.Ref, "ref"),
		"expect":        oneOf(p, &pr.Expect, "expect", Expectations, "use "+strings.Join(Expectations, ", ")),
		"pin": func(v *yaml.Node) {
			x, ok := p.scalar(v, "pin")
			if !ok {
				return
			}
			if x != PinShape {
				p.errf(v, "pin %q: the only pin is %q", x, PinShape)
				return
			}
			pr.Pin = x
		},
		"allResources": set(p, &pr.AllResources, "allResources", (*parser).boolean),
		"maxResources": set(p, &pr.MaxResources, "maxResources", (*parser).integer),
		"context": func(v *yaml.Node) {
			if m, ok := p.stringMap(v, "context must be a mapping of argument names to values", "context", nil, nil); ok {
				pr.Context = m
			}
		},
	}
}
