package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The "probes" SDK mode: a small, well-behaved surface whose every call
// returns a result that the spec gate accepts, with every kind of content
// (text, image, audio, resource links, embedded resources, structured
// content), prompts with arguments, text and binary resources, a template
// and completions. Probing all of it must give no error finding.

// ModeProbes names the SDK mode for probe tests.
const ModeProbes = "probes"

// wavHeader is a valid empty RIFF/WAVE file (44 bytes: no samples).
var wavHeader = []byte{
	'R', 'I', 'F', 'F', 36, 0, 0, 0, 'W', 'A', 'V', 'E',
	'f', 'm', 't', ' ', 16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0,
	'd', 'a', 't', 'a', 0, 0, 0, 0,
}

// Resources of the probes mode.
const (
	ProbesReadmeURI = "test://probes/readme.md"
	ProbesLogoURI   = "test://probes/logo.png"
	ProbesNotesURI  = "test://probes/notes.txt"
	ProbesItemsURI  = "test://probes/items/{id}"
)

// ProbesFailMessage is the text of the isError result of the probes
// mode's "fail" tool.
const ProbesFailMessage = "the operation failed on purpose"

const probesReadme = "# Probes\n\nEvery tool here answers.\n"

func newProbes() *mcp.Server {
	srv := mcp.NewServer(implementation(), &mcp.ServerOptions{
		Instructions: "A server whose every tool, prompt and resource can be probed safely.",
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			var values []string
			switch {
			case req.Params.Ref.Type == "ref/prompt" && req.Params.Ref.Name == "greet" && req.Params.Argument.Name == "language":
				values = []string{"de", "en", "fr"}
			case req.Params.Ref.Type == "ref/resource" && req.Params.Ref.URI == ProbesItemsURI && req.Params.Argument.Name == "id":
				values = []string{"1", "2", "3"}
			}
			values = slices.DeleteFunc(values, func(v string) bool { return !strings.HasPrefix(v, req.Params.Argument.Value) })
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: append([]string{}, values...), Total: len(values)}}, nil
		},
	})
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	obj := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		if len(required) == 0 {
			req = []byte("[]")
		}
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
	}
	args := func(req *mcp.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	tools := []struct {
		tool *mcp.Tool
		h    mcp.ToolHandler
	}{
		{&mcp.Tool{Name: "echo", Description: "Echo the message back.", InputSchema: obj(`"message":{"type":"string"}`, "message"),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				msg, ok := args(req)["message"].(string)
				if !ok {
					return &mcp.CallToolResult{IsError: true, Content: text("message must be a string")}, nil
				}
				return &mcp.CallToolResult{Content: text(msg)}, nil
			}},
		{&mcp.Tool{Name: "add", Description: "Add two numbers.", InputSchema: obj(`"a":{"type":"number"},"b":{"type":"number"}`, "a", "b"),
			OutputSchema: obj(`"sum":{"type":"number"}`, "sum"), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				a, aok := args(req)["a"].(float64)
				b, bok := args(req)["b"].(float64)
				if !aok || !bok {
					return &mcp.CallToolResult{IsError: true, Content: text("a and b must be numbers")}, nil
				}
				sum := json.RawMessage(fmt.Sprintf(`{"sum":%v}`, a+b))
				return &mcp.CallToolResult{Content: text(string(sum)), StructuredContent: sum}, nil
			}},
		{&mcp.Tool{Name: "weather", Description: "Current weather in a city.", InputSchema: obj(`"city":{"type":"string"}`, "city"),
			OutputSchema: obj(`"temp":{"type":"number"},"unit":{"type":"string","enum":["C","F"]},"city":{"type":"string"}`, "temp", "unit")},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				out := json.RawMessage(`{"temp":21.5,"unit":"C"}`)
				return &mcp.CallToolResult{Content: text(string(out)), StructuredContent: out}, nil
			}},
		{&mcp.Tool{Name: "chart", Description: "Render a chart as an image.", InputSchema: obj(``)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"}}}, nil
			}},
		{&mcp.Tool{Name: "speak", Description: "Say something as audio.", InputSchema: obj(``)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wavHeader, MIMEType: "audio/wav"}}}, nil
			}},
		{&mcp.Tool{Name: "find_file", Description: "Find a file and link to it.", InputSchema: obj(`"name":{"type":"string"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{
					&mcp.TextContent{Text: "found 1 file"},
					&mcp.ResourceLink{URI: ProbesReadmeURI, Name: "readme", MIMEType: "text/markdown"},
				}}, nil
			}},
		{&mcp.Tool{Name: "attach", Description: "Return the readme embedded in the result.", InputSchema: obj(``)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{
					Resource: &mcp.ResourceContents{URI: ProbesReadmeURI, MIMEType: "text/markdown", Text: probesReadme},
				}}}, nil
			}},
		{&mcp.Tool{Name: "fail", Description: "Always fails, the way tools should: a result with isError.", InputSchema: obj(``)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{IsError: true, Content: text(ProbesFailMessage)}, nil
			}},
	}
	for _, t := range tools {
		srv.AddTool(t.tool, t.h)
	}

	greet := &mcp.Prompt{Name: "greet", Description: "Greet someone.", Arguments: []*mcp.PromptArgument{
		{Name: "name", Description: "Who to greet.", Required: true},
		{Name: "language", Description: "ISO 639-1 code."},
	}}
	srv.AddPrompt(greet, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			return nil, fmt.Errorf("argument name is required")
		}
		return &mcp.GetPromptResult{Description: "A greeting.", Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + name + "."}},
		}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "show_logo", Description: "Show the logo to the model."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"}},
				{Role: "assistant", Content: &mcp.TextContent{Text: "A transparent pixel."}},
			}}, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "with_readme", Description: "Discuss the readme.", Arguments: []*mcp.PromptArgument{{Name: "focus"}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: ProbesReadmeURI, MIMEType: "text/markdown", Text: probesReadme}}},
			}}, nil
		})

	for _, r := range []resourceDef{
		{res: &mcp.Resource{URI: ProbesReadmeURI, Name: "readme", Description: "The readme.", MIMEType: "text/markdown"}, text: probesReadme},
		{res: &mcp.Resource{URI: ProbesLogoURI, Name: "logo", Description: "The logo.", MIMEType: "image/png", Size: int64(len(pngPixel))}, blob: pngPixel},
		{res: &mcp.Resource{URI: ProbesNotesURI, Name: "notes", Description: "Notes.", MIMEType: "text/plain"}, text: "nothing to note\n"},
	} {
		srv.AddResource(r.res, resourceHandler(r))
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: ProbesItemsURI, Name: "item", Description: "An item as JSON.", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id := strings.TrimPrefix(req.Params.URI, "test://probes/items/")
			b, _ := json.Marshal(map[string]string{"id": id})
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
		})
	return srv
}
