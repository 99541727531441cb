package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// referenceProbes is a .mcp-surface.yaml with safe, declared probes of
// the reference servers.
func referenceProbes(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	fsRoot := t.TempDir()
	q := strconv.Quote
	cfg := fmt.Sprintf(`servers:
  - name: everything
    command: [node, %s, stdio]
    snapshot: everything.json
    probes:
      - {id: echo, method: tools/call, name: echo, arguments: {message: hi}}
      - {id: sum, method: tools/call, name: get-sum, arguments: {a: 1, b: 2}, pin: shape}
  - name: filesystem
    command: [node, %s, %s]
    probes:
      - {id: allowed, method: tools/call, name: list_allowed_directories}
`, q(serverPath("server-everything")), q(serverPath("server-filesystem")), q(fsRoot))
	path := filepath.Join(dir, ".mcp-surface.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type probeJSON struct {
	Findings []struct {
		Rule, Level, Pointer, Message string
		Subject                       struct{ Kind, Name string }
	} `json:"findings"`
	Servers []struct {
		Notes []string `json:"notes"`
	} `json:"servers"`
}

func probeRun(t *testing.T, args ...string) (probeJSON, run) {
	t.Helper()
	r := mcpSurface(t, append([]string{"probe", "--format", "json", "--schema-dir", spectest.SchemaDir(t)}, args...)...)
	var rep probeJSON
	if r.code != 2 {
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("probe output is not JSON (exit %d): %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
	}
	return rep, r
}

// The declared safe probes of the reference servers pass clean at every
// revision, and the coverage names what was and was not exercised.
func TestProbeReferenceServers(t *testing.T) {
	t.Parallel()
	requireNode(t)
	cfg := referenceProbes(t)
	for _, v := range capture.Revisions {
		t.Run("everything/"+v, func(t *testing.T) {
			t.Parallel()
			rep, r := probeRun(t, "--config", cfg, "--server", "everything", "--protocol-version", v, "--pins", filepath.Join(t.TempDir(), "pins.json"))
			for _, f := range rep.Findings {
				if f.Level == "error" || (f.Level == "warning" && f.Rule != "probe-shape-not-pinned") {
					t.Errorf("%s %s %s %s %s: %s", f.Level, f.Rule, f.Subject.Kind, f.Subject.Name, f.Pointer, f.Message)
				}
			}
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			notes := strings.Join(rep.Servers[0].Notes, "\n")
			for _, want := range []string{
				"probes: 2 calls answered",
				"probes exercised 2 of 13 tools: echo, get-sum; not exercised: get-annotated-message, get-env,",
				"probes exercised 0 of 4 prompts; not exercised: args-prompt, completable-prompt, resource-prompt, simple-prompt",
				"probes exercised 0 of 7 resources; not exercised: demo://resource/static/document/",
				"probes made 0 completion/complete calls",
			} {
				if !strings.Contains(notes, want) {
					t.Errorf("notes lack %q:\n%s", want, notes)
				}
			}
		})
	}
	t.Run("filesystem", func(t *testing.T) {
		t.Parallel()
		rep, r := probeRun(t, "--config", cfg, "--server", "filesystem", "--fail-on", "warning")
		if r.code != 0 || len(rep.Findings) != 0 {
			t.Fatalf("exit %d, findings %+v\n%s", r.code, rep.Findings, r.stderr)
		}
		notes := strings.Join(rep.Servers[0].Notes, "\n")
		if want := "probes exercised 1 of 14 tools: list_allowed_directories; not exercised: create_directory, directory_tree,"; !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
		// Requiring every tool to be called names each one that was not.
		rep, r = probeRun(t, "--config", cfg, "--server", "filesystem", "--require", "tools/call")
		var missing []string
		for _, f := range rep.Findings {
			if f.Rule != "probe-coverage-incomplete" || f.Level != "error" || f.Subject.Kind != "tool" {
				t.Errorf("unexpected finding %+v", f)
			}
			missing = append(missing, f.Subject.Name)
		}
		if r.code != 1 || len(missing) != 13 || strings.Contains(strings.Join(missing, ","), "list_allowed_directories") {
			t.Errorf("exit %d, not exercised: %v", r.code, missing)
		}
	})
	t.Run("pinned-shape", func(t *testing.T) {
		t.Parallel()
		pins := filepath.Join(t.TempDir(), "pins.json")
		if _, r := probeRun(t, "--config", cfg, "--server", "everything", "--pins", pins, "--update"); r.code != 0 {
			t.Fatalf("--update: exit %d\n%s", r.code, r.stderr)
		}
		rep, r := probeRun(t, "--config", cfg, "--server", "everything", "--pins", pins, "--fail-on", "note")
		if r.code != 0 || len(rep.Findings) != 0 {
			t.Errorf("against its own pins: exit %d, findings %+v", r.code, rep.Findings)
		}
	})
}
