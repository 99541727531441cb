package sharedtest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// sarifBytes is the real SARIF schema, from wherever this run has it.
func sarifBytes(t *testing.T) []byte {
	t.Helper()
	path, err := SARIFSchema()
	Require(t, err)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// isolate points the data variable and the cache at fresh directories.
func isolate(t *testing.T, data string) (cache string) {
	t.Helper()
	cache = t.TempDir()
	t.Setenv(DataEnv, data)
	t.Setenv("RUNNER_TOOL_CACHE", cache)
	return filepath.Join(cache, "mcp-surface")
}

func TestSARIFFromTheDataDirectory(t *testing.T) {
	good := sarifBytes(t)
	data := t.TempDir()
	os.MkdirAll(filepath.Join(data, "sarif"), 0o755)
	os.WriteFile(filepath.Join(data, "sarif", sarifFile), good, 0o644)
	isolate(t, data)
	if path, err := findSARIF(); err != nil || path != filepath.Join(data, "sarif", sarifFile) {
		t.Fatalf("got %q, %v", path, err)
	}
	// An altered copy is refused, and the message says how to fix it.
	os.WriteFile(filepath.Join(data, "sarif", sarifFile), append(good, ' '), 0o644)
	_, err := findSARIF()
	var ue *UnavailableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "pinned to "+SARIFSHA256) || !strings.Contains(err.Error(), "fix: set "+DataEnv) {
		t.Fatalf("an altered file: %v", err)
	}
}

func TestSARIFDownloadedOnceThenCached(t *testing.T) {
	good := sarifBytes(t)
	var hits atomic.Int32
	var body atomic.Pointer[[]byte]
	body.Store(&good)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(*body.Load())
	}))
	defer srv.Close()
	old := sarifDownloadURL
	sarifDownloadURL = srv.URL + "/sarif-schema-2.1.0.json"
	defer func() { sarifDownloadURL = old }()

	root := isolate(t, "")
	altered := append(good, '\n')
	body.Store(&altered)
	if _, err := findSARIF(); err == nil || !strings.Contains(err.Error(), "pinned to") {
		t.Fatalf("a download with the wrong digest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "sarif", sarifFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a download with the wrong digest was cached")
	}
	body.Store(&good)
	for range 2 {
		path, err := findSARIF()
		if err != nil || path != filepath.Join(root, "sarif", sarifFile) {
			t.Fatalf("got %q, %v", path, err)
		}
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("%d downloads, want 2 (the refused one, then one cached)", n)
	}
}

func TestMCPSchemasSources(t *testing.T) {
	fail := func(context.Context, string, *http.Client) error { return errors.New("offline") }
	data := t.TempDir()
	isolate(t, data)
	if _, err := findMCPSchemas(fail); err == nil || !strings.Contains(err.Error(), "has no mcp-schema directory") {
		t.Errorf("a data directory without mcp-schema: %v", err)
	}
	os.Mkdir(filepath.Join(data, "mcp-schema"), 0o755)
	if dir, err := findMCPSchemas(fail); err != nil || dir != filepath.Join(data, "mcp-schema") {
		t.Errorf("the data directory: %q, %v", dir, err)
	}

	root := isolate(t, "")
	_, err := findMCPSchemas(fail)
	for _, want := range []string{DataEnv + ": not set", "offline", "mcp-surface schemas fetch", filepath.Join(root, "schemas")} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("nothing reachable: the message lacks %q:\n%v", want, err)
		}
	}
	var filled string
	fill := func(_ context.Context, dir string, _ *http.Client) error { filled = dir; return nil }
	if dir, err := findMCPSchemas(fill); err != nil || dir != filepath.Join(root, "schemas") || filled != dir {
		t.Errorf("the cache: %q (filled %q), %v", dir, filled, err)
	}
}
