package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
)

// A .mcp.json with a floating npx spec, a pinned one and an image by tag,
// their registries stand-ins on loopback (npm's abbreviated metadata, an
// OCI registry's manifest HEAD): the lock records version and integrity,
// the floating ones are reported with the spec to write, and the check
// fails once the registry serves other bytes for the pinned version.
func TestLockPinsPackages(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	integrity := "sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="
	const imageDigest = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.EscapedPath() {
		case "/fs-helper":
			w.Header().Set("Content-Type", "application/vnd.npm.install-v1+json")
			w.Write([]byte(`{"name":"fs-helper","modified":"2026-11-30T10:00:00.000Z","dist-tags":{"latest":"1.3.0"},"versions":{` +
				`"1.2.3":{"name":"fs-helper","version":"1.2.3","dist":{"integrity":"` + integrity + `","shasum":"3b1a","tarball":"https://example.invalid/a.tgz"}},` +
				`"1.3.0":{"name":"fs-helper","version":"1.3.0","dist":{"integrity":"sha512-BBBB","shasum":"9f1a","tarball":"https://example.invalid/b.tgz"}}}}`))
		case "/floaty":
			w.Header().Set("Content-Type", "application/vnd.npm.install-v1+json")
			w.Write([]byte(`{"name":"floaty","dist-tags":{"latest":"2.0.0"},"versions":{"2.0.0":{"name":"floaty","version":"2.0.0","dist":{"integrity":"sha512-FFFF","tarball":"https://example.invalid/f.tgz"}}}}`))
		case "/v2/team/fs-image/manifests/1.0":
			w.Header().Set("Content-Type", "application/vnd.oci.image.index.v1+json")
			w.Header().Set("Docker-Content-Digest", imageDigest)
		default:
			http.NotFound(w, r)
		}
	}))
	defer reg.Close()

	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// The launchers are this test binary under their names: it serves
	// the tools of a file, whatever the arguments.
	for _, name := range []string{"npx", "docker"} {
		if err := os.Symlink(os.Args[0], filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(`{"read_file": "Read a file."}`), 0o644); err != nil {
		t.Fatal(err)
	}
	entry := func(launcher string, args ...string) string {
		cmd, _ := json.Marshal(filepath.Join(bin, launcher))
		a, _ := json.Marshal(args)
		return `{"command": ` + string(cmd) + `, "args": ` + string(a) + `, "env": {"` + lockServerEnv + `": "${CLAUDE_PROJECT_DIR}/tools.json"}}`
	}
	host := strings.TrimPrefix(reg.URL, "http://")
	cfg := `{"mcpServers": {"floating": ` + entry("npx", "-y", "floaty") + `, "pinned": ` + entry("npx", "fs-helper@1.2.3") +
		`, "image": ` + entry("docker", "run", "-i", "--rm", host+"/team/fs-image:1.0") + `}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"npm_config_registry=" + reg.URL}

	r := run(t, env, "lock", "--root", dir)
	if r.code != 0 {
		t.Fatalf("lock: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		".mcp.json › pinned: pinned fs-helper 1.2.3 " + integrity,
		".mcp.json › floating: npx floaty floats (the registry serves 2.0.0 today): write floaty@2.0.0 (package-spec-floating)",
		".mcp.json › image: docker run " + host + "/team/fs-image:1.0 floats (the registry serves " + imageDigest + " today): write " + host + "/team/fs-image:1.0@" + imageDigest,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("lock does not say %q:\n%s", want, r.stderr)
		}
	}
	l, err := lock.ReadFile(t.Context(), filepath.Join(dir, lock.DefaultFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := l.Find(".mcp.json", "pinned"); e.Package == nil || e.Package.Version != "1.2.3" || e.Package.Integrity != integrity || e.Package.Registry != reg.URL {
		t.Fatalf("the pinned package: %+v", e.Package)
	}
	if e, _ := l.Find(".mcp.json", "image"); e.Package == nil || e.Package.Integrity != imageDigest || e.Package.Version != "1.0" {
		t.Fatalf("the image: %+v", e.Package)
	}
	data, _ := os.ReadFile(filepath.Join(dir, lock.DefaultFile))
	if !strings.Contains(string(data), `"lockVersion": 2`) {
		t.Errorf("a lock with packages is not lockVersion 2:\n%.200s", data)
	}

	// Same registry: the check passes, notes the newer version and the
	// floating specs.
	r = run(t, env, "lock", "--root", dir, "--check")
	if r.code != 0 || !strings.Contains(r.stdout, "fs-helper 1.3.0 is published (the lock pins 1.2.3) (package-version-newer)") ||
		!strings.Contains(r.stdout, "write floaty@2.0.0") {
		t.Fatalf("check against the same registry: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Offline, or told not to: said, never silent.
	r = run(t, env, "lock", "--root", dir, "--check", "--no-registry")
	if r.code != 0 || strings.Count(r.stdout, "package: the package check was skipped (--no-registry)") != 3 {
		t.Errorf("--no-registry: exit %d\n%s", r.code, r.stdout)
	}
	// The registry serves other bytes for 1.2.3.
	mu.Lock()
	integrity = "sha512-ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ=="
	mu.Unlock()
	r = run(t, env, "lock", "--root", dir, "--check")
	if r.code != 1 || !strings.Contains(r.stdout, "worst: the registry serves other bytes in .mcp.json › pinned: fs-helper 1.2.3: locked sha512-AAAA") ||
		!strings.Contains(r.stdout, "✗ .mcp.json › pinned: its surface is unchanged, but the registry serves other bytes") ||
		!strings.Contains(r.stdout, "(package-integrity-changed)") {
		t.Errorf("other bytes for the locked version: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	j := run(t, env, "lock", "--root", dir, "--check", "--format", "json")
	if j.code != 1 || !strings.Contains(j.stdout, `"rule": "package-integrity-changed"`) {
		t.Errorf("json: exit %d\n%s", j.code, j.stdout)
	}
}
