package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// actionlint is the path of actionlint (on PATH, or in GOBIN or
// GOPATH/bin, where .ci/run installs it); without it the test skips, unless the end-to-end
// tests are required.
func actionlint(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("actionlint"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		gobin, gopath, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		for _, dir := range []string{gobin, filepath.Join(gopath, "bin")} {
			p := filepath.Join(dir, "actionlint")
			if _, err := os.Stat(p); dir != "" && err == nil {
				return p
			}
		}
	}
	msg := "actionlint is not installed: go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"
	if os.Getenv("MCP_SURFACE_E2E") == "required" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// lintWorkflow runs actionlint on the workflow of the repository at dir.
func lintWorkflow(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command(actionlint(t), "-shellcheck=", "-pyflakes=", filepath.FromSlash(initWorkflow))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint on the workflow init wrote: %v\n%s", err, out)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// workflowWith is the with: of the mcp-surface step of a workflow.
func workflowWith(t *testing.T, wf string) (uses string, with map[string]string) {
	t.Helper()
	var doc struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(wf), &doc); err != nil {
		t.Fatalf("the workflow is not YAML: %v\n%s", err, wf)
	}
	for _, s := range doc.Jobs["surface"].Steps {
		if strings.HasPrefix(s.Uses, "mcp-surface/mcp-surface@") {
			return s.Uses, s.With
		}
	}
	t.Fatalf("no mcp-surface/mcp-surface step in the workflow:\n%s", wf)
	return "", nil
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

	r := run(t, serverEnvFor(testserver.ModeFull), "init", "--", os.Args[0])
	if r.code != frontend.ExitOK {
		t.Fatalf("init: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	m, err := manifest.ReadFile(filepath.Join(repo.Dir, "mcp-surface.json"))
	if err != nil {
		t.Fatalf("the snapshot: %v", err)
	}
	if len(m.Tools) == 0 {
		t.Errorf("the snapshot holds no tools")
	}
	for _, want := range []string{"mcp-surface.json", initWorkflow, "package.json (script mcp-surface:snapshot)", "npm run mcp-surface:snapshot"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init's output does not name %q:\n%s", want, r.stdout)
		}
	}

	wf := readFile(t, filepath.Join(repo.Dir, filepath.FromSlash(initWorkflow)))
	uses, with := workflowWith(t, wf)
	if want := actionRef(); uses != want {
		t.Errorf("the workflow uses %s, want %s", uses, want)
	}
	wantWith := map[string]string{"build": "npm ci && npm run build", "command": os.Args[0], "snapshot": "mcp-surface.json"}
	if d := cmp.Diff(wantWith, with); d != "" {
		t.Errorf("the action's inputs (-want +got):\n%s", d)
	}
	if !strings.Contains(wf, "actions/setup-node@") {
		t.Errorf("the node workflow sets up no node:\n%s", wf)
	}
	lintWorkflow(t, repo.Dir)

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
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--force") || !strings.Contains(r.stderr, initWorkflow) {
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
	r = run(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--force", "--", os.Args[0])
	if r.code != frontend.ExitOK {
		t.Fatalf("init --force: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
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
			for _, p := range []string{"mcp-surface.json", initWorkflow} {
				if _, err := os.Stat(filepath.Join(repo.Dir, p)); err == nil {
					t.Errorf("a failed init wrote %s", p)
				}
			}
		})
	}

	// A bin that exists is run with node.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "server.js"), nil, 0o644)
	got, err := inferCommand(t.Context(), dir, ecosystem{name: "node"}, []byte(`{"bin": "server.js"}`))
	if err != nil || cmp.Diff([]string{"node", "server.js"}, got) != "" {
		t.Errorf("inferred %q, %v; want node server.js", got, err)
	}
}

func TestProjectScripts(t *testing.T) {
	toml := `[project]
name = "weather"
scripts = "not this"

[project.scripts]
weather-mcp = "weather.server:main"
"quoted.name" = 'weather:other'  # a comment

[tool.uv]
dev = "not a script"
`
	if d := cmp.Diff([]string{"weather-mcp", "quoted.name"}, projectScripts([]byte(toml))); d != "" {
		t.Errorf("scripts (-want +got):\n%s", d)
	}
	repo := gittest.New(t)
	repo.Write("pyproject.toml", []byte("[project.scripts]\nweather-mcp = \"weather.server:main\"\n"))
	got, err := inferCommand(t.Context(), repo.Dir, ecosystem{name: "python"}, nil)
	if err != nil || cmp.Diff([]string{"uv", "run", "weather-mcp"}, got) != "" {
		t.Errorf("inferred %q, %v; want uv run weather-mcp", got, err)
	}
}

// The workflows of each ecosystem, for a server in a subdirectory, pass
// actionlint and give the action the command, build and directory.
func TestInitWorkflowPerEcosystem(t *testing.T) {
	for _, tc := range []struct {
		marker    string
		cmd       []string
		wantBuild string
		wantSetup string
	}{
		{"pyproject.toml", []string{"uv", "run", "weather-mcp"}, "uv sync", "astral-sh/setup-uv@"},
		{"go.mod", []string{"go", "run", "./cmd/server", "--name", "it's # not a comment: really"}, "go build ./...", "go-version-file: servers/one/go.mod"},
	} {
		t.Run(tc.marker, func(t *testing.T) {
			repo := gittest.New(t)
			repo.Write("servers/one/"+tc.marker, []byte("\n"))
			eco, _, err := detectEcosystem(t.Context(), filepath.Join(repo.Dir, "servers", "one"))
			if err != nil {
				t.Fatal(err)
			}
			wf := initWorkflowText(eco, tc.cmd, "servers/one", "snap/mcp-surface.json", "mcp-surface/mcp-surface@v1.2.3")
			repo.Write(initWorkflow, []byte(wf))
			_, with := workflowWith(t, wf)
			want := map[string]string{"build": tc.wantBuild, "command": strings.Join(quoteAll(tc.cmd), " "), "snapshot": "snap/mcp-surface.json", "working-directory": "servers/one"}
			if d := cmp.Diff(want, with); d != "" {
				t.Errorf("the action's inputs (-want +got):\n%s", d)
			}
			if !strings.Contains(wf, tc.wantSetup) {
				t.Errorf("the workflow lacks %q:\n%s", tc.wantSetup, wf)
			}
			lintWorkflow(t, repo.Dir)
		})
	}
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, "' #:") {
			w = `'` + strings.ReplaceAll(w, `'`, `'\''`) + `'`
		}
		out[i] = w
	}
	return out
}

// With a .pre-commit-config.yaml, init adds the snapshot hook at the
// file's indentation, once.
func TestInitPreCommit(t *testing.T) {
	repo := gittest.New(t)
	repo.Write("package.json", []byte(`{"name": "x"}`))
	repo.Write(".pre-commit-config.yaml", []byte("repos:\n- repo: https://example.invalid/hooks\n  rev: v1\n  hooks:\n  - id: lint\n"))
	t.Chdir(repo.Dir)
	r := run(t, serverEnvFor(testserver.ModeToolsOnly), "init", "-o", "snap.json", "--", os.Args[0], "--flag")
	if r.code != frontend.ExitOK {
		t.Fatalf("init: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
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
	wantRev := actionRef()[strings.LastIndex(actionRef(), "@")+1:]
	if got.Repo != "https://github.com/mcp-surface/mcp-surface" || got.Rev != wantRev || len(got.Hooks) != 1 || got.Hooks[0].ID != "mcp-surface-snapshot-check" {
		t.Fatalf("the added entry: %+v\n%s", got, text)
	}
	if d := cmp.Diff([]string{"-o", "snap.json", "--", os.Args[0], "--flag"}, got.Hooks[0].Args); d != "" {
		t.Errorf("the hook's args (-want +got):\n%s", d)
	}
	if !strings.Contains(r.stdout, ".pre-commit-config.yaml") {
		t.Errorf("init does not say it changed .pre-commit-config.yaml:\n%s", r.stdout)
	}

	r = run(t, serverEnvFor(testserver.ModeToolsOnly), "init", "--force", "-o", "snap.json", "--", os.Args[0])
	if r.code != frontend.ExitOK {
		t.Fatalf("init --force: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	if n := strings.Count(readFile(t, filepath.Join(repo.Dir, ".pre-commit-config.yaml")), "mcp-surface/mcp-surface"); n != 1 {
		t.Errorf("the hook is in the configuration %d times, want 1", n)
	}
}

// A YAML scalar init writes reads back as the string it was given.
func TestYAMLString(t *testing.T) {
	for _, s := range []string{"node dist/index.js", "a: b", "# x", "it's", `say "hi"`, "tab\there", "line\nbreak", "", "-x", "x ", "yes", "~", "ünï"} {
		var got string
		if err := yaml.Unmarshal([]byte("k: "+yamlString(s)), &struct{ K *string }{&got}); err != nil {
			t.Errorf("%q as %s: %v", s, yamlString(s), err)
			continue
		}
		if got != s {
			t.Errorf("%q written as %s reads back as %q", s, yamlString(s), got)
		}
	}
}
