package probe

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Options say what Evaluate judges besides each probe's expectation.
type Options struct {
	// Require lists what the probes must exercise: probe methods
	// (capture.MethodToolsCall, ...) or RequireAllAdvertised
	// (config require-probes).
	Require []string
	// Pins are the pinned shapes (ReadPins); nil when there are none.
	Pins *Pins
	// PinsFile names the pins file in messages; "" = DefaultPinsFile.
	PinsFile string
	// Secrets are values (Expand's) that must never appear in a message,
	// whatever their length.
	Secrets []string
}

// RequireAllAdvertised in Options.Require stands for every probe method
// whose capability the server advertises.
const RequireAllAdvertised = "all-advertised"

// Outcome is what a probe call came back with.
type Outcome string

const (
	OutcomeOK            Outcome = capture.ExpectOK       // a result (not isError)
	OutcomeIsError       Outcome = capture.ExpectIsError  // a tools/call result with isError: true
	OutcomeRPCError      Outcome = capture.ExpectRPCError // a JSON-RPC error
	OutcomeInputRequired Outcome = "input-required"       // 2026-07-28: the server asked for more input
	OutcomeNoAnswer      Outcome = "no-answer"            // nothing recorded
)

// outcomeOf classifies the answer to one probe call.
func outcomeOf(c *capture.Capture, r capture.ProbeResult) Outcome {
	x, ok := exchange(c, r)
	if !ok || x.ResponseFrame < 0 {
		return OutcomeNoAnswer
	}
	if x.Error != nil {
		return OutcomeRPCError
	}
	var res struct {
		IsError    *bool  `json:"isError"`
		ResultType string `json:"resultType"`
	}
	_ = json.Unmarshal(x.Result, &res)
	switch {
	case res.ResultType == "input_required":
		return OutcomeInputRequired
	case r.Probe.Method == capture.MethodToolsCall && res.IsError != nil && *res.IsError:
		return OutcomeIsError
	}
	return OutcomeOK
}

func exchange(c *capture.Capture, r capture.ProbeResult) (capture.Exchange, bool) {
	if r.Exchange < 0 || r.Exchange >= len(c.Exchanges) {
		return capture.Exchange{}, false
	}
	return c.Exchanges[r.Exchange], true
}

// Evaluate judges the probes a capture made against what they expect,
// what Options.Require asks them to exercise and the pinned shapes; m is
// the snapshot built from the same capture (its lists and capabilities).
// The findings are sorted; the coverage says what was and was not
// exercised, for the report.
func Evaluate(c *capture.Capture, m *manifest.Manifest, o Options) ([]finding.Finding, Coverage) {
	var out []finding.Finding
	for _, r := range c.Probes {
		if f, ok := expectation(c, r, o); ok {
			out = append(out, f)
		}
	}
	cov := coverageOf(c, m)
	out = append(out, cov.require(o.Require)...)
	out = append(out, compareShapes(c, o)...)
	finding.Sort(out)
	return out, cov
}

// subjectOf names what a probe call was about.
func subjectOf(r capture.ProbeResult) finding.Subject {
	switch r.Probe.Method {
	case capture.MethodToolsCall:
		return finding.Subject{Kind: finding.KindTool, Name: r.Target}
	case capture.MethodPromptsGet:
		return finding.Subject{Kind: finding.KindPrompt, Name: r.Target}
	case capture.MethodResourcesRead:
		return finding.Subject{Kind: finding.KindResource, Name: r.Target}
	case capture.MethodCompletionComplete:
		var ref struct{ Type, Name, URI string }
		_ = json.Unmarshal(r.Probe.Ref, &ref)
		if ref.Type == "ref/resource" {
			return finding.Subject{Kind: finding.KindResourceTemplate, Name: ref.URI}
		}
		return finding.Subject{Kind: finding.KindPrompt, Name: ref.Name}
	}
	return finding.Subject{Kind: finding.KindServer}
}

// pointer is where findings about a probe point: /probe/<id>.
func pointer(id string) string {
	return jsonptr.New("probe", id).String()
}

// describe names a probe call for people: its id, method and target, and
// its argument names; never argument values.
func describe(r capture.ProbeResult) string {
	p := r.Probe
	var b strings.Builder
	fmt.Fprintf(&b, "probe %q (%s", p.ID, p.Method)
	switch p.Method {
	case capture.MethodCompletionComplete:
		s := subjectOf(r)
		fmt.Fprintf(&b, " of %s %s, argument %s", s.Kind, s.Name, p.ArgumentName)
		if len(p.Context) > 0 {
			fmt.Fprintf(&b, ", context %s", strings.Join(slices.Sorted(maps.Keys(p.Context)), ", "))
		}
	default:
		if r.Target != "" {
			b.WriteString(" " + r.Target)
		}
		if names := argumentNames(p); len(names) > 0 {
			fmt.Fprintf(&b, " with arguments %s", strings.Join(names, ", "))
		}
	}
	b.WriteString(")")
	return b.String()
}

// expectation reports a probe whose outcome is not the one it expects.
func expectation(c *capture.Capture, r capture.ProbeResult, o Options) (finding.Finding, bool) {
	want := Outcome(r.Probe.Expect)
	if want == "" {
		want = OutcomeOK
	}
	got := outcomeOf(c, r)
	if got == want {
		return finding.Finding{}, false
	}
	x, _ := exchange(c, r)
	var what string
	switch got {
	case OutcomeRPCError:
		what = fmt.Sprintf("JSON-RPC error %d", x.Error.Code)
		if msg := o.scrub(r.Probe, x.Error.Message); msg != "" {
			what += fmt.Sprintf(" (%q)", msg)
		}
	case OutcomeIsError:
		what = "a result with isError: true"
		if text := firstText(x.Result); text != "" {
			if msg := o.scrub(r.Probe, text); msg != "" {
				what += fmt.Sprintf(" (%q)", msg)
			}
		}
	case OutcomeOK:
		what = "a result"
		if r.Probe.Method == capture.MethodToolsCall {
			what = "a successful result (no isError)"
		}
	case OutcomeInputRequired:
		what = "a request for more input (resultType input_required), which a probe cannot give"
	case OutcomeNoAnswer:
		what = "no answer"
		if r.SDKError != "" {
			what += fmt.Sprintf(" (%q)", o.scrub(r.Probe, r.SDKError))
		}
	}
	msg := fmt.Sprintf("%s expected %s, got %s", describe(r), describeExpect(want), what)
	return finding.New(rules.ProbeExpectationFailed, subjectOf(r), pointer(r.Probe.ID), msg, nil, nil), true
}

func describeExpect(o Outcome) string {
	switch o {
	case OutcomeIsError:
		return "a result with isError: true"
	case OutcomeRPCError:
		return "a JSON-RPC error"
	}
	return "a successful result"
}

// firstText is the text of the first text content block of a result.
func firstText(result json.RawMessage) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(result, &r)
	for _, c := range r.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	return ""
}

// scrub removes the probe's argument values and o.Secrets from server
// text before it is quoted.
func (o Options) scrub(p capture.Probe, s string) string {
	for _, v := range o.Secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "…")
		}
	}
	return scrub(p, s)
}
