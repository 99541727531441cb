package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/initproject"
	"github.com/mcp-surface/mcp-surface/internal/app/version"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/internal/testkit/workflowtest"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const initPackageJSON = `{
    "name": "my-server",
    "version": "1.0.0",
    "scripts": {
        "build": "tsc",
        "test": "node --test"
    },
    "type": "module"
}
`

// In an empty git repository with a package.json, init -- CMD writes the
// snapshot of the server, a workflow that actionlint accepts and that runs
// the action on that command with the node build, and a package.json
// script, keeping the file's order and indentation; a second init
// overwrites nothing without --force.
func TestInitNodeProject(t *testing.T) {
	repo := gittest.New(t)
	repo.Write("package.json", []byte(initPackageJSON))
	t.Chdir(repo.Dir)

	r := runOK(t, serverEnvFor(testserver.ModeFull), "init", "--", os.Args[0])
	m, err := manifest.ReadFile(filepath.Join(repo.Dir, "mcp-surface.json"))
	if err != nil {
		t.Fatalf("the snapshot: %v", err)
	}
	if len(m.Tools) == 0 {
		t.Errorf("the snapshot holds no tools")
	}
	wantIn(t, "init's output", r.stdout, "mcp-surface.json", initproject.Workflow, "package.json (script mcp-surface:snapshot)", "npm run mcp-surface:snapshot")

	wf := readFile(t, filepath.Join(repo.Dir, filepath.FromSlash(initproject.Workflow)))
	uses, with := workflowtest.Step(t, wf, "surface", "mcp-surface/mcp-surface")
	if want := releaseRef(t); uses != want {
		t.Errorf("the workflow uses %s, want %s", uses, want)
	}
	wantWith := map[string]string{"build": "npm ci && npm run build", "command": os.Args[0], "snapshot": "mcp-surface.json"}
	if d := cmp.Diff(wantWith, with); d != "" {
		t.Errorf("the action's inputs (-want +got):\n%s", d)
	}
	if !strings.Contains(wf, "actions/setup-node@") {
		t.Errorf("the node workflow sets up no node:\n%s", wf)
	}

	wantPkg := `{
    "name": "my-server",
    "version": "1.0.0",
    "scripts": {
        "build": "tsc",
        "test": "node --test",
        "mcp-surface:snapshot": "mcp-surface snapshot -o mcp-surface.json -- ` + strings.ReplaceAll(os.Args[0], `\`, `\\`) + `"
    },
    "type": "module"
}
`
	if d := cmp.Diff(wantPkg, readFile(t, filepath.Join(repo.Dir, "package.json"))); d != "" {
		t.Errorf("package.json (-want +got):\n%s", d)
	}

	// Again: everything is there, nothing is touched.
	before := readFile(t, filepath.Join(repo.Dir, "package.json"))
	r = run(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--", os.Args[0])
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--force") || !strings.Contains(r.stderr, initproject.Workflow) {
		t.Fatalf("a second init: exit %d, want 2 asking for --force\nstderr:\n%s", r.code, r.stderr)
	}
	if readFile(t, filepath.Join(repo.Dir, "package.json")) != before {
		t.Errorf("a refused init changed package.json")
	}
	again, err := manifest.ReadFile(filepath.Join(repo.Dir, "mcp-surface.json"))
	if err != nil || again.Fingerprints.Manifest != m.Fingerprints.Manifest {
		t.Errorf("a refused init changed the snapshot (%v)", err)
	}

	// --force replaces them: the tools-only server's snapshot.
	r = runOK(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--force", "--", os.Args[0])
	forced, err := manifest.ReadFile(filepath.Join(repo.Dir, "mcp-surface.json"))
	if err != nil || forced.Fingerprints.Manifest == m.Fingerprints.Manifest {
		t.Errorf("init --force did not rewrite the snapshot (%v)", err)
	}
	if got := strings.Count(readFile(t, filepath.Join(repo.Dir, "package.json")), "mcp-surface:snapshot"); got != 1 {
		t.Errorf("package.json names the script %d times after --force, want 1", got)
	}
}

// Without a command, init runs what the project declares, and otherwise
// asks for it, naming what it saw; nothing is written then.
func TestInitInfersTheCommand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // in the error
	}{
		{"no bin", map[string]string{"package.json": `{"name": "x"}`}, "package.json has no bin: give the server command after --"},
		{"bin not built", map[string]string{"package.json": `{"name": "x", "bin": {"x": "dist/index.js"}}`}, "package.json's bin dist/index.js does not exist yet: build the server first"},
		{"several bins", map[string]string{"package.json": `{"bin": {"b": "b.js", "a": "a.js"}}`}, "several commands (a, b)"},
		{"python without scripts", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n"}, "pyproject.toml has no [project.scripts]"},
		{"go", map[string]string{"go.mod": "module x\n"}, "e.g. mcp-surface init -- go run ./cmd/server"},
		{"nothing", map[string]string{"README.md": "hi"}, "no package.json, pyproject.toml or go.mod here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := gittest.New(t)
			for name, data := range tc.files {
				repo.Write(name, []byte(data))
			}
			t.Chdir(repo.Dir)
			r := run(t, nil, "init")
			if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("init: exit %d, want 2 with %q\nstderr:\n%s", r.code, tc.want, r.stderr)
			}
			for _, p := range []string{"mcp-surface.json", initproject.Workflow} {
				if _, err := os.Stat(filepath.Join(repo.Dir, p)); err == nil {
					t.Errorf("a failed init wrote %s", p)
				}
			}
		})
	}

}

// With a .pre-commit-config.yaml, init adds the snapshot hook at the
// file's indentation, once.
func TestInitPreCommit(t *testing.T) {
	repo := gittest.New(t)
	repo.Write("package.json", []byte(`{"name": "x"}`))
	repo.Write(".pre-commit-config.yaml", []byte("repos:\n- repo: https://example.invalid/hooks\n  rev: v1\n  hooks:\n  - id: lint\n"))
	t.Chdir(repo.Dir)
	r := runOK(t, serverEnvFor(testserver.ModeToolsOnly), "init", "-o", "snap.json", "--", os.Args[0], "--flag")
	text := readFile(t, filepath.Join(repo.Dir, ".pre-commit-config.yaml"))
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Rev   string `yaml:"rev"`
			Hooks []struct {
				ID   string   `yaml:"id"`
				Args []string `yaml:"args"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(text), &cfg); err != nil || len(cfg.Repos) != 2 {
		t.Fatalf("the configuration: %v, %d repos, want 2:\n%s", err, len(cfg.Repos), text)
	}
	got := cfg.Repos[1]
	wantRev := releaseRef(t)[strings.LastIndex(releaseRef(t), "@")+1:]
	if got.Repo != "https://github.com/mcp-surface/mcp-surface" || got.Rev != wantRev || len(got.Hooks) != 1 || got.Hooks[0].ID != "mcp-surface-snapshot-check" {
		t.Fatalf("the added entry: %+v\n%s", got, text)
	}
	if d := cmp.Diff([]string{"-o", "snap.json", "--", os.Args[0], "--flag"}, got.Hooks[0].Args); d != "" {
		t.Errorf("the hook's args (-want +got):\n%s", d)
	}
	if !strings.Contains(r.stdout, ".pre-commit-config.yaml") {
		t.Errorf("init does not say it changed .pre-commit-config.yaml:\n%s", r.stdout)
	}

	r = runOK(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--force", "-o", "snap.json", "--", os.Args[0])
	if n := strings.Count(readFile(t, filepath.Join(repo.Dir, ".pre-commit-config.yaml")), "mcp-surface/mcp-surface"); n != 1 {
		t.Errorf("the hook is in the configuration %d times, want 1", n)
	}
}

// releaseRef is the action init writes for this test binary.
func releaseRef(t *testing.T) string {
	t.Helper()
	uses, _, err := initproject.ActionRef(version.Get().Version, "")
	if err != nil {
		t.Fatal(err)
	}
	return uses
}

// A build that is no release says so before it writes anything, and
// --action-ref names the action's reference instead.
func TestInitActionRef(t *testing.T) {
	if _, release, _ := initproject.ActionRef(version.Get().Version, ""); release {
		t.Skip("this test binary is a release build")
	}
	repo := gittest.New(t)
	repo.Write("go.mod", []byte("module x\n"))
	t.Chdir(repo.Dir)
	r := runOK(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--", os.Args[0])
	want := "mcp-surface init: this build is not a release, so the workflow uses mcp-surface/mcp-surface@main: pin it to a release tag (mcp-surface --version of a release prints it), or rerun with --action-ref\n"
	if !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr does not start with the notice:\n%s", r.stderr)
	}
	r = run(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--force", "--action-ref", "v1.4.0", "--", os.Args[0])
	if r.code != frontend.ExitOK || strings.Contains(r.stderr, "not a release") {
		t.Fatalf("init --action-ref: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	if uses, _ := workflowtest.Step(t, readFile(t, filepath.Join(repo.Dir, filepath.FromSlash(initproject.Workflow))), "surface", "mcp-surface/mcp-surface"); uses != "mcp-surface/mcp-surface@v1.4.0" {
		t.Errorf("the workflow uses %s, want the --action-ref", uses)
	}
	r = run(t, nil, "init", "--force", "--action-ref", "v1 ${{ x }}", "--", os.Args[0])
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--action-ref \"v1 ${{ x }}\": give a tag, branch or commit") {
		t.Errorf("a bad --action-ref: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
}
