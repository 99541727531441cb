package testserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listCount is the number of items of one list and the pages they span.
type listCount struct{ items, pages int }

// surfaceCounts is what a mode advertises. A nil entry means the capability
// is not advertised at all.
type surfaceCounts struct {
	tools, prompts, resources, templates *listCount
}

// expected mirrors the table in doc.go.
var expected = map[string]surfaceCounts{
	"full":       {tools: &listCount{25, 7}, prompts: &listCount{6, 2}, resources: &listCount{8, 2}, templates: &listCount{5, 2}},
	"tools-only": {tools: &listCount{5, 3}},
	"big":        {tools: &listCount{5000, 50}},
	"shuffled-1": {tools: &listCount{25, 7}, prompts: &listCount{6, 2}, resources: &listCount{8, 2}, templates: &listCount{5, 2}},
	"shuffled-9": {tools: &listCount{25, 7}, prompts: &listCount{6, 2}, resources: &listCount{8, 2}, templates: &listCount{5, 2}},
	"probes":     {tools: &listCount{8, 1}, prompts: &listCount{3, 1}, resources: &listCount{3, 1}, templates: &listCount{1, 1}},
	"rug-pull":   {tools: &listCount{4, 2}, prompts: &listCount{1, 1}, resources: &listCount{1, 1}, templates: &listCount{0, 1}},
}

// connectMode connects an SDK client (with copts, which may be nil) to a
// new server in mode over in-memory transports; the test's cleanup closes
// both sessions.
func connectMode(t testing.TB, mode, protocolVersion string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := testserver.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, copts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// pageAll calls list with successive cursors and counts items and pages.
func pageAll[R any](t *testing.T, name string, list func(cursor string) (R, error), items func(R) int, next func(R) string) listCount {
	t.Helper()
	var c listCount
	cursor := ""
	seen := map[string]bool{}
	for {
		res, err := list(cursor)
		if err != nil {
			t.Fatalf("%s page %d: %v", name, c.pages+1, err)
		}
		c.pages++
		c.items += items(res)
		cursor = next(res)
		if cursor == "" {
			return c
		}
		if seen[cursor] || c.pages > 1000 {
			t.Fatalf("%s: cursor %q repeats", name, cursor)
		}
		seen[cursor] = true
	}
}

// countSurface lists everything the session advertises, page by page.
func countSurface(t *testing.T, cs *mcp.ClientSession) surfaceCounts {
	t.Helper()
	ctx := context.Background()
	caps := cs.InitializeResult().Capabilities
	var got surfaceCounts
	if caps.Tools != nil {
		c := pageAll(t, "tools", func(cur string) (*mcp.ListToolsResult, error) {
			return cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cur})
		}, func(r *mcp.ListToolsResult) int { return len(r.Tools) }, func(r *mcp.ListToolsResult) string { return r.NextCursor })
		got.tools = &c
	}
	if caps.Prompts != nil {
		c := pageAll(t, "prompts", func(cur string) (*mcp.ListPromptsResult, error) {
			return cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cur})
		}, func(r *mcp.ListPromptsResult) int { return len(r.Prompts) }, func(r *mcp.ListPromptsResult) string { return r.NextCursor })
		got.prompts = &c
	}
	if caps.Resources != nil {
		c := pageAll(t, "resources", func(cur string) (*mcp.ListResourcesResult, error) {
			return cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cur})
		}, func(r *mcp.ListResourcesResult) int { return len(r.Resources) }, func(r *mcp.ListResourcesResult) string { return r.NextCursor })
		got.resources = &c
		c2 := pageAll(t, "templates", func(cur string) (*mcp.ListResourceTemplatesResult, error) {
			return cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cur})
		}, func(r *mcp.ListResourceTemplatesResult) int { return len(r.ResourceTemplates) }, func(r *mcp.ListResourceTemplatesResult) string { return r.NextCursor })
		got.templates = &c2
	}
	return got
}

func checkCounts(t *testing.T, mode string, got surfaceCounts) {
	t.Helper()
	want := expected[mode]
	for _, x := range []struct {
		name      string
		got, want *listCount
	}{
		{"tools", got.tools, want.tools},
		{"prompts", got.prompts, want.prompts},
		{"resources", got.resources, want.resources},
		{"templates", got.templates, want.templates},
	} {
		switch {
		case x.want == nil && x.got != nil:
			t.Errorf("%s: %s advertised (%+v), want not advertised", mode, x.name, *x.got)
		case x.want != nil && x.got == nil:
			t.Errorf("%s: %s not advertised, want %+v", mode, x.name, *x.want)
		case x.want != nil && *x.got != *x.want:
			t.Errorf("%s: %s = %d items in %d pages, want %d in %d", mode, x.name, x.got.items, x.got.pages, x.want.items, x.want.pages)
		}
	}
}

func TestSDKModesInMemory(t *testing.T) {
	t.Parallel()
	// The SDK client speaks the 2026-07-28 protocol (server/discover) by
	// default; check the legacy initialize handshake too.
	for _, pv := range []string{"", "2025-06-18"} {
		for mode := range expected {
			if mode == "big" && pv != "" {
				continue // same paging, and slow under -race
			}
			t.Run(fmt.Sprintf("%s/%s", mode, pv), func(t *testing.T) {
				cs := connectMode(t, mode, pv, nil)
				checkCounts(t, mode, countSurface(t, cs))
				init := cs.InitializeResult()
				if init.ServerInfo.Name != testserver.ServerName || init.ServerInfo.Version != testserver.ServerVersion {
					t.Errorf("serverInfo = %+v", init.ServerInfo)
				}
				if mode == "full" && init.Instructions == "" {
					t.Error("full: no instructions")
				}
				//lint:ignore SA1019 the logging capability is part of the surfaces of the revisions before 2026-07-28, which these servers serve
				if mode == "tools-only" && init.Capabilities.Logging != nil {
					t.Error("tools-only advertises logging")
				}
			})
		}
	}
}

func TestSDKModesAreCallable(t *testing.T) {
	t.Parallel()
	cs := connectMode(t, "full", "", nil)
	ctx := context.Background()
	var withOutput int
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("call %s: %v", tool.Name, err)
		}
		if tool.OutputSchema != nil {
			withOutput++
			if res.StructuredContent == nil {
				t.Errorf("%s has an output schema but returned no structured content", tool.Name)
			}
		}
	}
	if withOutput != 7 {
		t.Errorf("%d tools with outputSchema, want 7", withOutput)
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
			t.Errorf("get prompt %s: %v", p.Name, err)
		}
	}
	var blobs int
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		if len(res.Contents[0].Blob) > 0 {
			blobs++
		}
	}
	if blobs != 2 {
		t.Errorf("%d blob resources, want 2", blobs)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://issues/42"}); err != nil {
		t.Errorf("read templated resource: %v", err)
	}
}

func TestNewRejectsRawAndUnknownModes(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"hang", "paged-raw", "nope", "shuffled-x"} {
		if _, err := testserver.New(mode); err == nil {
			t.Errorf("New(%q) succeeded", mode)
		}
		if _, err := testserver.Handler(mode, false); err == nil {
			t.Errorf("Handler(%q) succeeded", mode)
		}
	}
	for _, mode := range testserver.SDKModes() {
		if !testserver.IsSDKMode(mode) {
			t.Errorf("IsSDKMode(%q) = false", mode)
		}
	}
	if !testserver.IsSDKMode("shuffled-123") || testserver.IsSDKMode("hang") {
		t.Error("IsSDKMode is wrong")
	}
	if len(testserver.Modes()) != len(testserver.SDKModes())+len(testserver.RawModes()) {
		t.Error("Modes is not SDKModes+RawModes")
	}
}

func TestHandler(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			h, err := testserver.Handler("full", sse)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(h)
			defer hs.Close()
			var transport mcp.Transport = &mcp.StreamableClientTransport{Endpoint: hs.URL}
			if sse {
				transport = &mcp.SSEClientTransport{Endpoint: hs.URL}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil)
			cs, err := client.Connect(ctx, transport, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			checkCounts(t, "full", countSurface(t, cs))
		})
	}
}

// toolsWire returns the raw bytes of every tools/list page of an SDK mode
// served over stdio by RunStdio.
func toolsWire(t *testing.T, mode string) []json.RawMessage {
	t.Helper()
	p := startInProcess(t, mode)
	p.handshake()
	return p.toolPages(2)
}

// canonical re-encodes JSON with sorted keys.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestShuffledSameSurfaceDifferentBytes(t *testing.T) {
	t.Parallel()
	full := toolsWire(t, "full")
	a := toolsWire(t, "shuffled-1")
	b := toolsWire(t, "shuffled-2")
	if len(a) != len(full) || len(b) != len(full) {
		t.Fatalf("page counts differ: full %d, shuffled-1 %d, shuffled-2 %d", len(full), len(a), len(b))
	}
	var differ bool
	for i := range full {
		cf, ca, cb := canonical(t, full[i]), canonical(t, a[i]), canonical(t, b[i])
		if ca != cf || cb != cf {
			t.Errorf("page %d: shuffled surface differs from full after canonicalization", i+1)
		}
		if !bytes.Equal(a[i], b[i]) {
			differ = true
		}
	}
	if !differ {
		t.Error("shuffled-1 and shuffled-2 are byte-identical on the wire; key order is not shuffled")
	}
	if !slices.Equal(canonicalAll(t, a), canonicalAll(t, toolsWire(t, "shuffled-1"))) {
		t.Error("shuffled-1 is not deterministic")
	}
}

func canonicalAll(t *testing.T, pages []json.RawMessage) []string {
	var out []string
	for _, p := range pages {
		out = append(out, string(p))
	}
	return out
}

func TestSDKModeStdioEOF(t *testing.T) {
	t.Parallel()
	p := listingTools(t, "tools-only")
	p.result(2)
	p.endsOnEOF(t)
}

func BenchmarkBigListTools(b *testing.B) {
	ctx := context.Background()
	cs := connectMode(b, "big", "2025-11-25", nil)
	for b.Loop() {
		n := 0
		for _, err := range cs.Tools(ctx, nil) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != testserver.BigToolCount {
			b.Fatalf("%d tools", n)
		}
	}
}

func TestSDKModeAnswersBeforeEOF(t *testing.T) {
	t.Parallel()
	// A client that writes everything and closes stdin at once still gets
	// every answer (the SDK alone would drop them).
	p := startInProcess(t, "full")
	p.request(1, "initialize", initializeParams)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.request(2, "prompts/list", "{}")
	p.request(3, "resources/list", "{}")
	p.w.Close()
	ids := map[string]bool{}
	for range 3 {
		r := p.response()
		if r.Error != nil {
			t.Fatalf("error: %+v", r.Error)
		}
		ids[string(r.ID)] = true
	}
	if len(ids) != 3 {
		t.Errorf("answered ids %v", ids)
	}
	if err := p.wait(t, 5*time.Second); err != nil {
		t.Errorf("RunStdio = %v", err)
	}
}

// TestFullSurfaceDetails checks the numbers doc.go gives for full.
func TestFullSurfaceDetails(t *testing.T) {
	t.Parallel()
	cs := connectMode(t, "full", "2025-11-25", nil)
	ctx := context.Background()
	var ann, title, meta, icons int
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Annotations != nil {
			ann++
		}
		if tool.Title != "" {
			title++
		}
		if tool.Meta != nil {
			meta++
		}
		if tool.Icons != nil {
			icons++
		}
	}
	if ann != 24 || title != 13 || meta != 4 || icons != 1 {
		t.Errorf("tools with annotations/title/_meta/icons = %d/%d/%d/%d, want 24/13/4/1", ann, title, meta, icons)
	}
	var args, required int
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range p.Arguments {
			args++
			if a.Required {
				required++
			}
		}
	}
	if args != 11 || required != 5 {
		t.Errorf("prompt arguments = %d (%d required), want 11 (5)", args, required)
	}
	var annotated int
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if r.MIMEType == "" {
			t.Errorf("resource %s has no mimeType", r.URI)
		}
		if r.Annotations != nil {
			annotated++
		}
	}
	if annotated != 2 {
		t.Errorf("%d annotated resources, want 2", annotated)
	}
	caps := cs.InitializeResult().Capabilities
	//lint:ignore SA1019 the logging capability is part of the surfaces of the revisions before 2026-07-28, which these servers serve
	if caps.Completions == nil || caps.Logging == nil || !caps.Resources.Subscribe || !caps.Tools.ListChanged {
		t.Errorf("capabilities = %+v", caps)
	}
}
