package probe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Item is one listed tool, prompt, resource or resource template and the
// probes that exercised it.
type Item struct {
	Kind string `json:"kind"` // finding.KindTool, ...
	Name string `json:"name"` // name, URI or URI template
	// Probes are the ids of the probes that exercised it, sorted; empty
	// when none did.
	Probes []string `json:"probes,omitempty"`
}

// Coverage says what the probes of a capture exercised. An item counts as
// exercised when a probe called it and the server answered, whatever the
// outcome: tools by tools/call, prompts by prompts/get, resources by
// resources/read of their URI, resource templates by a read of a URI they
// match or a completion of one of their variables.
type Coverage struct {
	// Exercised and NotExercised hold every listed item, each in one of
	// them, sorted by kind (tools, prompts, resources, resource
	// templates) then name.
	Exercised    []Item `json:"exercised"`
	NotExercised []Item `json:"notExercised"`
	// Advertised lists the probe methods whose capability the server
	// advertises, in capture.ProbeMethods order.
	Advertised []string `json:"advertised"`
	// Calls is the number of probe calls the server answered; Completions
	// how many of them were completion/complete.
	Calls       int `json:"calls"`
	Completions int `json:"completions"`
}

var kindOrder = []string{finding.KindTool, finding.KindPrompt, finding.KindResource, finding.KindResourceTemplate}

// methodKind maps a probe method onto the kind of item it exercises.
var methodKind = map[string]string{
	capture.MethodToolsCall:     finding.KindTool,
	capture.MethodPromptsGet:    finding.KindPrompt,
	capture.MethodResourcesRead: finding.KindResource,
}

// capabilityOf maps a probe method onto the capability that offers it.
var capabilityOf = map[string]string{
	capture.MethodToolsCall:          "tools",
	capture.MethodPromptsGet:         "prompts",
	capture.MethodResourcesRead:      "resources",
	capture.MethodCompletionComplete: "completions",
}

func coverageOf(c *capture.Capture, m *manifest.Manifest) Coverage {
	var cov Coverage
	var caps map[string]json.RawMessage
	if m != nil {
		_ = json.Unmarshal(m.Capabilities, &caps)
	}
	for _, method := range capture.ProbeMethods {
		if v, ok := caps[capabilityOf[method]]; ok && string(v) != "null" {
			cov.Advertised = append(cov.Advertised, method)
		}
	}
	type key struct{ kind, name string }
	hits := map[key][]string{}
	var templates []*template
	if m != nil {
		for _, it := range m.ResourceTemplates {
			templates = append(templates, newTemplate(it.ID))
		}
	}
	for _, r := range c.Probes {
		if outcomeOf(c, r) == OutcomeNoAnswer {
			continue
		}
		cov.Calls++
		s := subjectOf(r)
		switch r.Probe.Method {
		case capture.MethodCompletionComplete:
			cov.Completions++
		case capture.MethodResourcesRead:
			for _, t := range templates {
				if t.match(r.Target) {
					k := key{finding.KindResourceTemplate, t.raw}
					hits[k] = append(hits[k], r.Probe.ID)
				}
			}
		}
		hits[key{s.Kind, s.Name}] = append(hits[key{s.Kind, s.Name}], r.Probe.ID)
	}
	if m == nil {
		return cov
	}
	for _, kind := range kindOrder {
		k, _ := manifest.KindOfSubject(kind)
		items := slices.Clone(m.Items(k.List))
		slices.SortFunc(items, func(a, b manifest.Item) int { return strings.Compare(a.ID, b.ID) })
		for i, it := range items {
			if i > 0 && items[i-1].ID == it.ID {
				continue
			}
			ids := hits[key{kind, it.ID}]
			slices.Sort(ids)
			ids = slices.Compact(ids)
			if len(ids) > 0 {
				cov.Exercised = append(cov.Exercised, Item{Kind: kind, Name: it.ID, Probes: ids})
			} else {
				cov.NotExercised = append(cov.NotExercised, Item{Kind: kind, Name: it.ID})
			}
		}
	}
	return cov
}

// required expands require-probes entries into methods: all-advertised
// is every advertised method.
func (cov Coverage) required(require []string) []string {
	var out []string
	for _, r := range require {
		if r == RequireAllAdvertised {
			out = append(out, cov.Advertised...)
		} else {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return slices.Index(capture.ProbeMethods, a) - slices.Index(capture.ProbeMethods, b)
	})
	return slices.Compact(out)
}

// require reports every item a required method should have exercised
// and did not.
func (cov Coverage) require(require []string) []finding.Finding {
	var out []finding.Finding
	for _, method := range cov.required(require) {
		switch method {
		case capture.MethodCompletionComplete:
			if slices.Contains(cov.Advertised, method) && cov.Completions == 0 {
				out = append(out, finding.New(rules.ProbeCoverageIncomplete, finding.Subject{Kind: finding.KindServer}, "/capabilities/completions",
					"the server advertises completions, but no completion/complete probe was answered, and require-probes asks for completion/complete", nil, nil))
			}
			continue
		}
		kind := methodKind[method]
		for _, it := range cov.NotExercised {
			if it.Kind != kind {
				continue
			}
			out = append(out, finding.New(rules.ProbeCoverageIncomplete, finding.Subject{Kind: it.Kind, Name: it.Name}, "",
				fmt.Sprintf("%s %s was not exercised by any probe, and require-probes asks for %s (%s)", noun(it.Kind), it.Name, method, every[method]), nil, nil))
		}
	}
	return out
}

var every = map[string]string{
	capture.MethodToolsCall:     "every listed tool called at least once",
	capture.MethodPromptsGet:    "every listed prompt got at least once",
	capture.MethodResourcesRead: "every listed resource read at least once",
}

func noun(kind string) string {
	if k, ok := manifest.KindOfSubject(kind); ok {
		return k.Noun
	}
	return kind
}

func plural(n int, kind string) string {
	s := noun(kind)
	if n != 1 {
		s += "s"
	}
	return fmt.Sprintf("%d %s", n, s)
}

// maxNames bounds the names a note lists.
const maxNames = 20

func names(items []Item) string {
	var ns []string
	for i, it := range items {
		if i == maxNames {
			ns = append(ns, fmt.Sprintf("and %d more", len(items)-maxNames))
			break
		}
		ns = append(ns, it.Name)
	}
	return strings.Join(ns, ", ")
}

// Notes describe the coverage for the report, one sentence each: how many
// calls were answered, then per kind of item that the server lists what
// was exercised (with the probes) and what was not. Item names come from
// the server; the report escapes them.
func (cov Coverage) Notes() []string {
	notes := []string{fmt.Sprintf("probes: %d %s answered", cov.Calls, pluralWord(cov.Calls, "call"))}
	for _, kind := range kindOrder {
		var ex, not []Item
		for _, it := range cov.Exercised {
			if it.Kind == kind {
				ex = append(ex, it)
			}
		}
		for _, it := range cov.NotExercised {
			if it.Kind == kind {
				not = append(not, it)
			}
		}
		if len(ex)+len(not) == 0 {
			continue
		}
		s := fmt.Sprintf("probes exercised %d of %s", len(ex), plural(len(ex)+len(not), kind))
		if len(ex) > 0 {
			s += ": " + names(ex)
		}
		if len(not) > 0 {
			s += "; not exercised: " + names(not)
		}
		notes = append(notes, s)
	}
	if slices.Contains(cov.Advertised, capture.MethodCompletionComplete) {
		notes = append(notes, fmt.Sprintf("probes made %d completion/complete %s", cov.Completions, pluralWord(cov.Completions, "call")))
	}
	return notes
}

func pluralWord(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// template matches URIs against an RFC 6570 URI template, loosely: each
// expression matches what its operator can expand to.
type template struct {
	raw string
	re  *regexp.Regexp
}

var expression = lazyre.New(`\{([+#./;?&]?)[^}]*\}`)

func newTemplate(raw string) *template {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range expression().FindAllStringSubmatchIndex(raw, -1) {
		b.WriteString(regexp.QuoteMeta(raw[last:m[0]]))
		op := ""
		if m[3] > m[2] {
			op = raw[m[2]:m[3]]
		}
		switch op {
		case "+", "#":
			b.WriteString(`.*`)
		case "/":
			b.WriteString(`(?:/[^/?#]*)*`)
		case ".":
			b.WriteString(`(?:\.[^/?#]*)*`)
		case ";":
			b.WriteString(`(?:;[^/?#]*)*`)
		case "?", "&":
			b.WriteString(`(?:[?&][^#]*)?`)
		default:
			b.WriteString(`[^/?#]*`)
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(raw[last:]))
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return &template{raw: raw}
	}
	return &template{raw: raw, re: re}
}

func (t *template) match(uri string) bool { return t.re != nil && t.re.MatchString(uri) }
