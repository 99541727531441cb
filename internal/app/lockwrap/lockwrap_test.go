package lockwrap

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// The configurations of every format clientconfig reads, each with a
// stdio server with args, most with one without, and a remote one.
var configs = map[string]string{
	".vscode/mcp.json": `// The team's MCP servers: reviewed in pull requests.
{
	"inputs": [
		{ "type": "promptString", "id": "token", "password": true },
	],
	"servers": {
		/* the issue tracker, pinned */
		"tracker": {
			"type": "stdio",
			"command": "npx", // the launcher
			"args": [
				"-y", // no prompt
				"@acme/tracker@1.2.3",
			],
			"env": { "TOKEN": "${input:token}" },
		},
		"local": {
			"command": "${workspaceFolder}/bin/local-server",
			"cwd": "${workspaceFolder}/server",
		},
		"search": { "type": "http", "url": "https://search.example/mcp" },
	},
}
`,
	".mcp.json": `{
  "mcpServers": {
    "db": {
      "command": "./tools/db-server",
      "args": ["--dsn", "${DB_DSN}"]
    },
    "bare": {
      "command": "bare-server"
    },
    "tracker": {
      "type": "http",
      "url": "https://tracker.example.com/mcp"
    }
  }
}
`,
	".cursor/mcp.json": `{
    "mcpServers": {
        "docs": {"command": "npx", "args": ["-y", "docs-mcp@2.0.0"], "env": {"DOCS_TOKEN": "${env:DOCS_TOKEN}"}},
        "remote": {"url": "https://remote.example.com/mcp"}
    }
}`,
	".gemini/settings.json": `{
  "theme": "GitHub",
  "mcpServers": {
    "py": {
      "command": "uv",
      "args": [
        "run",
        "server.py"
      ],
      "cwd": "server",
      "timeout": 30000
    },
    "streamable": {"httpUrl": "https://stream.example.com/mcp"}
  }
}
`,
	"conf/claude_desktop_config.json": "{\n\t\"mcpServers\": {\n\t\t\"filesystem\": {\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/srv/share\"]\n\t\t}\n\t}\n}\n",
}

// names are the configurations in the order they are given.
var names = []string{".vscode/mcp.json", ".mcp.json", ".cursor/mcp.json", ".gemini/settings.json", "conf/claude_desktop_config.json"}

func noEnv(string) string { return "" }

// repo writes files under a new root and a lock that holds every server
// they declare; it returns the root.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	var configs []string
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		configs = append(configs, name)
	}
	servers, err := lock.ReadServers(context.Background(), lock.Options{Root: root, Configs: configs, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := manifest.FromCanonicalJSON([]byte(`{"snapshotVersion":1,"protocolVersion":"2025-06-18","serverInfo":{"name":"s","version":"1"},"capabilities":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	l := &lock.Lock{}
	for _, s := range servers {
		l.Put(lock.Entry{Config: s.File, Name: s.Name, EntryHash: s.EntryHash, Transport: string(s.Transport), Launch: s.Shown, Snapshot: snap})
	}
	if err := lock.WriteFile(context.Background(), filepath.Join(root, lock.DefaultFile), l); err != nil {
		t.Fatal(err)
	}
	return root
}

// read is every file of files as it is under root now.
func read(t *testing.T, root string, files []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	return out
}

func run(t *testing.T, root string, unwrap bool, configs ...string) ([]string, error) {
	t.Helper()
	return Run(context.Background(), Options{Root: root, Configs: configs, Lock: lock.DefaultFile, Getenv: noEnv, Unwrap: unwrap})
}

// clientLine is an entry's command and args as a client reads them.
func clientLine(t *testing.T, text string, f clientconfig.Format, name string) (string, []string) {
	t.Helper()
	plain, err := jsonedit.Plain([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	var servers map[string]struct {
		Command string
		Args    []string
	}
	if err := json.Unmarshal(plain, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc[f.ServersKey()], &servers); err != nil {
		t.Fatal(err)
	}
	return servers[name].Command, servers[name].Args
}

// lock --wrap, then --unwrap, on every format: the guard's command line
// exactly, the same servers read back, idempotent both ways, and the
// original files byte for byte at the end.
func TestWrapAndUnwrapEveryFormat(t *testing.T) {
	root := repo(t, configs)
	lines, err := run(t, root, false, names...)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []string{
		"wrapped .vscode/mcp.json › local: mcp-surface guard --lock ../mcp-surface.lock.json --server .vscode/mcp.json:local -- ${workspaceFolder}/bin/local-server",
		"left .vscode/mcp.json › search: a remote server (http); the guard stands in front of stdio servers only",
		"wrapped .vscode/mcp.json › tracker: mcp-surface guard --lock mcp-surface.lock.json --server .vscode/mcp.json:tracker -- npx -y @acme/tracker@1.2.3",
		"wrapped .mcp.json › bare: mcp-surface guard --lock mcp-surface.lock.json --server .mcp.json:bare -- bare-server",
		"wrapped .mcp.json › db: mcp-surface guard --lock mcp-surface.lock.json --server .mcp.json:db -- ./tools/db-server --dsn ${DB_DSN}",
		"left .mcp.json › tracker: a remote server (http); the guard stands in front of stdio servers only",
		"wrapped .cursor/mcp.json › docs: mcp-surface guard --lock mcp-surface.lock.json --server .cursor/mcp.json:docs -- npx -y docs-mcp@2.0.0",
		"left .cursor/mcp.json › remote: a remote server (http); the guard stands in front of stdio servers only",
		"wrapped .gemini/settings.json › py: mcp-surface guard --lock ../mcp-surface.lock.json --server .gemini/settings.json:py -- uv run server.py",
		"left .gemini/settings.json › streamable: a remote server (http); the guard stands in front of stdio servers only",
		"wrapped conf/claude_desktop_config.json › filesystem: mcp-surface guard --lock " + filepath.Join(root, lock.DefaultFile) + " --server conf/claude_desktop_config.json:filesystem -- npx -y @modelcontextprotocol/server-filesystem /srv/share",
		"wrote .vscode/mcp.json", "wrote .mcp.json", "wrote .cursor/mcp.json", "wrote .gemini/settings.json", "wrote conf/claude_desktop_config.json",
	}
	if d := cmp.Diff(wantLines, lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
	wrapped := read(t, root, names)
	if d := cmp.Diff(wantVSCode, wrapped[".vscode/mcp.json"]); d != "" {
		t.Errorf(".vscode/mcp.json (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantClaudeCode, wrapped[".mcp.json"]); d != "" {
		t.Errorf(".mcp.json (-want +got):\n%s", d)
	}

	// Each stdio entry holds exactly the guard's command line, and reads
	// back as the same server.
	ctx := context.Background()
	for _, name := range names {
		format, _ := clientconfig.FormatOf(name)
		was, err := clientconfig.Parse(ctx, root, name, format, []byte(configs[name]), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		now, err := clientconfig.Parse(ctx, root, name, format, []byte(wrapped[name]), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range now.Servers {
			want := was.Servers[i]
			want.Wrapped = want.Transport == clientconfig.TransportStdio
			if !reflect.DeepEqual(s, want) {
				t.Errorf("%s › %s reads back as %+v, want %+v", name, s.Name, s, want)
			}
			if s.Transport != clientconfig.TransportStdio {
				continue
			}
			command, args := clientLine(t, configs[name], format, s.Name)
			lockArg := lock.DefaultFile
			switch {
			case format == clientconfig.FormatClaudeDesktop:
				lockArg = filepath.Join(root, lock.DefaultFile)
			case s.Dir != root:
				lockArg = "../" + lock.DefaultFile
			}
			wantArgs := append([]string{"guard", "--lock", lockArg, "--server", name + ":" + s.Name, "--", command}, args...)
			gotCommand, gotArgs := clientLine(t, wrapped[name], format, s.Name)
			if gotCommand != "mcp-surface" || !slices.Equal(gotArgs, wantArgs) {
				t.Errorf("%s › %s: %q %q, want mcp-surface %q", name, s.Name, gotCommand, gotArgs, wantArgs)
			}
		}
	}

	// Wrapping again changes nothing.
	lines, err = run(t, root, false, names...)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(wrapped, read(t, root, names)); d != "" {
		t.Errorf("a second --wrap changed the files (-want +got):\n%s", d)
	}
	if !slices.Contains(lines, "left .mcp.json › db: already runs under the guard") || !slices.Contains(lines, ".mcp.json: nothing to change") {
		t.Errorf("second --wrap: %q", lines)
	}

	// --unwrap restores every file byte for byte, and then changes nothing.
	lines, err = run(t, root, true, names...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(lines, "unwrapped .mcp.json › db: ./tools/db-server --dsn ${DB_DSN}") || !slices.Contains(lines, "wrote .mcp.json") {
		t.Errorf("--unwrap: %q", lines)
	}
	if d := cmp.Diff(configs, read(t, root, names)); d != "" {
		t.Errorf("--unwrap did not restore the files (-want +got):\n%s", d)
	}
	lines, err = run(t, root, true, names...)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(configs, read(t, root, names)); d != "" || !slices.Contains(lines, "left .mcp.json › db: does not run under the guard") {
		t.Errorf("a second --unwrap changed the files (-want +got):\n%s\n%q", d, lines)
	}
}

const wantVSCode = `// The team's MCP servers: reviewed in pull requests.
{
	"inputs": [
		{ "type": "promptString", "id": "token", "password": true },
	],
	"servers": {
		/* the issue tracker, pinned */
		"tracker": {
			"type": "stdio",
			"command": "mcp-surface", // the launcher
			"args": [
				"guard",
				"--lock",
				"mcp-surface.lock.json",
				"--server",
				".vscode/mcp.json:tracker",
				"--",
				"npx",
				"-y", // no prompt
				"@acme/tracker@1.2.3",
			],
			"env": { "TOKEN": "${input:token}" },
		},
		"local": {
			"command": "mcp-surface",
			"cwd": "${workspaceFolder}/server",
			"args": ["guard", "--lock", "../mcp-surface.lock.json", "--server", ".vscode/mcp.json:local", "--", "${workspaceFolder}/bin/local-server"],
		},
		"search": { "type": "http", "url": "https://search.example/mcp" },
	},
}
`

const wantClaudeCode = `{
  "mcpServers": {
    "db": {
      "command": "mcp-surface",
      "args": ["guard", "--lock", "mcp-surface.lock.json", "--server", ".mcp.json:db", "--", "./tools/db-server", "--dsn", "${DB_DSN}"]
    },
    "bare": {
      "command": "mcp-surface",
      "args": ["guard", "--lock", "mcp-surface.lock.json", "--server", ".mcp.json:bare", "--", "bare-server"]
    },
    "tracker": {
      "type": "http",
      "url": "https://tracker.example.com/mcp"
    }
  }
}
`

// An entry wrapped by hand, with flags of the guard's own, unwraps to
// its server; the lock is not needed to unwrap.
func TestUnwrapAHandWrittenEntry(t *testing.T) {
	root := t.TempDir()
	doc := "{\"mcpServers\": {\"s\": {\"command\": \"/usr/local/bin/mcp-surface\", \"args\": [\"guard\", \"--on-change\", \"warn\", \"--\", \"srv\", \"--port\", \"0\"], \"env\": {\"A\": \"1\"}}}}\n"
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := run(t, root, true)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"mcpServers\": {\"s\": {\"command\": \"srv\", \"args\": [\"--port\", \"0\"], \"env\": {\"A\": \"1\"}}}}\n"
	if got := read(t, root, []string{".mcp.json"})[".mcp.json"]; got != want || !slices.Equal(lines, []string{"unwrapped .mcp.json › s: srv --port 0", "wrote .mcp.json"}) {
		t.Errorf("got %s%q", got, lines)
	}
}

// What cannot be wrapped safely is refused with the file, the entry and
// the fix, and nothing is written: not even the files that could be.
func TestWrapRefuses(t *testing.T) {
	good := `{"mcpServers": {"ok": {"command": "srv"}}}`
	for _, tc := range []struct {
		name, file, text string
		unlock           bool // the lock lacks the server
		noLock           bool // there is no lock
		want             []string
	}{{
		name: "not in the lock", file: ".cursor/mcp.json", text: `{"mcpServers": {"new": {"command": "srv"}}}`, unlock: true,
		want: []string{".cursor/mcp.json › new: the lock mcp-surface.lock.json has no entry for it", "run `mcp-surface lock --update .cursor/mcp.json:new` first"},
	}, {
		name: "no lock", file: ".cursor/mcp.json", text: `{"mcpServers": {"a": {"command": "srv"}}}`, noLock: true,
		want: []string{"there is no lock file mcp-surface.lock.json: run `mcp-surface lock` first"},
	}, {
		name: "empty args", file: ".cursor/mcp.json", text: `{"mcpServers": {"a": {"command": "srv", "args": []}}}`,
		want: []string{".cursor/mcp.json › a: its \"args\": [] could not be told from no \"args\" once wrapped", "remove the empty \"args\"", "run `mcp-surface lock --update .cursor/mcp.json:a`"},
	}, {
		name: "a layout that would not come back", file: ".cursor/mcp.json", text: "{\"mcpServers\": {\"a\": {\n  \"command\": \"srv\"}}}",
		want: []string{".cursor/mcp.json › a: its layout cannot be edited so that --unwrap restores it byte for byte", `write the entry by hand as "command": "mcp-surface", "args": ["guard","--lock","mcp-surface.lock.json","--server",".cursor/mcp.json:a","--","srv"]`},
	}, {
		name: "a placeholder in the name", file: ".cursor/mcp.json", text: `{"mcpServers": {"a${b}": {"command": "srv"}}}`,
		want: []string{`.cursor/mcp.json › a${b}: the guard's argument ".cursor/mcp.json:a${b}" holds "${", which Cursor would fill as a placeholder`},
	}, {
		name: "a cwd from the environment", file: ".gemini/settings.json", text: `{"mcpServers": {"a": {"command": "srv", "cwd": "$HOME/x"}}}`,
		want: []string{`.gemini/settings.json › a: its cwd "$HOME/x" depends on the environment`, "give --lock an absolute path"},
	}, {
		name: "not JSON", file: ".cursor/mcp.json", text: `{"mcpServers": {"a": {"command": "srv"}}`, unlock: true,
		want: []string{".cursor/mcp.json (Cursor format): "},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			root := repo(t, map[string]string{".mcp.json": good})
			p := filepath.Join(root, filepath.FromSlash(tc.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if !tc.unlock {
				root2 := repo(t, map[string]string{".mcp.json": good, tc.file: tc.text})
				lockBytes, err := os.ReadFile(filepath.Join(root2, lock.DefaultFile))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, lock.DefaultFile), lockBytes, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.noLock {
				os.Remove(filepath.Join(root, lock.DefaultFile))
			}
			_, err := run(t, root, false, ".mcp.json", tc.file)
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("got %v\nwant it to hold %s", err, w)
				}
			}
			if got := read(t, root, []string{".mcp.json", tc.file}); got[".mcp.json"] != good || got[tc.file] != tc.text {
				t.Errorf("a refused run wrote: %q", got)
			}
		})
	}
}

// An entry wrapped for another lock entry (its file was renamed) is left,
// with the way to point it at its own.
func TestWrapNamesAGuardOfAnotherEntry(t *testing.T) {
	doc := `{"mcpServers": {"s": {"command": "mcp-surface", "args": ["guard", "--server", "old/.mcp.json:s", "--", "srv"]}}}`
	root := repo(t, map[string]string{".mcp.json": doc})
	lines, err := run(t, root, false)
	want := []string{"left .mcp.json › s: already runs under the guard, but for the lock entry old/.mcp.json:s: --unwrap, then --wrap, points it at .mcp.json:s", ".mcp.json: nothing to change"}
	if err != nil || !slices.Equal(lines, want) {
		t.Errorf("got %q, %v\nwant %q", lines, err, want)
	}
}
