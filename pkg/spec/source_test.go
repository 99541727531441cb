package spec

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// publishedServer serves the shared schema files the way the published
// location lays them out (/<revision>/schema.json), optionally with one
// revision's bytes tampered with.
func publishedServer(t *testing.T, tamper string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	dir := schemaDir(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		rev, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/schema.json")
		if !ok || strings.Contains(rev, "/") {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join(dir, rev, "schema.json"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if rev == tamper {
			data = []byte(strings.Replace(string(data), `"string"`, `"number"`, 1))
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestDownloadVerifiesAndCaches(t *testing.T) {
	srv, hits := publishedServer(t, "")
	cache := t.TempDir()
	opts := Options{CacheDir: cache, BaseURL: srv.URL}
	s, err := LoadRevision(context.Background(), opts, "2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin != OriginDownload || s.Location != srv.URL+"/2025-06-18/schema.json" {
		t.Errorf("origin %s at %s, want a download from the test server", s.Origin, s.Location)
	}
	cached := filepath.Join(cache, "2025-06-18", "schema.json")
	if s.CachedAt != cached {
		t.Errorf("cached at %q, want %q", s.CachedAt, cached)
	}
	if err := verify(s.Revision, cached, mustRead(t, cached)); err != nil {
		t.Errorf("cached copy: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(cache, "2025-06-18", ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left in the cache: %v", leftovers)
	}
	// The second load is served by the cache: no request.
	before := hits.Load()
	s2, err := LoadRevision(context.Background(), opts, "2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	if s2.Origin != OriginCache || hits.Load() != before {
		t.Errorf("second load: origin %s, %d new requests; want the cache and none", s2.Origin, hits.Load()-before)
	}
	if s2.c != s.c {
		t.Errorf("the same verified file was compiled twice in one process")
	}
}

func TestDownloadRefusesTamperedSchema(t *testing.T) {
	srv, _ := publishedServer(t, "2025-11-25")
	cache := t.TempDir()
	_, err := LoadRevision(context.Background(), Options{CacheDir: cache, BaseURL: srv.URL}, "2025-11-25")
	var de *DigestError
	if !errors.As(err, &de) {
		t.Fatalf("error %v, want a *DigestError", err)
	}
	rev, _ := LookupRevision("2025-11-25")
	if de.Want != rev.SHA256 || de.Got == rev.SHA256 || !strings.Contains(err.Error(), de.Want) || !strings.Contains(err.Error(), de.Got) {
		t.Errorf("digest error %q must name both digests", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "2025-11-25", "schema.json")); !os.IsNotExist(err) {
		t.Errorf("a tampered download was cached")
	}
	if _, err := Fetch(context.Background(), Options{CacheDir: cache, BaseURL: srv.URL}, "2025-11-25"); !errors.As(err, &de) {
		t.Errorf("Fetch of a tampered file: %v, want a *DigestError", err)
	}
}

func TestDigestMismatchInDirAndCache(t *testing.T) {
	for _, origin := range []string{"dir", "cache"} {
		t.Run(origin, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "2024-11-05", "schema.json")
			os.MkdirAll(filepath.Dir(path), 0o755)
			data := mustRead(t, filepath.Join(schemaDir(t), "2024-11-05", "schema.json"))
			os.WriteFile(path, append(data, '\n'), 0o644)
			opts := Options{NoDownload: true}
			if origin == "dir" {
				opts.Dir = dir
			} else {
				opts.CacheDir = dir
			}
			_, err := LoadRevision(context.Background(), opts, "2024-11-05")
			var de *DigestError
			if !errors.As(err, &de) || de.Location != path {
				t.Fatalf("error %v, want a *DigestError for %s", err, path)
			}
		})
	}
}

func TestSourcesInOrder(t *testing.T) {
	srv, hits := publishedServer(t, "")
	empty := t.TempDir()
	// The named directory wins over the cache and the network.
	s, err := LoadRevision(context.Background(), Options{Dir: schemaDir(t), CacheDir: empty, BaseURL: srv.URL}, "2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin != OriginDir || hits.Load() != 0 {
		t.Errorf("origin %s with %d requests, want the named directory and none", s.Origin, hits.Load())
	}
	// A directory without the revision falls through to the cache, then
	// to the download.
	s, err = LoadRevision(context.Background(), Options{Dir: empty, CacheDir: t.TempDir(), BaseURL: srv.URL}, "2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin != OriginDownload {
		t.Errorf("origin %s, want download", s.Origin)
	}
}

func TestNothingReachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	dir := t.TempDir()
	_, err := Load(context.Background(), Options{Dir: dir, CacheDir: dir, BaseURL: srv.URL}, "2025-03-26")
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("error %v, want a *NotFoundError", err)
	}
	if nf.Revision != "2025-03-26" || len(nf.Tried) != 3 || !strings.Contains(err.Error(), "404") {
		t.Errorf("not-found error %q must list the three sources tried", err)
	}
	_, err = Load(context.Background(), Options{NoDownload: true}, "2025-03-26")
	if !errors.As(err, &nf) {
		t.Errorf("error %v, want a *NotFoundError", err)
	}
	if _, err := Load(context.Background(), Options{}, "2023-01-01"); err == nil || !strings.Contains(err.Error(), "unknown MCP revision") {
		t.Errorf("unknown revision: %v", err)
	}
}

func TestFetchFillsCache(t *testing.T) {
	srv, _ := publishedServer(t, "")
	cache := t.TempDir()
	opts := Options{CacheDir: cache, BaseURL: srv.URL}
	// A corrupt cached copy is replaced.
	corrupt := filepath.Join(cache, "2025-03-26", "schema.json")
	os.MkdirAll(filepath.Dir(corrupt), 0o755)
	os.WriteFile(corrupt, []byte("{}"), 0o644)
	for _, rev := range RevisionNames() {
		if _, err := Fetch(context.Background(), opts, rev); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(context.Background(), Options{CacheDir: cache, NoDownload: true})
	if err != nil {
		t.Fatalf("the filled cache does not load offline: %v", err)
	}
	if len(s.All()) != len(RevisionNames()) {
		t.Errorf("%d revisions loaded, want %d", len(s.All()), len(RevisionNames()))
	}
	if _, err := Fetch(context.Background(), Options{BaseURL: srv.URL}, "2025-03-26"); err == nil {
		t.Errorf("Fetch without a cache directory succeeded")
	}
}

func TestSchemasAreSafeForConcurrentUse(t *testing.T) {
	schemas := testSchemas(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, s := range schemas.All() {
				for _, def := range []string{"Tool", "Prompt", "ServerCapabilities", "Implementation"} {
					v, _ := decodeJSON([]byte(`{"name":"x","inputSchema":{"type":"object"}}`))
					_ = s.ValidateValue(def, v)
				}
			}
		}()
	}
	wg.Wait()
}

func TestDefinitionsOfEveryRevision(t *testing.T) {
	schemas := testSchemas(t)
	for _, s := range schemas.All() {
		for _, def := range []string{"Tool", "Prompt", "Resource", "ResourceTemplate", "Implementation", "ServerCapabilities",
			"ListToolsResult", "ListPromptsResult", "ListResourcesResult", "ListResourceTemplatesResult",
			"CallToolResult", "GetPromptResult", "ReadResourceResult", "CompleteResult"} {
			if !s.HasDefinition(def) {
				t.Errorf("%s has no %s", s.Revision.Name, def)
			}
		}
		handshake := s.Revision.HandshakeDefinition(s.Revision.Handshake)
		if !s.HasDefinition(handshake) {
			t.Errorf("%s has no %s", s.Revision.Name, handshake)
		}
		if len(s.Properties("Tool")) < 3 {
			t.Errorf("%s: Tool properties %v", s.Revision.Name, s.Properties("Tool"))
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
