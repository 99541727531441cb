package spec

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Real SDK servers, captured in-process at every revision, must yield no
// error: they are what a conformant server looks like on the wire.
func TestSDKServersAreConformant(t *testing.T) {
	schemas := testSchemas(t)
	for _, mode := range []string{testserver.ModeFull, testserver.ModeToolsOnly} {
		for _, rev := range RevisionNames() {
			t.Run(mode+"/"+rev, func(t *testing.T) {
				c := capturetest.InProcess(t, mode, capture.Options{ProtocolVersion: rev})
				if len(c.Pages) == 0 {
					t.Fatal("no pages captured")
				}
				fs, err := validate(c, schemas)
				if err != nil {
					t.Fatal(err)
				}
				reportErrors(t, c.ProtocolVersion, fs)
			})
		}
	}
}

// Probe results (tools/call, prompts/get, resources/read,
// completion/complete) from a real SDK server are conformant too. The
// session is recorded with the capture package's recording transport.
func TestSDKProbeResultsAreConformant(t *testing.T) {
	schemas := testSchemas(t)
	for _, rev := range RevisionNames() {
		t.Run(rev, func(t *testing.T) {
			ctx := context.Background()
			srv, err := testserver.New(testserver.ModeFull)
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			rt := capture.NewRecordingTransport(ct)
			client := mcp.NewClient(&mcp.Implementation{Name: "mcp-surface-test", Version: "dev"}, nil)
			cs, err := client.Connect(ctx, rt, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: sampleArgs(tool)}); err != nil {
					t.Logf("call %s: %v", tool.Name, err)
				}
			}
			for p, err := range cs.Prompts(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				args := map[string]string{}
				for _, a := range p.Arguments {
					args[a.Name] = "x"
				}
				if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.Name, Arguments: args}); err != nil {
					t.Logf("get %s: %v", p.Name, err)
				}
				if len(p.Arguments) > 0 {
					if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: p.Name}, Argument: mcp.CompleteParamsArgument{Name: p.Arguments[0].Name, Value: "a"}}); err != nil {
						t.Logf("complete %s: %v", p.Name, err)
					}
				}
			}
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI}); err != nil {
					t.Logf("read %s: %v", r.URI, err)
				}
			}
			c := capturetest.FromFrames(t, rt.Frames())
			if c.ProtocolVersion == "" {
				c.ProtocolVersion = rev // server/discover results carry no version
			}
			probes := 0
			for _, x := range c.Exchanges {
				if _, ok := probeDefs[x.Method]; ok && x.Result != nil {
					probes++
				}
			}
			if probes < 5 {
				t.Fatalf("only %d probe results recorded", probes)
			}
			fs, err := validate(c, schemas)
			if err != nil {
				t.Fatal(err)
			}
			reportErrors(t, c.ProtocolVersion, fs)
		})
	}
}

// sampleArgs fills a tool's required string/integer/boolean arguments.
func sampleArgs(tool *mcp.Tool) map[string]any {
	args := map[string]any{}
	s, _ := tool.InputSchema.(map[string]any)
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		switch pm["type"] {
		case "integer", "number":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "array":
			args[name] = []any{}
		case "object":
			args[name] = map[string]any{}
		default:
			if e, ok := pm["enum"].([]any); ok && len(e) > 0 {
				args[name] = e[0]
			} else {
				args[name] = "x"
			}
		}
	}
	return args
}

func reportErrors(t *testing.T, rev string, fs []finding.Finding) {
	t.Helper()
	for _, f := range fs {
		line := fmt.Sprintf("%s %s %s %s: %s", f.Level, f.Rule, f.Subject, f.Pointer, f.Message)
		if f.Level == rules.LevelError {
			t.Errorf("%s: %s", rev, line)
		} else {
			t.Logf("%s: %s", rev, line)
		}
	}
}
