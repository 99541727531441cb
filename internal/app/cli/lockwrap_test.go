package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
)

// readFiles reads names under dir.
func readFiles(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = string(b)
	}
	return out
}

// lock, then --wrap: lock --check and a re-lock see the same servers
// (same entries, no change), and --unwrap gives back the files.
func TestLockWrapKeepsTheLock(t *testing.T) {
	t.Parallel()
	dir := lockRepo(t)
	configs := []string{".vscode/mcp.json", ".mcp.json"}
	runOK(t, nil, "lock", "--root", dir)
	original := readFiles(t, dir, configs...)
	locked := readFiles(t, dir, lock.DefaultFile)
	r := run(t, nil, "lock", "--root", dir, "--wrap")
	if r.code != 0 || !strings.Contains(r.stderr, "wrapped .mcp.json › files: mcp-surface guard --lock mcp-surface.lock.json --server .mcp.json:files -- ") ||
		!strings.Contains(r.stderr, "wrote .vscode/mcp.json") {
		t.Fatalf("lock --wrap: exit %d\n%s", r.code, r.stderr)
	}
	wrapped := readFiles(t, dir, configs...)
	if !strings.Contains(wrapped[".vscode/mcp.json"], "// the search server") || !strings.Contains(wrapped[".vscode/mcp.json"], `"command": "mcp-surface"`) {
		t.Errorf("wrapped .vscode/mcp.json:\n%s", wrapped[".vscode/mcp.json"])
	}
	if r := run(t, nil, "lock", "--root", dir, "--check"); r.code != 0 || !strings.Contains(r.stdout, "2 server(s), 0 changed") {
		t.Fatalf("lock --check of wrapped entries: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	runOK(t, nil, "lock", "--root", dir)
	if got := readFiles(t, dir, lock.DefaultFile); got[lock.DefaultFile] != locked[lock.DefaultFile] {
		t.Error("locking the wrapped entries wrote another lock")
	}
	if r := run(t, nil, "lock", "--root", dir, "--unwrap"); r.code != 0 || !strings.Contains(r.stderr, "unwrapped .mcp.json › files") {
		t.Fatalf("lock --unwrap: exit %d\n%s", r.code, r.stderr)
	}
	for name, text := range readFiles(t, dir, configs...) {
		if text != original[name] {
			t.Errorf("%s after --unwrap:\n%s\nwant\n%s", name, text, original[name])
		}
	}
}

func TestLockWrapUsage(t *testing.T) {
	t.Parallel()
	dir := lockRepo(t)
	for _, args := range [][]string{{"--wrap", "--check"}, {"--wrap", "--unwrap"}, {"--unwrap", "--update"}, {"--wrap", "files"}} {
		r := run(t, nil, append([]string{"lock", "--root", dir}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "exclude each other") && !strings.Contains(r.stderr, "only --update takes server names") {
			t.Errorf("lock %q: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	// Without a lock, --wrap says to lock first, and writes nothing.
	before := readFiles(t, dir, ".mcp.json")
	if r := run(t, nil, "lock", "--root", dir, "--wrap"); r.code != 2 || !strings.Contains(r.stderr, "run `mcp-surface lock` first") {
		t.Errorf("--wrap without a lock: exit %d\n%s", r.code, r.stderr)
	}
	if after := readFiles(t, dir, ".mcp.json"); after[".mcp.json"] != before[".mcp.json"] {
		t.Error("a refused --wrap wrote")
	}
}

// A real client (the go-sdk's) starts the server through the wrapped
// entries of .vscode/mcp.json (with comments) and .mcp.json, the way its
// client would: the results are byte-identical to a direct session, and
// --unwrap gives back the files.
func TestLockWrapClientStartsThroughTheGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	binDir := t.TempDir()
	bin := filepath.Join(binDir, "mcp-surface")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcp-surface/mcp-surface").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	server, _ := json.Marshal(os.Args[0])
	tools := func(name string) string {
		p, _ := json.Marshal(filepath.Join(dir, name))
		return `{"` + lockServerEnv + `": ` + string(p) + `}`
	}
	files := map[string]string{
		".vscode/mcp.json": "{\n\t// the search server, reviewed\n\t\"servers\": {\n\t\t\"search\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": " + string(server) +
			", // this test\n\t\t\t\"env\": " + tools("search.json") + ",\n\t\t},\n\t},\n}\n",
		".mcp.json":   "{\n  \"mcpServers\": {\n    \"files\": {\n      \"command\": " + string(server) + ",\n      \"env\": " + tools("files.json") + "\n    }\n  }\n}\n",
		"search.json": `{"web_search": "Search the web for a query."}`,
		"files.json":  `{"read_file": "Read a file of the project.", "list_files": "List the files of a folder."}`,
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runOK(t, nil, "lock", "--root", dir)
	runOK(t, nil, "lock", "--root", dir, "--wrap")
	for _, c := range []struct{ file, key, name string }{{".vscode/mcp.json", "servers", "search"}, {".mcp.json", "mcpServers", "files"}} {
		entry := readEntry(t, filepath.Join(dir, c.file), c.key, c.name)
		if entry.Command != "mcp-surface" || len(entry.Args) < 7 || entry.Args[0] != "guard" {
			t.Fatalf("%s › %s is not wrapped: %+v", c.file, c.name, entry)
		}
		var env []string
		for k, v := range entry.Env {
			env = append(env, k+"="+v)
		}
		env = append(append(os.Environ(), env...), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		// The client runs the command as written, found on PATH, from the
		// workspace folder.
		guarded := exec.Command(filepath.Join(binDir, entry.Command), entry.Args...)
		direct := exec.Command(entry.Args[6], entry.Args[7:]...)
		for _, cmd := range []*exec.Cmd{guarded, direct} {
			cmd.Dir, cmd.Env = dir, env
		}
		want, got := session(t, direct), session(t, guarded)
		if want != got {
			t.Errorf("%s › %s through the guard:\n%s\nwant (direct):\n%s", c.file, c.name, got, want)
		}
	}
	runOK(t, nil, "lock", "--root", dir, "--unwrap")
	for _, name := range []string{".vscode/mcp.json", ".mcp.json"} {
		if got := readFiles(t, dir, name)[name]; got != files[name] {
			t.Errorf("%s after --unwrap:\n%s\nwant\n%s", name, got, files[name])
		}
	}
}

// clientEntry is what a client reads of a stdio entry.
type clientEntry struct {
	Command string
	Args    []string
	Env     map[string]string
}

func readEntry(t *testing.T, path, key, name string) clientEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := jsonedit.Plain(data)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]clientEntry
	if err := json.Unmarshal(plain, &doc); err != nil {
		t.Fatal(err)
	}
	return doc[key][name]
}

// session connects the go-sdk client over cmd's stdio, lists the tools
// and calls each, and returns what it received as JSON; the server (or
// the guard) must exit cleanly when the client closes.
func session(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "wrap-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%s: connect: %v", cmd.Path, err)
	}
	var got []any
	got = append(got, cs.InitializeResult())
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("%s: tools/list: %v", cmd.Path, err)
	}
	got = append(got, list)
	for _, tool := range list.Tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("%s: tools/call %s: %v", cmd.Path, tool.Name, err)
		}
		got = append(got, res)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("%s: close: %v", cmd.Path, err)
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
