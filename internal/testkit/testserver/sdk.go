package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Page sizes of the SDK modes (ServerOptions.PageSize).
const (
	FullPageSize      = 4
	ToolsOnlyPageSize = 2
	BigPageSize       = 100
	BigToolCount      = 5000
)

func implementation() *mcp.Implementation {
	return &mcp.Implementation{Name: ServerName, Title: ServerTitle, Version: ServerVersion}
}

// newFull builds the full surface. With a seed it builds the shuffled variant:
// the same items, registered in a seed-dependent order, with every JSON
// schema's object keys emitted in a seed-dependent order.
func newFull(seed *int64) *mcp.Server {
	var rng *rand.Rand
	if seed != nil {
		rng = rand.New(rand.NewPCG(uint64(*seed), 0x6d63702d73757266)) // "mcp-surf"
	}
	srv := mcp.NewServer(implementation(), &mcp.ServerOptions{
		Instructions: fullInstructions,
		PageSize:     FullPageSize,
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})

	tools := slices.Clone(fullTools)
	prompts := slices.Clone(fullPrompts)
	resources := slices.Clone(fullResources)
	templates := slices.Clone(fullTemplates)
	if rng != nil {
		shuffle(rng, tools)
		shuffle(rng, prompts)
		shuffle(rng, resources)
		shuffle(rng, templates)
	}
	for _, d := range tools {
		addTool(srv, d, rng)
	}
	for _, p := range prompts {
		srv.AddPrompt(p, promptHandler(p))
	}
	for _, r := range resources {
		srv.AddResource(r.res, resourceHandler(r))
	}
	for _, t := range templates {
		srv.AddResourceTemplate(t, templateHandler(t))
	}
	return srv
}

func shuffle[T any](rng *rand.Rand, s []T) {
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}

func newToolsOnly() *mcp.Server {
	srv := mcp.NewServer(implementation(), &mcp.ServerOptions{
		PageSize: ToolsOnlyPageSize,
		// A non-nil Capabilities drops the SDK's default "logging"
		// capability; "tools" is inferred from the registered tools.
		Capabilities: &mcp.ServerCapabilities{},
	})
	for _, d := range fullTools {
		if slices.Contains(toolsOnlyNames, d.name) {
			addTool(srv, d, nil)
		}
	}
	return srv
}

func newBig() *mcp.Server {
	srv := mcp.NewServer(implementation(), &mcp.ServerOptions{
		PageSize:     BigPageSize,
		Capabilities: &mcp.ServerCapabilities{},
	})
	for i := range BigToolCount {
		srv.AddTool(&mcp.Tool{
			Name:        fmt.Sprintf("tool_%04d", i),
			Description: fmt.Sprintf("Generated tool number %d, for benchmarks.", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"Query."},"n":{"type":"integer","minimum":0,"maximum":1000}},"required":["q"]}`),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: i%2 == 0},
		}, textTool("ok"))
	}
	return srv
}

// addTool registers d with the low-level Server.AddTool, which keeps the
// json.RawMessage schemas byte for byte (so that key order reaches the wire).
func addTool(srv *mcp.Server, d toolDef, rng *rand.Rand) {
	t := &mcp.Tool{
		Name:        d.name,
		Title:       d.title,
		Description: d.desc,
		InputSchema: schemaJSON(d.input, rng),
		Annotations: d.ann,
		Meta:        d.meta,
		Icons:       d.icons,
	}
	if d.output == "" {
		srv.AddTool(t, textTool("ok: "+d.name))
		return
	}
	t.OutputSchema = schemaJSON(d.output, rng)
	sample := schemaJSON(d.sample, nil)
	srv.AddTool(t, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(sample)}},
			StructuredContent: sample,
		}, nil
	})
}

func textTool(text string) mcp.ToolHandler {
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
}

func promptHandler(p *mcp.Prompt) mcp.PromptHandler {
	return func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "Prompt %s.", p.Name)
		for _, a := range p.Arguments {
			if v, ok := req.Params.Arguments[a.Name]; ok {
				fmt.Fprintf(&b, " %s=%s", a.Name, v)
			}
		}
		return &mcp.GetPromptResult{
			Description: p.Description,
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: b.String()}}},
		}, nil
	}
}

func resourceHandler(d resourceDef) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		c := &mcp.ResourceContents{URI: req.Params.URI, MIMEType: d.res.MIMEType, Text: d.text, Blob: d.blob}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}

func templateHandler(t *mcp.ResourceTemplate) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		c := &mcp.ResourceContents{URI: req.Params.URI, MIMEType: t.MIMEType}
		if strings.HasPrefix(t.MIMEType, "image/") {
			c.Blob = pngPixel
		} else {
			c.Text = "contents of " + req.Params.URI
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}
