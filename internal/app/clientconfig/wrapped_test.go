package clientconfig

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An entry that runs its server under the guard (lock --wrap) reads as
// the server after "--": the same command, launch and entry hash, so that
// lock --check sees the same server.
func TestWrappedEntryIsTheServer(t *testing.T) {
	root := t.TempDir()
	parse := func(t *testing.T, name string, f Format, doc string) Server {
		t.Helper()
		cf, err := Parse(context.Background(), root, name, f, []byte(doc), env(map[string]string{"K": "secret-1"}))
		if err != nil {
			t.Fatal(err)
		}
		return cf.Servers[0]
	}
	for _, tc := range []struct {
		name, file string
		format     Format
		plain      string
		wrapped    string
	}{{
		name: "claude code", file: ".mcp.json", format: FormatClaudeCode,
		plain:   `{"mcpServers": {"s": {"command": "srv", "args": ["${K}", "x"], "env": {"A": "1"}}}}`,
		wrapped: `{"mcpServers": {"s": {"command": "mcp-surface", "args": ["guard", "--lock", "mcp-surface.lock.json", "--server", ".mcp.json:s", "--", "srv", "${K}", "x"], "env": {"A": "1"}}}}`,
	}, {
		name: "no args", file: ".vscode/mcp.json", format: FormatVSCode,
		plain:   `{"servers": {"s": {"type": "stdio", "command": "srv"}}}`,
		wrapped: `{"servers": {"s": {"type": "stdio", "command": "/usr/local/bin/mcp-surface", "args": ["guard", "--", "srv"]}}}`,
	}, {
		name: "windows", file: "claude_desktop_config.json", format: FormatClaudeDesktop,
		plain:   `{"mcpServers": {"s": {"command": "npx", "args": ["-y", "pkg"]}}}`,
		wrapped: `{"mcpServers": {"s": {"command": "C:\\bin\\mcp-surface.exe", "args": ["guard", "--on-change", "warn", "--", "npx", "-y", "pkg"]}}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			want, got := parse(t, tc.file, tc.format, tc.plain), parse(t, tc.file, tc.format, tc.wrapped)
			if want.Wrapped || !got.Wrapped {
				t.Errorf("Wrapped: plain %v, wrapped %v", want.Wrapped, got.Wrapped)
			}
			got.Wrapped = false
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-plain +wrapped):\n%s", d)
			}
		})
	}
	// Other commands of mcp-surface, and other programs, are servers.
	for doc, command := range map[string]string{
		`{"mcpServers": {"s": {"command": "mcp-surface", "args": ["capture", "--", "srv"]}}}`:     "mcp-surface",
		`{"mcpServers": {"s": {"command": "mcp-surface-guard", "args": ["guard", "--", "srv"]}}}`: "mcp-surface-guard",
	} {
		if s := parse(t, ".mcp.json", FormatClaudeCode, doc); s.Wrapped || s.Command != command {
			t.Errorf("%s: read as wrapped: %+v", doc, s)
		}
	}
}

// A guard with no server command after it is an error that says what to
// write.
func TestWrappedEntryErrors(t *testing.T) {
	for doc, want := range map[string]string{
		`{"mcpServers": {"s": {"command": "mcp-surface", "args": ["guard", "srv"]}}}`: `mcpServers.s.args: runs mcp-surface guard with no "--" before the server's command line`,
		`{"mcpServers": {"s": {"command": "mcp-surface", "args": ["guard", "--"]}}}`:  `mcpServers.s.args: nothing follows the guard's "--"`,
	} {
		_, err := Parse(context.Background(), t.TempDir(), ".mcp.json", FormatClaudeCode, []byte(doc), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", doc, err, want)
		}
	}
}
