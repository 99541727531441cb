package lock

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// standIn is a registry on loopback that answers as npm's registry (the
// abbreviated metadata document), PyPI's JSON API and an OCI registry's
// manifest HEAD (behind an anonymous Bearer token, as Docker Hub's is)
// do, with the shapes they use. Its answers can change between requests.
type standIn struct {
	*httptest.Server
	mu        sync.Mutex
	npm       map[string]string // package → metadata document
	pypi      map[string]string // "name" or "name/version" → JSON document
	manifests map[string]string // "repo:ref" → digest
	heads     int
}

func newStandIn(t *testing.T) *standIn {
	t.Helper()
	s := &standIn{npm: map[string]string{}, pypi: map[string]string{}, manifests: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *standIn) set(f func(s *standIn)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := r.URL.EscapedPath()
	switch {
	case r.URL.Path == "/token":
		if r.URL.Query().Get("service") != "registry.stand-in" || !strings.HasPrefix(r.URL.Query().Get("scope"), "repository:") {
			http.Error(w, "bad token request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"token":"anon","access_token":"anon","expires_in":300,"issued_at":"2026-12-07T00:00:00Z"}`))
	case strings.HasPrefix(p, "/v2/"):
		if r.Method != http.MethodHead || !strings.Contains(r.Header.Get("Accept"), "application/vnd.oci.image.index.v1+json") {
			http.Error(w, "want a HEAD that accepts an index", http.StatusBadRequest)
			return
		}
		s.heads++
		repo, ref, _ := strings.Cut(strings.TrimPrefix(p, "/v2/"), "/manifests/")
		if r.Header.Get("Authorization") != "Bearer anon" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="`+s.URL+`/token",service="registry.stand-in",scope="repository:`+repo+`:pull"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		d, ok := s.manifests[repo+":"+ref]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.oci.image.index.v1+json")
		w.Header().Set("Docker-Content-Digest", d)
		w.Header().Set("Content-Length", "1609")
	case strings.HasPrefix(p, "/pypi/"):
		key := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/pypi/"), "/json")
		doc, ok := s.pypi[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(doc))
	default:
		if !strings.HasPrefix(r.Header.Get("Accept"), "application/vnd.npm.install-v1+json") {
			http.Error(w, "want the abbreviated metadata", http.StatusNotAcceptable)
			return
		}
		doc, ok := s.npm[strings.TrimPrefix(p, "/")]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found"}`))
			return
		}
		w.Header().Set("Content-Type", "application/vnd.npm.install-v1+json")
		w.Write([]byte(doc))
	}
}

// npmDoc is npm's abbreviated metadata of a package with two versions.
func npmDoc(name, latest, integrity123, integrity130 string) string {
	return `{"name":"` + name + `","modified":"2026-11-30T10:00:00.000Z","dist-tags":{"latest":"` + latest + `","next":"1.3.0"},"versions":{` +
		`"1.2.3":{"name":"` + name + `","version":"1.2.3","bin":{"fs-helper":"dist/index.js"},"dist":{"integrity":"` + integrity123 + `","shasum":"3b1a0c6c1b8d2c0c0c3f1a4d9d1e0f6b2e7a1c0d","tarball":"https://example.invalid/fs-helper-1.2.3.tgz","fileCount":12,"unpackedSize":48213,"signatures":[{"keyid":"SHA256:x","sig":"y"}]},"engines":{"node":">=18"}},` +
		`"1.3.0":{"name":"` + name + `","version":"1.3.0","dist":{"integrity":"` + integrity130 + `","shasum":"9f1a0c6c1b8d2c0c0c3f1a4d9d1e0f6b2e7a1c0d","tarball":"https://example.invalid/fs-helper-1.3.0.tgz"}}}}`
}

// pypiDoc is PyPI's JSON API document of one release.
func pypiDoc(name, version, wheelSHA, sdistSHA string) string {
	return `{"info":{"name":"` + name + `","version":"` + version + `","requires_python":">=3.10","summary":"s"},"last_serial":1,"urls":[` +
		`{"filename":"` + strings.ReplaceAll(name, "-", "_") + `-` + version + `-py3-none-any.whl","packagetype":"bdist_wheel","digests":{"blake2b_256":"aa","md5":"bb","sha256":"` + wheelSHA + `"},"size":10,"yanked":false,"url":"https://example.invalid/w.whl"},` +
		`{"filename":"` + strings.ReplaceAll(name, "-", "_") + `-` + version + `.tar.gz","packagetype":"sdist","digests":{"blake2b_256":"cc","md5":"dd","sha256":"` + sdistSHA + `"},"size":20,"yanked":false,"url":"https://example.invalid/s.tar.gz"}],"vulnerabilities":[]}`
}

const (
	intA = "sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="
	intB = "sha512-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=="
	intC = "sha512-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC=="
	dig1 = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	dig2 = "sha256:2222222222222222222222222222222222222222222222222222222222222222"
)

func TestParseLaunch(t *testing.T) {
	for _, c := range []struct {
		line                         string
		eco, name, version, rng, tag string
		pinned                       bool
	}{
		{"npx -y fs-helper", EcosystemNPM, "fs-helper", "", "", "", false},
		{"npx fs-helper@1.2.3 --root .", EcosystemNPM, "fs-helper", "1.2.3", "", "", true},
		{"npx -y @scope/server@^2.0.0", EcosystemNPM, "@scope/server", "", "^2.0.0", "", false},
		{"npx --package=@scope/server@2.1.0 -y server-bin", EcosystemNPM, "@scope/server", "2.1.0", "", "", true},
		{"npm exec --yes -- pkg@latest", EcosystemNPM, "pkg", "", "latest", "", false},
		{"pnpm dlx pkg@3.0.0-beta.1", EcosystemNPM, "pkg", "3.0.0-beta.1", "", "", true},
		{"yarn dlx pkg", EcosystemNPM, "pkg", "", "", "", false},
		{"bunx pkg@1.x", EcosystemNPM, "pkg", "", "1.x", "", false},
		{"uvx mcp-server-time", EcosystemPyPI, "mcp-server-time", "", "", "", false},
		{"uvx --python 3.12 mcp-server-time==2025.1.0", EcosystemPyPI, "mcp-server-time", "2025.1.0", "", "", true},
		{"uvx mcp-server-git@2025.9.25", EcosystemPyPI, "mcp-server-git", "2025.9.25", "", "", true},
		{"uv tool run --from pkg[cli]>=1.0 pkg-cli", EcosystemPyPI, "pkg", "", ">=1.0", "", false},
		{"pipx run --spec pkg==1.0 pkg", EcosystemPyPI, "pkg", "1.0", "", "", true},
		{"docker run -i --rm -e TOKEN ghcr.io/org/server:1.0", EcosystemOCI, "ghcr.io/org/server", "", "", "1.0", false},
		{"docker run -i --rm mcp/fetch@sha256:" + strings.Repeat("ab", 32), EcosystemOCI, "mcp/fetch", "", "", "", true},
		{"podman run --rm -v /a:/b localhost:5000/x:latest", EcosystemOCI, "localhost:5000/x", "", "", "latest", false},
	} {
		f := strings.Fields(c.line)
		s, ok := ParseLaunch(f[0], f[1:])
		if !ok || s.Ecosystem != c.eco || s.Name != c.name || s.Version != c.version || s.Range != c.rng || s.Tag != c.tag || s.Pinned() != c.pinned {
			t.Errorf("%s: %+v %v", c.line, s, ok)
		}
	}
	for _, line := range []string{"node server.js", "npx", "docker ps", "uv run server.py", "python -m server"} {
		f := strings.Fields(line)
		if s, ok := ParseLaunch(f[0], f[1:]); ok {
			t.Errorf("%s: a launcher? %+v", line, s)
		}
	}
}

func TestResolveAgainstStandInRegistries(t *testing.T) {
	reg := newStandIn(t)
	reg.set(func(s *standIn) {
		s.npm["fs-helper"] = npmDoc("fs-helper", "1.3.0", intA, intB)
		s.npm["@scope%2fserver"] = npmDoc("@scope/server", "1.2.3", intC, intB)
		s.pypi["mcp-server-time"] = pypiDoc("mcp-server-time", "2025.2.0", strings.Repeat("e", 64), strings.Repeat("f", 64))
		s.pypi["mcp-server-time/2025.1.0"] = pypiDoc("mcp-server-time", "2025.1.0", strings.Repeat("a", 64), strings.Repeat("b", 64))
		s.manifests["team/fs-image:1.0"] = dig1
	})
	r := &Registries{}
	ctx := context.Background()
	env := []string{"npm_config_registry=" + reg.URL, "UV_INDEX_URL=" + reg.URL + "/simple"}
	parse := func(line string) Spec {
		f := strings.Fields(strings.ReplaceAll(line, "HOST", strings.TrimPrefix(reg.URL, "http://")))
		s, ok := ParseLaunch(f[0], f[1:])
		if !ok {
			t.Fatalf("%s: not a launcher", line)
		}
		return s
	}

	res, err := r.Resolve(ctx, parse("npx fs-helper@1.2.3"), env)
	if err != nil || res.Package.Version != "1.2.3" || res.Package.Integrity != intA || res.Latest != "1.3.0" || res.Package.Registry != reg.URL {
		t.Fatalf("npm pinned: %+v %v", res, err)
	}
	res, err = r.Resolve(ctx, parse("npx -y @scope/server"), env)
	if err != nil || res.Package.Version != "1.2.3" || res.Package.Integrity != intC {
		t.Fatalf("npm scoped, floating: %+v %v", res, err)
	}
	if res, err := r.Resolve(ctx, parse("npx -y fs-helper@^1.0.0"), env); err != nil || res.Package != nil || res.Latest != "1.3.0" {
		t.Errorf("npm range: %+v %v", res, err)
	}
	if _, err := r.Resolve(ctx, parse("npx fs-helper@9.9.9"), env); err == nil || !strings.Contains(err.Error(), "no version 9.9.9") {
		t.Errorf("npm unknown version: %v", err)
	}
	res, err = r.Resolve(ctx, parse("uvx mcp-server-time==2025.1.0"), env)
	if err != nil || res.Package.Version != "2025.1.0" || len(res.Package.Files) != 2 || res.Package.Files[0].SHA256 != strings.Repeat("a", 64) || res.Latest != "2025.2.0" {
		t.Fatalf("pypi pinned: %+v %v", res, err)
	}
	res, err = r.Resolve(ctx, parse("uvx mcp-server-time"), env)
	if err != nil || res.Package.Version != "2025.2.0" {
		t.Fatalf("pypi floating: %+v %v", res, err)
	}
	res, err = r.Resolve(ctx, parse("docker run -i --rm HOST/team/fs-image:1.0"), env)
	if err != nil || res.Package.Integrity != dig1 || res.Package.Version != "1.0" {
		t.Fatalf("oci: %+v %v", res, err)
	}
	if _, err := r.Resolve(ctx, parse("docker run HOST/team/none:1.0"), env); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("oci unknown tag: %v", err)
	}
	// Bounded: a response larger than MaxBytes is refused.
	small := &Registries{MaxBytes: 100}
	if _, err := small.Resolve(ctx, parse("npx fs-helper@1.2.3"), env); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("bound: %v", err)
	}
}
