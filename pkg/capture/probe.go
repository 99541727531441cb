package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Probe methods.
const (
	MethodToolsCall          = "tools/call"
	MethodPromptsGet         = "prompts/get"
	MethodResourcesRead      = "resources/read"
	MethodCompletionComplete = "completion/complete"
)

// Probe is one declared call made after the lists, over the same recorded
// session. Nothing is called unless declared.
type Probe struct {
	// ID names the probe in reports (unique within a capture).
	ID string `json:"id"`
	// Method is tools/call, prompts/get, resources/read or completion/complete.
	Method string `json:"method"`
	// Name is the tool or prompt name (tools/call, prompts/get).
	Name string `json:"name,omitempty"`
	// Arguments are the tool arguments (a JSON object), or the prompt
	// arguments (an object of strings).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// URI is the resource to read. With AllResources set, every listed
	// resource is read instead, up to MaxResources.
	URI          string `json:"uri,omitempty"`
	AllResources bool   `json:"allResources,omitempty"`
	MaxResources int    `json:"maxResources,omitempty"`
	// Ref, ArgumentName, ArgumentValue and Context describe a completion:
	// Ref is {"type":"ref/prompt","name":...} or {"type":"ref/resource","uri":...}.
	Ref           json.RawMessage   `json:"ref,omitempty"`
	ArgumentName  string            `json:"argumentName,omitempty"`
	ArgumentValue string            `json:"argumentValue,omitempty"`
	Context       map[string]string `json:"context,omitempty"`
	// Expect is the outcome the probe declares (ExpectOK, ExpectIsError,
	// ExpectRPCError); "" means ExpectOK. The capture makes the call
	// whatever it expects; pkg/probe judges the outcome.
	Expect string `json:"expect,omitempty"`
	// Pin is PinShape when the shape of the result is pinned next to the
	// snapshot and compared (pkg/probe); "" for none.
	Pin string `json:"pin,omitempty"`
}

// Outcomes a probe can expect.
const (
	// ExpectOK: a result (for tools/call, one without isError: true).
	ExpectOK = "ok"
	// ExpectIsError: a tools/call result with isError: true, the way a
	// tool reports its own failure.
	ExpectIsError = "is-error"
	// ExpectRPCError: a JSON-RPC error response.
	ExpectRPCError = "rpc-error"
)

// Expectations lists the outcomes a probe can expect.
var Expectations = []string{ExpectOK, ExpectIsError, ExpectRPCError}

// PinShape pins the JSON shape of a probe's result.
const PinShape = "shape"

// ProbeMethods lists the methods a probe can call.
var ProbeMethods = []string{MethodToolsCall, MethodPromptsGet, MethodResourcesRead, MethodCompletionComplete}

// ProbeResult is what one probe call produced. The raw result or error is
// in Exchanges[Exchange].
type ProbeResult struct {
	Probe Probe `json:"probe"`
	// Target is the tool or prompt name or resource URI actually called
	// (for AllResources, one result per resource).
	Target string `json:"target"`
	// Exchange indexes Capture.Exchanges; -1 when no request was recorded.
	Exchange int `json:"exchange"`
	// SDKError is the SDK's complaint, if any (a JSON-RPC error, a result
	// it could not decode, a structuredContent it found invalid). The raw
	// bytes are kept either way.
	SDKError string `json:"sdkError,omitempty"`
}

// DefaultMaxResources bounds an AllResources probe.
const DefaultMaxResources = 100

// runProbes calls every declared probe in order. A probe that times out or
// breaks the session stops the capture with an error naming the limit; a
// probe answered with an error is recorded and the next one runs.
func (c *Capture) runProbes(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits, probes []Probe) error {
	for _, p := range probes {
		targets := []string{p.URI}
		switch p.Method {
		case MethodToolsCall, MethodPromptsGet:
			targets = []string{p.Name}
		case MethodResourcesRead:
			if p.AllResources {
				targets = c.listedResourceURIs()
				max := p.MaxResources
				if max <= 0 {
					max = DefaultMaxResources
				}
				if len(targets) > max {
					c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagProbeBounded, Method: p.Method,
						Message: fmt.Sprintf("probe %s: %d resources listed, only the first %d read (raise maxResources)", p.ID, len(targets), max)})
					targets = targets[:max]
				}
			}
		case MethodCompletionComplete:
			targets = []string{string(p.Ref)}
		default:
			return fmt.Errorf("probe %s: unknown method %q (use tools/call, prompts/get, resources/read or completion/complete)", p.ID, p.Method)
		}
		for _, target := range targets {
			before := rec.len()
			rctx, cancel := context.WithTimeout(ctx, lim.RequestTimeout)
			sdkErr := callProbe(rctx, cs, p, target)
			cancel()
			ex, ok := lastExchange(rec.snapshot()[before:], p.Method)
			if !ok || ex.ResponseFrame < 0 {
				if sdkErr == nil {
					sdkErr = fmt.Errorf("no request was sent")
				}
				return blame(ctx, rctx, sdkErr, rec, sess, "probe "+p.ID+" ("+p.Method+" "+truncate(target, 80)+")", &LimitError{
					Limit: LimitRequestTimeout, Value: lim.RequestTimeout.String(),
					Detail: "no answer to the probe"})
			}
			r := ProbeResult{Probe: p, Target: target, Exchange: -1}
			all := exchanges(rec.snapshot())
			for i := len(all) - 1; i >= 0; i-- {
				if all[i].RequestFrame == ex.RequestFrame {
					r.Exchange = i
					break
				}
			}
			if sdkErr != nil {
				r.SDKError = truncate(sdkErr.Error(), 500)
			}
			c.Probes = append(c.Probes, r)
		}
	}
	return nil
}

func (c *Capture) listedResourceURIs() []string {
	var uris []string
	for _, res := range listedItems[addressed](c, MethodResourcesList, "resources") {
		if res.URI != "" {
			uris = append(uris, res.URI)
		}
	}
	slices.Sort(uris)
	return slices.Compact(uris)
}

func callProbe(ctx context.Context, cs *mcp.ClientSession, p Probe, target string) error {
	var err error
	switch p.Method {
	case MethodToolsCall:
		params := &mcp.CallToolParams{Name: target}
		if len(p.Arguments) > 0 {
			params.Arguments = p.Arguments
		} else {
			params.Arguments = json.RawMessage(`{}`)
		}
		_, err = cs.CallTool(ctx, params)
	case MethodPromptsGet:
		params := &mcp.GetPromptParams{Name: target}
		if len(p.Arguments) > 0 {
			if uerr := json.Unmarshal(p.Arguments, &params.Arguments); uerr != nil {
				return fmt.Errorf("prompt arguments must be an object of strings: %w", uerr)
			}
		}
		_, err = cs.GetPrompt(ctx, params)
	case MethodResourcesRead:
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: target})
	case MethodCompletionComplete:
		var ref mcp.CompleteReference
		if uerr := json.Unmarshal(p.Ref, &ref); uerr != nil {
			return fmt.Errorf("completion ref: %w", uerr)
		}
		params := &mcp.CompleteParams{Ref: &ref, Argument: mcp.CompleteParamsArgument{Name: p.ArgumentName, Value: p.ArgumentValue}}
		if len(p.Context) > 0 {
			params.Context = &mcp.CompleteContext{Arguments: p.Context}
		}
		_, err = cs.Complete(ctx, params)
	}
	return err
}
