package locate_test

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
)

const tsServer = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "2.0.0" });

server.registerTool(
  "get_forecast",
  { description: "Get the forecast", inputSchema: { city: z.string() } },
  async ({ city }) => ({ content: [] }),
);

server.registerResource("config", "config://app", { mimeType: "application/json" }, async () => ({ contents: [] }));

// don't call "get_forecast" directly here
function dispatch(name: string) {
  switch (name) {
    case "get_forecast": return 1;
  }
}
`

const pyServer = `from mcp.server.fastmcp import FastMCP

mcp = FastMCP("alerts")


@mcp.tool()
async def get_alerts(state: str) -> str:
    """Get weather alerts for a US state."""
    return ""


@mcp.prompt(name="summarize_week")
def summarize(days: int = 7) -> str:
    return "..."


@mcp.resource("file:///logs/{date}")
def logs(date: str) -> str:
    return ""
`

const goServer = `package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "cities"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search_cities",
		Description: "Search cities",
	}, searchCities)
	mcp.AddTool(server, &mcp.Tool{Name: "dup_tool"}, nil)
}
`

const goDup = `package main

func more() {
	mcp.AddTool(server, &mcp.Tool{Name: "dup_tool"}, nil)
}
`

const snapshotSource = `{
  "snapshotVersion": 1,
  "protocolVersion": "2025-06-18",
  "serverInfo": {"name": "weather", "version": "2.0.0"},
  "capabilities": {"tools": {"listChanged": true}, "prompts": {}, "resources": {}},
  "instructions": "Use get_forecast.",
  "tools": [
    {"name": "get_forecast", "description": "Get the forecast", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}},
    {"name": "get_alerts", "inputSchema": {"type": "object"}},
    {"name": "search_cities", "inputSchema": {"type": "object"}},
    {"name": "dup_tool", "inputSchema": {"type": "object"}},
    {"name": "vendored_tool", "inputSchema": {"type": "object", "properties": {"vendored_query": {"type": "string"}}}}
  ],
  "prompts": [{"name": "summarize_week"}],
  "resources": [{"uri": "config://app", "name": "config"}],
  "resourceTemplates": [{"uriTemplate": "file:///logs/{date}", "name": "logs"}]
}`

// repo makes a real git repository with a TypeScript, a Python and a Go
// server, decoys (tests, docs, node_modules, a binary, a symlink) and the
// committed snapshot.
func repo(t *testing.T) (dir string, snapshot []byte) {
	t.Helper()
	r := gittest.New(t)
	dir = r.Dir
	snapshot = capturetest.Encode(t, capturetest.Read(t, []byte(snapshotSource)))
	files := map[string]string{
		"src/index.ts":                   tsServer,
		"server.py":                      pyServer,
		"cmd/cities/main.go":             goServer,
		"cmd/cities/dup.go":              goDup,
		"tests/server.test.ts":           `server.registerTool("get_forecast", {}, async () => ({ content: [] }));` + "\n",
		"docs/usage.md":                  "Call `server.registerTool(\"search_cities\", ...)`.\n",
		"node_modules/lib/index.js":      `server.registerTool("vendored_tool", {}, () => {});` + "\n",
		"assets/blob.dat":                "\x00\x01 server.registerTool(\"get_alerts\")\n",
		"mcp-surface.json":               string(snapshot),
		".mcp-surface.yaml":              "acknowledged:\n  - rule: tool-removed\n    tool: \"search_cities\"\n    reason: x\n",
		"examples/registerTool_demo.txt": "",
	}
	for name, content := range files {
		r.Write(name, []byte(content))
	}
	if err := os.Symlink("src/index.ts", filepath.Join(dir, "link.ts")); err != nil {
		t.Fatal(err)
	}
	r.Git("add", "-A")
	return dir, snapshot
}

// lineOf is the 1-based line of the first line containing s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not found", s)
	return 0
}

func tool(name, pointer string) finding.Finding {
	return finding.Finding{Rule: "r", Subject: finding.Subject{Kind: finding.KindTool, Name: name}, Pointer: pointer, Fingerprint: name + pointer}
}

func TestLocate(t *testing.T) {
	dir, snap := repo(t)
	files, err := locate.GitFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "node_modules/lib/index.js") || !slices.Contains(files, "link.ts") || !slices.IsSorted(files) {
		t.Fatalf("GitFiles = %v", files)
	}
	l, err := locate.New(locate.Options{Dir: dir, Files: files, Snapshot: "mcp-surface.json"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(snap)
	code := func(path string, line int) locate.Location {
		return locate.Location{Path: path, Line: line, Source: locate.SourceCode}
	}
	inSnapshot := func(needle string) locate.Location {
		return locate.Location{Path: "mcp-surface.json", Line: lineOf(t, s, needle), Source: locate.SourceSnapshot}
	}
	for _, c := range []struct {
		name string
		f    finding.Finding
		want locate.Location
	}{
		{"typescript registerTool, not the test, docs or dispatcher", tool("get_forecast", "/inputSchema/required"), code("src/index.ts", lineOf(t, tsServer, `"get_forecast",`))},
		{"python decorated function", tool("get_alerts", ""), code("server.py", lineOf(t, pyServer, "async def get_alerts"))},
		{"go mcp.Tool literal", tool("search_cities", ""), code("cmd/cities/main.go", lineOf(t, goServer, `"search_cities"`))},
		{"python prompt by name", finding.Finding{Subject: finding.Subject{Kind: finding.KindPrompt, Name: "summarize_week"}, Fingerprint: "p"},
			code("server.py", lineOf(t, pyServer, `name="summarize_week"`))},
		{"resource by URI", finding.Finding{Subject: finding.Subject{Kind: finding.KindResource, Name: "config://app"}, Fingerprint: "r"},
			code("src/index.ts", lineOf(t, tsServer, `"config://app"`))},
		{"resource template by URI template", finding.Finding{Subject: finding.Subject{Kind: finding.KindResourceTemplate, Name: "file:///logs/{date}"}, Fingerprint: "rt"},
			code("server.py", lineOf(t, pyServer, `@mcp.resource`))},
		{"ambiguous: two equal registrations", tool("dup_tool", ""), inSnapshot(`"name": "dup_tool"`)},
		{"vendored only: the snapshot, at the pointer", tool("vendored_tool", "/inputSchema/properties/vendored_query"), inSnapshot(`"vendored_query": {`)},
		{"pointer into a member", tool("vendored_tool", "/inputSchema/properties/vendored_query/type"),
			locate.Location{Path: "mcp-surface.json", Line: lineOf(t, s, `"vendored_query": {`) + 1, Source: locate.SourceSnapshot}},
		{"pointer deeper than the snapshot", tool("vendored_tool", "/inputSchema/properties/nope/x"),
			locate.Location{Path: "mcp-surface.json", Line: lineOf(t, s, `"vendored_query": {`) - 1, Source: locate.SourceSnapshot}},
		{"not defined anywhere: the section", tool("removed_tool", ""), inSnapshot(`"tools": [`)},
		{"server capability", finding.Finding{Subject: finding.Subject{Kind: finding.KindServer}, Pointer: "/capabilities/tools/listChanged", Fingerprint: "s"},
			inSnapshot(`"listChanged": true`)},
		{"server, nothing at the pointer", finding.Finding{Subject: finding.Subject{Kind: finding.KindServer}, Pointer: "/nope", Fingerprint: "s2"},
			inSnapshot(`"serverInfo": {`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := l.Locate(c.f); got != c.want {
				t.Errorf("Locate = %+v, want %+v", got, c.want)
			}
		})
	}

	// LocateAll gives the same answers, and the order of the file list
	// does not matter.
	var fs []finding.Finding
	for _, n := range []string{"get_forecast", "get_alerts", "search_cities", "dup_tool", "vendored_tool", "removed_tool"} {
		fs = append(fs, tool(n, ""))
	}
	shuffled := slices.Clone(files)
	rand.New(rand.NewSource(1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	l2, err := locate.New(locate.Options{Dir: dir, Files: shuffled, Snapshot: "mcp-surface.json"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := l.LocateAll(fs), l2.LocateAll(fs)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("file order changed the answers (-sorted +shuffled):\n%s", diff)
	}
	for _, f := range fs {
		if a[f.Fingerprint] != l.Locate(f) {
			t.Errorf("%s: LocateAll and Locate disagree", f.Subject.Name)
		}
	}
}

func TestLocateBounds(t *testing.T) {
	dir, _ := repo(t)
	files, err := locate.GitFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is read past the byte budget: the source is not used.
	l, err := locate.New(locate.Options{Dir: dir, Files: files, Snapshot: "mcp-surface.json", MaxTotalBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Locate(tool("search_cities", "")); got.Source != locate.SourceSnapshot {
		t.Errorf("past the budget: %+v", got)
	}
	// Files larger than the limit are skipped: the test file is all that
	// is left.
	l, _ = locate.New(locate.Options{Dir: dir, Files: files, Snapshot: "mcp-surface.json", MaxFileBytes: 100})
	if got := l.Locate(tool("get_forecast", "")); got.Path != "tests/server.test.ts" {
		t.Errorf("huge file searched: %+v", got)
	}
}

func TestFallbacks(t *testing.T) {
	dir := t.TempDir()
	l, err := locate.New(locate.Options{Dir: dir, Snapshot: "missing.json", Fallback: ".mcp-surface.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Locate(tool("x", "")); got != (locate.Location{Path: ".mcp-surface.yaml", Line: 1, Source: locate.SourceFallback}) {
		t.Errorf("no snapshot: %+v", got)
	}
	l, _ = locate.New(locate.Options{Dir: dir})
	if got := l.Locate(tool("x", "")); got != (locate.Location{Path: locate.DefaultSnapshot, Line: 1, Source: locate.SourceFallback}) {
		t.Errorf("nothing at all: %+v", got)
	}
	if _, err := locate.New(locate.Options{SnapshotData: []byte("{not json"), Snapshot: "s.json"}); err == nil {
		t.Error("a snapshot that is not JSON was accepted")
	}
	if _, err := locate.GitFiles(context.Background(), dir); err == nil {
		t.Error("GitFiles outside a repository succeeded")
	}
}
