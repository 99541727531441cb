package cli

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// offlineSchemas makes the CLI read schemas from the shared directory,
// with an empty cache and a download location that answers 404, so that
// a test never reaches the network or the user's cache. It returns the
// environment entries to pass to run.
func offlineSchemas(t *testing.T) []string {
	t.Helper()
	dead := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(dead.Close)
	old := schemaBaseURL
	schemaBaseURL = dead.URL
	t.Cleanup(func() { schemaBaseURL = old })
	return []string{frontend.SchemaDirEnv + "=" + spectest.SchemaDir(t), "RUNNER_TOOL_CACHE=" + t.TempDir()}
}

// publishedSchemas serves the shared schema files the way their published
// location lays them out, the given revision's bytes altered.
func publishedSchemas(t *testing.T, tamper string) {
	t.Helper()
	dir := spectest.SchemaDir(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rev, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/schema.json")
		data, err := os.ReadFile(filepath.Join(dir, rev, "schema.json"))
		if !ok || strings.Contains(rev, "/") || err != nil {
			http.NotFound(w, r)
			return
		}
		if rev == tamper {
			data = append(data, ' ')
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	old := schemaBaseURL
	schemaBaseURL = srv.URL
	t.Cleanup(func() { schemaBaseURL = old })
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// badSnapshot is a 2025-03-26 snapshot with one error (an inputSchema
// without "type": "object") and one warning (a tool name with a space).
const badSnapshot = `{
  "snapshotVersion": 1,
  "protocolVersion": "2025-03-26",
  "serverInfo": {"name": "demo", "version": "1.0.0"},
  "capabilities": {"tools": {}},
  "tools": [
    {"name": "read_file", "description": "Read a file.", "inputSchema": {"properties": {"path": {"type": "string"}}}},
    {"name": "list files", "description": "List files.", "inputSchema": {"type": "object"}}
  ],
  "prompts": [], "resources": [], "resourceTemplates": []
}`

func TestValidateSnapshot(t *testing.T) {
	env := offlineSchemas(t)
	path := writeFile(t, "mcp-surface.json", badSnapshot)

	r := run(t, env, "validate", path)
	if r.code != frontend.ExitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, frontend.ExitFindings, r.stderr)
	}
	wantIn(t, "output", r.stdout,
		"tool read_file\n  error   tool-input-schema-not-object  /inputSchema\n",
		`tool read_file: inputSchema has no "type": "object", which the 2025-03-26 schema requires`,
		"tool list files\n  warning tool-name-invalid  /name\n",
		"1 error, 1 warning",
	)

	r = run(t, env, "validate", "--format", "json", path)
	if r.code != frontend.ExitFindings {
		t.Fatalf("json: exit %d; stderr:\n%s", r.code, r.stderr)
	}
	var out struct {
		Findings []struct {
			Rule     string `json:"rule"`
			Level    string `json:"level"`
			Revision string `json:"revision"`
			Subject  struct {
				Kind, Name string
			} `json:"subject"`
			Pointer     string `json:"pointer"`
			Fingerprint string `json:"fingerprint"`
		} `json:"findings"`
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("json output: %v\n%s", err, r.stdout)
	}
	if len(out.Findings) != 2 || out.Summary["error"] != 1.0 || out.Summary["warning"] != 1.0 || out.Summary["failed"] != true {
		t.Errorf("json report: %+v", out)
	}
	if f := out.Findings[0]; f.Rule != "tool-input-schema-not-object" || f.Revision != "2025-03-26" || f.Subject.Name != "read_file" || f.Pointer != "/inputSchema" || f.Fingerprint == "" {
		t.Errorf("first finding: %+v", f)
	}

	if r := run(t, env, "validate", "--fail-on", "none", path); r.code != frontend.ExitOK {
		t.Errorf("--fail-on none: exit %d", r.code)
	}
	warnOnly := writeFile(t, "warn.json", strings.Replace(badSnapshot, `"inputSchema": {"properties"`, `"inputSchema": {"type": "object", "properties"`, 1))
	if r := run(t, env, "validate", warnOnly); r.code != frontend.ExitOK {
		t.Errorf("only a warning, --fail-on error: exit %d\n%s", r.code, r.stdout)
	}
	if r := run(t, env, "validate", "--fail-on", "warning", warnOnly); r.code != frontend.ExitFindings {
		t.Errorf("only a warning, --fail-on warning: exit %d", r.code)
	}
	// Deterministic output.
	if a, b := run(t, env, "validate", path), run(t, env, "validate", path); a.stdout != b.stdout {
		t.Errorf("two runs differ:\n%s\n---\n%s", a.stdout, b.stdout)
	}
}

// A snapshot written by capture from a conformant SDK server validates
// without errors.
func TestValidateCapturedSnapshotIsClean(t *testing.T) {
	env := offlineSchemas(t)
	m := capturetest.Build(t, capturetest.InProcess(t, testserver.ModeFull, capture.Options{ProtocolVersion: "2025-11-25"}))
	path := filepath.Join(t.TempDir(), "mcp-surface.json")
	if err := manifest.WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	r := run(t, env, "validate", path)
	if r.code != frontend.ExitOK || strings.Contains(r.stdout, "error ") {
		t.Errorf("exit %d; stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, format := range []string{"sarif", "markdown", "junit", "github"} {
		if r := run(t, env, "validate", "--format", format, path); r.code != frontend.ExitOK || r.stdout == "" {
			t.Errorf("--format %s: exit %d\n%s", format, r.code, r.stderr)
		}
	}
}

func TestValidateLiveServer(t *testing.T) {
	env := offlineSchemas(t)
	h, err := testserver.Handler(testserver.ModeFull, false)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	r := runOK(t, env, "validate", "--url", ts.URL, "--protocol-version", "2025-06-18", "--protocol-version", "2026-07-28")
	if n := strings.Count(r.stdout, "== server "+testserver.ServerName+" (MCP "); n != 2 || strings.Contains(r.stdout, "error ") {
		t.Errorf("%d sections, want 2 without errors:\n%s", n, r.stdout)
	}
	wantIn(t, "output", r.stdout, "(MCP 2025-06-18) ==", "MCP 2025-06-18 negotiated via initialize")
}

// A stdio server that logs to stdout breaks the transport: an error.
func TestValidateStdioServerWritingToStdout(t *testing.T) {
	env := append(offlineSchemas(t), serverEnvFor(testserver.ModeStdoutLog)...)
	r := run(t, env, append([]string{"validate", "--"}, serverCmd()...)...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "stdout-not-jsonrpc") {
		t.Errorf("exit %d; stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	env = append(offlineSchemas(t), serverEnvFor(testserver.ModeFull)...)
	if r := run(t, env, append([]string{"validate", "--"}, serverCmd()...)...); r.code != frontend.ExitOK {
		t.Errorf("full server: exit %d; stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestValidateWithoutReachableSchema(t *testing.T) {
	offlineSchemas(t)
	env := []string{frontend.SchemaDirEnv + "=" + t.TempDir(), "RUNNER_TOOL_CACHE=" + t.TempDir()}
	path := writeFile(t, "mcp-surface.json", badSnapshot)
	r := run(t, env, "validate", path)
	if r.code != frontend.ExitFailure {
		t.Fatalf("exit %d, want %d", r.code, frontend.ExitFailure)
	}
	wantIn(t, "stderr", r.stderr, "no published MCP schema for revision", "mcp-surface schemas fetch", "--schema-dir DIR")
	// No server is started when the schemas are missing.
	r = run(t, append(env, serverEnvFor(testserver.ModeFull)...), append([]string{"validate", "--"}, serverCmd()...)...)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "schemas fetch") {
		t.Errorf("live: exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

func TestValidateUsage(t *testing.T) {
	env := offlineSchemas(t)
	for _, args := range [][]string{
		{"validate"},
		{"validate", "a.json", "b.json"},
		{"validate", "--format", "xml", "a.json"},
		{"validate", "--url", "http://127.0.0.1:1", "a.json"},
	} {
		if r := run(t, env, args...); r.code != frontend.ExitFailure || r.stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	if r := run(t, env, "validate", "-h"); r.code != frontend.ExitOK || !strings.Contains(r.stderr, "draft-07") {
		t.Errorf("-h: exit %d\n%s", r.code, r.stderr)
	}
}

func TestSchemasFetchAndList(t *testing.T) {
	publishedSchemas(t, "")
	cache := t.TempDir()
	env := []string{"RUNNER_TOOL_CACHE=" + t.TempDir(), frontend.SchemaDirEnv + "="}
	r := runOK(t, env, "schemas", "fetch", "--cache-dir", cache)
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		if _, err := os.Stat(filepath.Join(cache, rev, "schema.json")); err != nil {
			t.Errorf("fetch did not cache %s: %v", rev, err)
		}
		if !strings.Contains(r.stdout, rev) {
			t.Errorf("fetch output lacks %s:\n%s", rev, r.stdout)
		}
	}
	// An air-gapped run uses the filled cache.
	offline := append(env, "MCP_SURFACE_SCHEMA_DIR=")
	old := schemaBaseURL
	schemaBaseURL = "http://127.0.0.1:1"
	path := writeFile(t, "s.json", badSnapshot)
	if r := run(t, offline, "validate", "--no-download", "--cache-dir", cache, path); r.code != frontend.ExitFindings {
		t.Errorf("validate from the filled cache: exit %d\n%s", r.code, r.stderr)
	}
	schemaBaseURL = old

	r = run(t, env, "schemas", "list", "--cache-dir", cache)
	if r.code != frontend.ExitOK || strings.Count(r.stdout, "cache "+cache) != 5 {
		t.Errorf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, env, "schemas", "list", "--schema-dir", spectest.SchemaDir(t), "--cache-dir", t.TempDir())
	if r.code != frontend.ExitOK || strings.Count(r.stdout, "schema-dir ") != 5 {
		t.Errorf("list --schema-dir: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, env, "schemas", "list", "--cache-dir", t.TempDir())
	if r.code != frontend.ExitOK || strings.Count(r.stdout, "not found") != 5 {
		t.Errorf("list of an empty cache: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if r := run(t, env, "schemas", "fetch", "--revision", "1999-01-01", "--cache-dir", cache); r.code != frontend.ExitFailure {
		t.Errorf("unknown revision: exit %d", r.code)
	}
	if r := run(t, env, "schemas"); r.code != frontend.ExitFailure {
		t.Errorf("no subcommand: exit %d", r.code)
	}
}

func TestSchemasFetchRefusesTamperedFile(t *testing.T) {
	publishedSchemas(t, "2025-06-18")
	cache := t.TempDir()
	r := run(t, nil, "schemas", "fetch", "--revision", "2025-06-18", "--cache-dir", cache)
	if r.code != frontend.ExitFailure {
		t.Fatalf("exit %d, want %d", r.code, frontend.ExitFailure)
	}
	if !strings.Contains(r.stderr, "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01") || !strings.Contains(r.stderr, "has SHA-256") {
		t.Errorf("the error must name both digests:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(cache, "2025-06-18", "schema.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a tampered schema was cached")
	}
	// A tampered file in the cache is refused by list and validate too.
	os.MkdirAll(filepath.Join(cache, "2025-06-18"), 0o755)
	data, _ := os.ReadFile(filepath.Join(spectest.SchemaDir(t), "2025-06-18", "schema.json"))
	os.WriteFile(filepath.Join(cache, "2025-06-18", "schema.json"), append(data, '\n'), 0o644)
	// (MCP_SURFACE_SCHEMA_DIR, when a developer has set it, would be consulted first.)
	if r := run(t, []string{"MCP_SURFACE_SCHEMA_DIR="}, "schemas", "list", "--cache-dir", cache); r.code != frontend.ExitFailure || !strings.Contains(r.stdout, "REFUSED") {
		t.Errorf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A snapshot is validated with its own revision's schema alone: a schema
// directory holding only that revision is enough, and what the others
// would have decided is named, not failed on.
func TestValidateSnapshotNeedsOnlyItsRevision(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(spectest.SchemaDir(t), "2025-03-26", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "2025-03-26"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "2025-03-26", "schema.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{frontend.SchemaDirEnv + "=", "RUNNER_TOOL_CACHE=" + t.TempDir()}
	args := []string{"validate", "--no-download", "--schema-dir", dir}

	r := run(t, env, append(args, writeFile(t, "s.json", badSnapshot))...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "tool-input-schema-not-object") {
		t.Fatalf("exit %d, want %d with the snapshot's findings\n%s%s", r.code, frontend.ExitFindings, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "protocol-feature-version-mismatch") {
		t.Errorf("a snapshot with nothing from other revisions needs none of them:\n%s", r.stdout)
	}

	foreign := strings.Replace(badSnapshot, `"inputSchema": {"type": "object"}}`, `"inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}`, 1)
	r = run(t, env, append(args, writeFile(t, "s.json", foreign))...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "protocol-feature-version-mismatch") || !strings.Contains(r.stdout, "2024-11-05, 2025-06-18, 2025-11-25, 2026-07-28") {
		t.Errorf("exit %d; want the incomplete comparison named\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = run(t, env, append(args, writeFile(t, "s.json", strings.Replace(badSnapshot, "2025-03-26", "2025-06-18", 1)))...)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "2025-06-18") || !strings.Contains(r.stderr, "schemas fetch") {
		t.Errorf("the snapshot's own revision missing: exit %d, want %d naming it\n%s", r.code, frontend.ExitFailure, r.stderr)
	}
}

// validate --clients runs the client profiles on a live server: the test
// server's SDK-generated schemas set additionalProperties, which Gemini's
// function declarations do not accept, and the findings say where and why.
func TestValidateClients(t *testing.T) {
	args := append([]string{"validate", "--format", "json", "--clients", "gemini,openai", "--"}, serverCmd()...)
	r := run(t, append(offlineSchemas(t), serverEnvFor(testserver.ModeFull)...), args...)
	if r.code != frontend.ExitOK { // warnings do not fail at the default fail-on
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep struct {
		Findings []struct {
			Rule    string   `json:"rule"`
			Level   string   `json:"level"`
			Tags    []string `json:"tags"`
			Pointer string   `json:"pointer"`
			Message string   `json:"message"`
			Subject struct{ Kind, Name string }
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	n := 0
	for _, f := range rep.Findings {
		if f.Rule != rules.ClientSchemaKeywordUnsupported {
			continue
		}
		n++
		if f.Level != "warning" || f.Subject.Kind != "tool" || !strings.HasPrefix(f.Pointer, "/inputSchema") ||
			!strings.Contains(f.Message, "gemini") || !strings.Contains(f.Message, "https://ai.google.dev/") {
			t.Errorf("finding %+v", f)
		}
	}
	if n == 0 {
		t.Fatalf("no %s finding for the SDK's schemas:\n%s", rules.ClientSchemaKeywordUnsupported, r.stdout)
	}

	// The terminal and the markdown say, per tool, which client rejects
	// which keyword, and claim no comparison ("surface unchanged").
	for _, format := range []string{"text", "markdown"} {
		args := append([]string{"validate", "--format", format, "--clients", "gemini", "--"}, serverCmd()...)
		out := run(t, append(offlineSchemas(t), serverEnvFor(testserver.ModeFull)...), args...).stdout
		if strings.Contains(out, "surface unchanged") {
			t.Errorf("%s: a validation says \"surface unchanged\":\n%s", format, out)
		}
		for _, f := range rep.Findings {
			if f.Rule != rules.ClientSchemaKeywordUnsupported {
				continue
			}
			kw := f.Pointer[strings.LastIndexByte(f.Pointer, '/')+1:]
			if !strings.Contains(out, "&quot;"+strings.ReplaceAll(kw, "$", "&#36;")+"&quot;") && !strings.Contains(out, `"`+kw+`"`) {
				t.Errorf("%s: keyword %s of tool %s is not named:\n%s", format, kw, f.Subject.Name, out)
			}
		}
	}

	// Without --clients nothing is said about clients.
	plain := run(t, serverEnvFor(testserver.ModeFull), append([]string{"validate", "--format", "json", "--"}, serverCmd()...)...)
	if strings.Contains(plain.stdout, "client-") {
		t.Errorf("client findings without --clients:\n%s", plain.stdout)
	}
	// An unknown profile is a usage error naming the known ones.
	bad := run(t, serverEnvFor(testserver.ModeFull), append([]string{"validate", "--clients", "gemni", "--"}, serverCmd()...)...)
	if bad.code != frontend.ExitFailure || !strings.Contains(bad.stderr, "openai-strict") {
		t.Errorf("--clients gemni: exit %d: %s", bad.code, bad.stderr)
	}
}
