package clientconfig

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// read reads testdata/DIR/NAME with the root at testdata/DIR.
func read(t *testing.T, dir, name string, vars map[string]string) (*File, string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(context.Background(), root, name, "", env(vars))
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return f, root
}

// ignoreHash leaves EntryHash to TestEntryHash.
var ignoreHash = cmpopts.IgnoreFields(Server{}, "EntryHash")

func TestVSCode(t *testing.T) {
	f, root := read(t, "vscode", ".vscode/mcp.json", map[string]string{"MCP_SURFACE_INPUT_API_KEY": "k-123456"})
	want := []Server{
		{File: ".vscode/mcp.json", Name: "files", Format: FormatVSCode, Transport: TransportStdio, Command: "node",
			Args: []string{root + "/build/index.js", "--root", root}, Env: []string{"LOG_LEVEL=debug", "RETRIES=3", "SEARCH_KEY=k-123456"}, Dir: root,
			Shown: "node ${workspaceFolder}/build/index.js --root ${workspaceFolder}", Secrets: []string{"k-123456"}},
		{File: ".vscode/mcp.json", Name: "legacy", Format: FormatVSCode, Transport: TransportSSE, URL: "http://127.0.0.1:9000/sse", Shown: "http://127.0.0.1:9000/sse"},
		{File: ".vscode/mcp.json", Name: "search", Format: FormatVSCode, Transport: TransportHTTP, URL: "https://search.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer k-123456"}, Shown: "https://search.example.com/mcp", Secrets: []string{"k-123456"}},
	}
	if d := cmp.Diff(want, f.Servers, ignoreHash); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Without the input's variable, the servers that need it say so.
	f, _ = read(t, "vscode", ".vscode/mcp.json", nil)
	for _, s := range f.Servers {
		wantMissing := s.Name != "legacy"
		if got := len(s.Missing) == 1 && s.Missing[0] == "MCP_SURFACE_INPUT_API_KEY"; got != wantMissing {
			t.Errorf("%s: Missing %q", s.Name, s.Missing)
		}
	}
}

func TestClaudeCode(t *testing.T) {
	f, root := read(t, "claude-code", ".mcp.json", map[string]string{"DB_DSN": "postgres://u:pw@db/x", "TRACKER_KEY": "tk-99999"})
	want := []Server{
		{File: ".mcp.json", Name: "db", Format: FormatClaudeCode, Transport: TransportStdio, Command: "./tools/db-server",
			Args: []string{"--dsn", "postgres://u:pw@db/x"}, Env: []string{"PROJECT=" + root}, Dir: root,
			Shown: "${TOOLS_DIR:-./tools}/db-server --dsn ${DB_DSN}", Secrets: []string{"postgres://u:pw@db/x"}},
		{File: ".mcp.json", Name: "tracker", Format: FormatClaudeCode, Transport: TransportHTTP, URL: "https://tracker.example.com/mcp",
			Headers: map[string]string{"X-Api-Key": "tk-99999"}, Shown: "https://tracker.example.com/mcp", Secrets: []string{"tk-99999"}},
	}
	if d := cmp.Diff(want, f.Servers, ignoreHash); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	f, _ = read(t, "claude-code", ".mcp.json", map[string]string{"TOOLS_DIR": "/opt/tools"})
	if f.Servers[0].Command != "/opt/tools/db-server" || !cmp.Equal(f.Servers[0].Missing, []string{"DB_DSN"}) || !cmp.Equal(f.Servers[1].Missing, []string{"TRACKER_KEY"}) {
		t.Errorf("defaults and missing: %+v", f.Servers)
	}
}

func TestCursor(t *testing.T) {
	f, root := read(t, "cursor", ".cursor/mcp.json", map[string]string{"DOCS_TOKEN": "dt-abcdef", "REMOTE_TOKEN": "rt-ghijkl"})
	want := []Server{
		{File: ".cursor/mcp.json", Name: "docs", Format: FormatCursor, Transport: TransportStdio, Command: "npx",
			Args: []string{"-y", "docs-mcp", "cursor"}, Env: []string{"DOCS_REGION=eu-west", "DOCS_TOKEN=dt-abcdef"}, Dir: root,
			Shown: "npx -y docs-mcp ${workspaceFolderBasename}", Secrets: []string{"eu-west", "overridden-by-env", "dt-abcdef"}},
		{File: ".cursor/mcp.json", Name: "remote", Format: FormatCursor, Transport: TransportHTTP, URL: "https://remote.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer rt-ghijkl"}, Shown: "https://remote.example.com/mcp", Secrets: []string{"rt-ghijkl"}},
	}
	if d := cmp.Diff(want, f.Servers, ignoreHash); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestGemini(t *testing.T) {
	f, root := read(t, "gemini", ".gemini/settings.json", map[string]string{"PY_KEY": "pk-000111", "HOME": "/home/dev", "STREAM_TOKEN": "st-222333"})
	want := []Server{
		{File: ".gemini/settings.json", Name: "events", Format: FormatGemini, Transport: TransportSSE, URL: "https://events.example.com/sse", Shown: "https://events.example.com/sse"},
		{File: ".gemini/settings.json", Name: "py", Format: FormatGemini, Transport: TransportStdio, Command: "uv",
			Args: []string{"run", "server.py", "--key", "pk-000111"}, Env: []string{"HOME_DIR=/home/dev", "PRICE=$5"}, Dir: filepath.Join(root, "server"),
			Shown: "uv run server.py --key $PY_KEY", Secrets: []string{"pk-000111"}}, // the home directory is no secret
		{File: ".gemini/settings.json", Name: "streamable", Format: FormatGemini, Transport: TransportHTTP, URL: "https://stream.example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer st-222333"}, Shown: "https://stream.example.com/mcp", Secrets: []string{"st-222333"}},
	}
	if d := cmp.Diff(want, f.Servers, ignoreHash); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestClaudeDesktop(t *testing.T) {
	f, root := read(t, "claude-desktop", "claude_desktop_config.json", map[string]string{"X": "y"})
	want := []Server{{File: "claude_desktop_config.json", Name: "filesystem", Format: FormatClaudeDesktop, Transport: TransportStdio, Command: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/srv/share"}, Dir: root,
		Shown: "npx -y @modelcontextprotocol/server-filesystem /srv/share"}}
	if d := cmp.Diff(want, f.Servers, ignoreHash); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// The entry hash is of the entry as written: the same with other secrets,
// another when the command changes, and never holding a secret.
func TestEntryHash(t *testing.T) {
	parse := func(doc string, vars map[string]string) Server {
		t.Helper()
		f, err := Parse(context.Background(), t.TempDir(), ".mcp.json", FormatClaudeCode, []byte(doc), env(vars))
		if err != nil {
			t.Fatal(err)
		}
		return f.Servers[0]
	}
	a := parse(`{"mcpServers":{"s":{"command":"srv","args":["${K}"]}}}`, map[string]string{"K": "secret-1"})
	b := parse(`{"mcpServers": {"s": {"args": ["${K}"], "command": "srv"}}}`, map[string]string{"K": "secret-2"})
	c := parse(`{"mcpServers":{"s":{"command":"srv2","args":["${K}"]}}}`, map[string]string{"K": "secret-1"})
	if a.EntryHash != b.EntryHash || !strings.HasPrefix(a.EntryHash, "sha256:") || len(a.EntryHash) != 71 {
		t.Errorf("same entry, other secret or layout: %s vs %s", a.EntryHash, b.EntryHash)
	}
	if a.EntryHash == c.EntryHash {
		t.Error("a changed command kept the hash")
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		format     Format
		doc, want  string
	}{
		{"not json", ".mcp.json", FormatClaudeCode, `{"mcpServers": {`, "not JSON"},
		{"empty", ".mcp.json", FormatClaudeCode, ``, "empty"},
		{"array", ".mcp.json", FormatClaudeCode, `[]`, "not a JSON object"},
		{"other format", ".vscode/mcp.json", FormatVSCode, `{"mcpServers": {}}`, `no "servers" object, but "mcpServers"`},
		{"no servers", ".cursor/mcp.json", FormatCursor, `{"x": 1}`, `no "mcpServers" object`},
		{"servers not object", ".mcp.json", FormatClaudeCode, `{"mcpServers": []}`, "mcpServers: want an object"},
		{"entry not object", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": "npx"}}`, "mcpServers.a: want an object"},
		{"args not strings", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x", "args": ["a", 1]}}}`, "mcpServers.a.args[1]: want a string"},
		{"command and url", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, "mcpServers.a: want either"},
		{"neither", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"args": []}}}`, "mcpServers.a: want either"},
		{"unknown type", ".vscode/mcp.json", FormatVSCode, `{"servers": {"a": {"type": "websocket", "url": "ws://h"}}}`, `servers.a.type: "websocket" is not a transport`},
		{"stdio type with url", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"type": "stdio", "url": "http://h"}}}`, `type "stdio" needs a command`},
		{"repeated key", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, "duplicate key"},
		{"unknown input", ".vscode/mcp.json", FormatVSCode, `{"servers": {"a": {"command": "x", "args": ["${input:nope}"]}}}`, `servers.a.args[0]: ${input:nope} names no entry of "inputs"`},
		{"unknown variable", ".cursor/mcp.json", FormatCursor, `{"mcpServers": {"a": {"command": "${config:x}"}}}`, "${config:x} is not a variable Cursor fills"},
		{"claude code syntax", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "${env:X}"}}}`, "is not a variable Claude Code expands"},
		{"unterminated", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "${X"}}}`, "unterminated"},
		{"unterminated comment", ".vscode/mcp.json", FormatVSCode, "{\"servers\": {}} /* x", "unterminated /* comment"},
		{"desktop remote", "claude_desktop_config.json", FormatClaudeDesktop, `{"mcpServers": {"a": {"url": "http://h"}}}`, "stdio servers only"},
		{"gemini both urls", ".gemini/settings.json", FormatGemini, `{"mcpServers": {"a": {"url": "http://h", "httpUrl": "http://h"}}}`, "not both"},
		{"env not name", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x", "env": {"A B": "1"}}}}`, `"A B" is not a variable name`},
		{"env bool", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x", "env": {"A": true}}}}`, "mcpServers.a.env.A: want a string"},
		{"cwd in claude code", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"command": "x", "cwd": "sub"}}}`, "has no cwd"},
		{"missing envFile", ".cursor/mcp.json", FormatCursor, `{"mcpServers": {"a": {"command": "x", "envFile": "nope.env"}}}`, "mcpServers.a.envFile"},
		{"remote args", ".mcp.json", FormatClaudeCode, `{"mcpServers": {"a": {"type": "http", "url": "http://h", "args": []}}}`, "takes no args"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(context.Background(), t.TempDir(), tc.file, tc.format, []byte(tc.doc), env(nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.file+" (") {
				t.Errorf("got %v, want an error naming %s and %q", err, tc.file, tc.want)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	tabletest.MapNoError(t, "FormatOf", FormatOf, map[string]Format{
		".vscode/mcp.json": FormatVSCode, "sub/.cursor/mcp.json": FormatCursor, ".mcp.json": FormatClaudeCode,
		".gemini/settings.json": FormatGemini, "conf/claude_desktop_config.json": FormatClaudeDesktop,
	})
	if _, err := FormatOf("mcp.json"); err == nil || !strings.Contains(err.Error(), "FORMAT:PATH") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestDiscover(t *testing.T) {
	got, err := Discover(filepath.Join("testdata", "vscode"))
	if err != nil || !cmp.Equal(got, []string{".vscode/mcp.json"}) {
		t.Errorf("Discover = %q, %v", got, err)
	}
}

// Every format has a malformed file on disk: the error names the file,
// its format and the key.
func TestMalformedFiles(t *testing.T) {
	root := filepath.Join("testdata", "malformed")
	for name, want := range map[string]string{
		".vscode/mcp.json":           ".vscode/mcp.json (VS Code format): servers.bad.args[1]: want a string",
		".mcp.json":                  ".mcp.json (Claude Code format): mcpServers.bad: want either",
		".cursor/mcp.json":           ".cursor/mcp.json (Cursor format): mcpServers.bad.env.K: want a string",
		".gemini/settings.json":      ".gemini/settings.json (Gemini CLI format): mcpServers.bad.cwd: want a string",
		"claude_desktop_config.json": "claude_desktop_config.json (Claude Desktop format): mcpServers.bad: Claude Desktop's file declares stdio servers only",
	} {
		_, err := Read(context.Background(), root, name, "", env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", name, err, want)
		}
	}
}
