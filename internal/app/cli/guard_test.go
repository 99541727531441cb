package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// guardLock writes a lock of the tools-only server under two entries,
// .mcp.json › files and .vscode/mcp.json › search, and returns its path.
func guardLock(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := capture.Run(ctx, capture.Command{Argv: serverCmd(), Env: append(os.Environ(), serverEnvFor(testserver.ModeToolsOnly)...)}, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	l := &lock.Lock{}
	l.Put(lock.Entry{Config: ".mcp.json", Name: "files", Transport: "stdio", Snapshot: m})
	l.Put(lock.Entry{Config: ".vscode/mcp.json", Name: "search", Transport: "stdio", Snapshot: m})
	path := filepath.Join(t.TempDir(), lock.DefaultFile)
	if err := lock.WriteFile(ctx, path, l); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGuardUsage: each mistake exits 2 with a message that names it and
// the way out.
func TestGuardUsage(t *testing.T) {
	path := guardLock(t)
	server := append([]string{"--"}, serverCmd()...)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"no server command", []string{"guard", "--lock", path, "--server", ".mcp.json:files"}, []string{"no server command", "after --"}},
		{"no lock", append([]string{"guard", "--lock", filepath.Join(t.TempDir(), "none.json")}, server...), []string{"no lock file", "none.json", "mcp-surface lock"}},
		{"entry not named", append([]string{"guard", "--lock", path}, server...), []string{"2 entries", "--server", `".mcp.json:files"`, `".vscode/mcp.json:search"`}},
		{"no such entry", append([]string{"guard", "--lock", path, "--server", ".mcp.json:search"}, server...), []string{`no entry ".mcp.json:search"`, `".mcp.json:files"`, `".vscode/mcp.json:search"`}},
		{"bad mode", append([]string{"guard", "--lock", path, "--server", ".mcp.json:files", "--on-change", "drop"}, server...), []string{`--on-change "drop"`, "block, fail or warn"}},
		{"url without listen", []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--url", "http://127.0.0.1:1/mcp"}, []string{"--url needs --listen"}},
		{"listen beyond this machine", []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--url", "http://127.0.0.1:1/mcp", "--listen", "0.0.0.0:0"}, []string{"loopback"}},
		{"listen without url", append([]string{"guard", "--lock", path, "--server", ".mcp.json:files", "--listen", "127.0.0.1:0"}, server...), []string{"--listen goes with --url"}},
		{"url not http", []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--url", "ftp://127.0.0.1/mcp", "--listen", "127.0.0.1:0"}, []string{`--url "ftp://127.0.0.1/mcp"`, "http://"}},
		{"listen not host:port", []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--url", "http://127.0.0.1:1/mcp", "--listen", "8931"}, []string{`--listen "8931"`, "HOST:PORT"}},
		{"server does not start", []string{"guard", "--lock", path, "--server", ".mcp.json:files", "--", filepath.Join(t.TempDir(), "missing")}, []string{"starting", "missing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, serverEnvFor(testserver.ModeToolsOnly), c.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", r.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// TestGuardCommand: the command carries a session from its stdin to the
// server and back, logs to --log, and exits 0 when its stdin ends.
func TestGuardCommand(t *testing.T) {
	path := guardLock(t)
	logFile := filepath.Join(t.TempDir(), "guard.jsonl")
	var out, errb syncbuf.Buffer
	full := append(os.Environ(), serverEnvFor(testserver.ModeToolsOnly)...)
	code := RunEnv(context.Background(), append([]string{"guard", "--lock", path, "--server", ".vscode/mcp.json:search", "--log", logFile, "--"}, serverCmd()...), &Env{
		Stdin: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`),
		Stdout: &out, Stderr: &errb, Environ: func() []string { return full },
	})
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"id":2,"result":{"nextCursor"`) && !strings.Contains(out.String(), `"id":2,"result":{`) {
		t.Errorf("no tools/list answer on stdout:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "mcp-surface guard: checked tools/list: 2 tool(s), 2 as locked") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	data, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(data), `"server":".vscode/mcp.json › search"`) {
		t.Errorf("log file (%v):\n%s", err, data)
	}
}
