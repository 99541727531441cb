package lock

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestResolveAgreesWithNPMView reads one real package from the registry
// npm itself is configured with, and compares its integrity with what
// `npm view` prints. It is skipped where npm or its registry is not
// reachable (the stand-in registries test the rest everywhere).
func TestResolveAgreesWithNPMView(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a real registry")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const spec = "@modelcontextprotocol/server-filesystem@2025.8.21"
	registry, err := exec.CommandContext(ctx, npm, "config", "get", "registry").Output()
	if err != nil {
		t.Skipf("npm config get registry: %v", err)
	}
	want, err := exec.CommandContext(ctx, npm, "view", spec, "dist.integrity").Output()
	if err != nil || !strings.HasPrefix(string(want), "sha512-") {
		t.Skipf("npm view: the registry is not reachable here (%v)", err)
	}
	s, ok := ParseLaunch("npx", []string{"-y", spec})
	if !ok {
		t.Fatal("not a launcher")
	}
	r := &Registries{NPM: strings.TrimSpace(string(registry))}
	res, err := r.Resolve(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Package == nil || res.Package.Integrity != strings.TrimSpace(string(want)) {
		t.Errorf("Resolve: %+v, npm view: %s", res.Package, want)
	}
}
