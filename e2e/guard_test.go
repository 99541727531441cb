package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tsSession runs a TypeScript SDK client session (testdata/guard/client.mjs)
// with the stdio server argv started in dir, and returns what the
// client's API returned.
func tsSession(t *testing.T, dir string, argv ...string) (out, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	arg, _ := json.Marshal(argv)
	script, _ := filepath.Abs(filepath.Join("testdata", "guard", "client.mjs"))
	cmd := exec.CommandContext(ctx, "node", script, string(arg), dir)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client with %s: %v\n%s", argv, err, e.String())
	}
	return o.String(), e.String()
}

// TestGuardTypeScriptClient: the TypeScript SDK's client through the
// guard to a server whose lock is current (written by `mcp-surface lock`
// from a .mcp.json) gets every result it gets directly.
func TestGuardTypeScriptClient(t *testing.T) {
	requireNode(t)
	dir := t.TempDir()
	server := []string{"node", serverPath("server-everything"), "stdio"}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": server[0], "args": server[1:]}}})
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBinary(t, dir, nil, "lock"); r.code != 0 {
		t.Fatalf("lock: exit %d\n%s", r.code, r.stderr)
	}
	direct, _ := tsSession(t, dir, server...)
	log := filepath.Join(dir, "guard.jsonl")
	guarded, stderr := tsSession(t, dir, append([]string{binPath, "guard", "--server", ".mcp.json:everything", "--log", log, "--"}, server...)...)
	if guarded != direct {
		t.Errorf("the client's results differ through the guard:\n--- direct\n%s\n--- guard\n%s", direct, guarded)
	}
	if !strings.Contains(stderr, "mcp-surface guard: checked tools/list") || strings.Contains(stderr, "blocked") {
		t.Errorf("the guard's stderr:\n%s", stderr)
	}
	data, err := os.ReadFile(log)
	if err != nil || !strings.Contains(string(data), `"decision":"checked"`) || strings.Contains(string(data), `"change"`) {
		t.Errorf("the guard's log (%v):\n%s", err, data)
	}
}
