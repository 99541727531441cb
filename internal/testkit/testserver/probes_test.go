package testserver_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every tool, prompt and resource of the probes mode answers, with each
// kind of content.
func TestProbesModeContent(t *testing.T) {
	t.Parallel()
	cs := connectMode(t, testserver.ModeProbes, "2025-11-25", nil)
	ctx := context.Background()
	kinds := map[string]bool{}
	args := map[string]any{"echo": map[string]any{"message": "hi"}, "add": map[string]any{"a": 1, "b": 2}, "weather": map[string]any{"city": "Paris"}}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		a := args[tool.Name]
		if a == nil {
			a = map[string]any{}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: a})
		if err != nil {
			t.Fatalf("call %s: %v", tool.Name, err)
		}
		if res.IsError != (tool.Name == "fail") {
			t.Errorf("%s: isError = %v", tool.Name, res.IsError)
		}
		if tool.OutputSchema != nil && res.StructuredContent == nil {
			t.Errorf("%s: no structured content", tool.Name)
		}
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcp.TextContent:
				kinds["text"] = true
			case *mcp.ImageContent:
				kinds["image"] = c.MIMEType == "image/png"
			case *mcp.AudioContent:
				kinds["audio"] = c.MIMEType == "audio/wav"
			case *mcp.ResourceLink:
				kinds["resource_link"] = c.URI == testserver.ProbesReadmeURI
			case *mcp.EmbeddedResource:
				kinds["resource"] = c.Resource.MIMEType == "text/markdown"
			}
		}
	}
	for _, k := range []string{"text", "image", "audio", "resource_link", "resource"} {
		if !kinds[k] {
			t.Errorf("no well-formed %s content", k)
		}
	}
	for _, name := range []string{"greet", "show_logo", "with_readme"} {
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: map[string]string{"name": "Ada"}}); err != nil {
			t.Errorf("get %s: %v", name, err)
		}
	}
	for _, uri := range []string{testserver.ProbesReadmeURI, testserver.ProbesLogoURI, testserver.ProbesNotesURI, "test://probes/items/2"} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType == "" {
			t.Errorf("read %s: %v %+v", uri, err, res)
		}
	}
	c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "greet"}, Argument: mcp.CompleteParamsArgument{Name: "language", Value: "e"}})
	if err != nil || len(c.Completion.Values) != 1 || c.Completion.Values[0] != "en" {
		t.Errorf("complete: %v %+v", err, c)
	}
}

func TestProbeRawModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("probe-wrong", func(t *testing.T) {
		p := startInProcess(t, testserver.ModeProbeWrong)
		p.request(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
		if r := string(p.result(1)); !strings.Contains(r, `"prompts":{}`) || !strings.Contains(r, `"resources":{}`) {
			t.Errorf("initialize = %s", r)
		}
		for i, c := range []struct{ method, params, want string }{
			{"tools/call", `{"name":"weather"}`, `"structuredContent":{"temp":"21"}`},
			{"tools/call", `{"name":"snapshot"}`, `{"type":"image","data":"iVBORw0KGgo="}`},
			{"tools/call", `{"name":"record"}`, `"mimeType":""`},
			{"tools/call", `{"name":"link"}`, `{"type":"resource_link","name":"readme"}`},
			{"tools/call", `{"name":"flaky"}`, `"error":{"code":-32603,"message":"` + testserver.ProbeWrongFlakyMessage + `"}`},
			{"tools/call", `{"name":"nope"}`, `"isError":true`},
			{"prompts/get", `{"name":"greet","arguments":{"name":"x"}}`, `"role":"system"`},
			{"resources/read", `{"uri":"` + testserver.ProbeWrongReadmeURI + `"}`, `"text":"# readme"}`},
			{"resources/read", `{"uri":"` + testserver.ProbeWrongLogoURI + `"}`, `"blob":"@@not base64@@"`},
		} {
			p.request(10+i, c.method, c.params)
			if line := p.readLine(10 * time.Second); !strings.Contains(line, c.want) {
				t.Errorf("%s %s = %s, want it to contain %s", c.method, c.params, line, c.want)
			}
		}
	})
	t.Run("probe-hang", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, testserver.ModeProbeHang, 0)
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		if _, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("CallTool = %v, want deadline exceeded", err)
		}
	})
	t.Run("probe-huge", func(t *testing.T) {
		cs, _ := sdkClientPipes(t, testserver.ModeProbeHuge, -1)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(res.Content[0].(*mcp.TextContent).Text); n != testserver.ProbeHugeBytes {
			t.Errorf("text of %d bytes, want %d", n, testserver.ProbeHugeBytes)
		}
	})
}
