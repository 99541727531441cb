package initproject

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/workflowtest"
)

// actionlint is the path of actionlint (on PATH, or in GOBIN or
// GOPATH/bin, where .ci/run installs it); without it the test skips,
// unless the end-to-end tests are required.
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
	cmd := exec.Command(actionlint(t), "-shellcheck=", "-pyflakes=", filepath.FromSlash(Workflow))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint on the workflow init wrote: %v\n%s", err, out)
	}
}

// workflow is what the tests read of a workflow init writes, beyond the
// action's step (workflowtest.Step).
type workflow struct {
	On struct {
		PullRequest struct {
			Types []string `yaml:"types"`
		} `yaml:"pull_request"`
	} `yaml:"on"`
}

// project is a repository with files (a nil content: a directory) whose
// server is in dir, opened with the tools on PATH.
func project(t *testing.T, dir string, files map[string]string, onPath ...string) *Project {
	t.Helper()
	repo := gittest.New(t)
	for name, data := range files {
		repo.Write(name, []byte(data))
	}
	p, err := Open(t.Context(), filepath.Join(repo.Dir, filepath.FromSlash(dir)), func(name string) (string, error) {
		if slices.Contains(onPath, name) {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The workflows of each ecosystem, for a server in a subdirectory, pass
// actionlint, run again when a label is added or taken off (the accept
// label), and give the action the command, build and directory.
func TestWorkflowPerEcosystem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		files     map[string]string
		cmd       []string
		wantBuild string
		wantSetup string
	}{
		{"node", map[string]string{"package.json": `{"scripts": {"build": "tsc"}}`}, []string{"node", "dist/index.js"}, "npm ci && npm run build", "actions/setup-node@"},
		{"python with uv", map[string]string{"pyproject.toml": "\n", "uv.lock": "\n"}, []string{"uv", "run", "weather-mcp"}, "uv sync", "astral-sh/setup-uv@"},
		{"python with [tool.uv]", map[string]string{"pyproject.toml": "[tool.uv]\ndev-dependencies = []\n"}, []string{"uv", "run", "weather-mcp"}, "uv sync", "astral-sh/setup-uv@"},
		{"python with a venv", map[string]string{"pyproject.toml": "\n"}, []string{".venv/bin/weather-mcp"}, "python -m venv .venv && .venv/bin/pip install .", "actions/setup-python@"},
		{"go", map[string]string{"go.mod": "\n"}, []string{"go", "run", "./cmd/server", "--name", "it's # not a comment: really"}, "go build ./...", "go-version-file: servers/one/go.mod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for name, data := range tc.files {
				files["servers/one/"+name] = data
			}
			p := project(t, "servers/one", files)
			wf := p.WorkflowText(tc.cmd, "snap/mcp-surface.json", "mcp-surface/mcp-surface@v1.2.3")
			var w workflow
			if err := yaml.Unmarshal([]byte(wf), &w); err != nil {
				t.Fatalf("the workflow is not YAML: %v\n%s", err, wf)
			}
			want := map[string]string{"build": tc.wantBuild, "command": strings.Join(quoteAll(tc.cmd), " "), "snapshot": "snap/mcp-surface.json", "working-directory": "servers/one"}
			_, with := workflowtest.Step(t, wf, "surface", actionRepo)
			if d := cmp.Diff(want, with); d != "" {
				t.Errorf("the action's inputs (-want +got):\n%s", d)
			}
			if !strings.Contains(wf, tc.wantSetup) {
				t.Errorf("the workflow lacks %q:\n%s", tc.wantSetup, wf)
			}
			for _, typ := range []string{"opened", "synchronize", "reopened", "labeled", "unlabeled"} {
				if !slices.Contains(w.On.PullRequest.Types, typ) {
					t.Errorf("the workflow does not run on pull_request %s: %v", typ, w.On.PullRequest.Types)
				}
			}
			if err := os.MkdirAll(filepath.Join(p.Repo, ".github", "workflows"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p.Repo, filepath.FromSlash(Workflow)), []byte(wf), 0o644); err != nil {
				t.Fatal(err)
			}
			lintWorkflow(t, p.Repo)
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
}

// The command init runs and writes: what the project declares, or the
// given one made runnable on a runner; a missing tool is one line saying
// what to install.
func TestCommand(t *testing.T) {
	const scripts = "[project.scripts]\nweather-mcp = \"weather.server:main\"\n"
	for _, tc := range []struct {
		name   string
		files  map[string]string
		onPath []string
		given  []string
		want   []string
		err    string
	}{
		{name: "node bin", files: map[string]string{"package.json": `{"bin": "server.js"}`, "server.js": ""}, want: []string{"node", "server.js"}},
		{name: "node, given", files: map[string]string{"package.json": `{}`}, given: []string{"my-server"}, want: []string{"my-server"}},
		{name: "uv project", files: map[string]string{"pyproject.toml": scripts, "uv.lock": ""}, onPath: []string{"uv"}, want: []string{"uv", "run", "weather-mcp"}},
		{name: "uv project without uv", files: map[string]string{"pyproject.toml": scripts, "uv.lock": ""},
			err: "this project uses uv (uv.lock or [tool.uv]), and uv is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), then rerun init"},
		{name: "venv script", files: map[string]string{"pyproject.toml": scripts, ".venv/bin/weather-mcp": ""}, want: []string{".venv/bin/weather-mcp"}},
		{name: "no venv", files: map[string]string{"pyproject.toml": scripts}, onPath: []string{"uv"},
			err: ".venv/bin/weather-mcp does not exist: install the project in a virtual environment (python3 -m venv .venv && .venv/bin/pip install -e .), then rerun init"},
		{name: "python -m in the venv", files: map[string]string{"pyproject.toml": "[project]\nname = \"w\"\n", "src/weather/__main__.py": "", ".venv/bin/python": ""}, want: []string{".venv/bin/python", "-m", "weather"}},
		{name: "python -m with uv", files: map[string]string{"pyproject.toml": "[tool.uv]\n", "weather/__main__.py": ""}, onPath: []string{"uv"}, want: []string{"uv", "run", "python", "-m", "weather"}},
		{name: "no scripts, no __main__", files: map[string]string{"pyproject.toml": "[project]\nname = \"w\"\n"},
			err: "pyproject.toml has no [project.scripts]: give the server command after --, e.g. mcp-surface init -- .venv/bin/my-server"},
		{name: "given bare script, uv", files: map[string]string{"pyproject.toml": scripts, "uv.lock": ""}, onPath: []string{"uv", "weather-mcp"},
			given: []string{"weather-mcp", "--stdio"}, want: []string{"uv", "run", "weather-mcp", "--stdio"}},
		{name: "given bare script, venv", files: map[string]string{"pyproject.toml": scripts, ".venv/bin/weather-mcp": ""},
			given: []string{"weather-mcp"}, want: []string{".venv/bin/weather-mcp"}},
		{name: "given bare name not on PATH", files: map[string]string{"pyproject.toml": "\n"}, given: []string{"other-server"},
			err: "other-server is not on PATH, and a runner would not find it either: give its path (e.g. .venv/bin/other-server) or a command on PATH after --"},
		{name: "given uv run without uv", files: map[string]string{"pyproject.toml": "\n"}, given: []string{"uv", "run", "x"},
			err: "uv is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), or give another command after --"},
		{name: "given on PATH", files: map[string]string{"pyproject.toml": "\n"}, onPath: []string{"python3"}, given: []string{"python3", "-m", "w"}, want: []string{"python3", "-m", "w"}},
		{name: "given path", files: map[string]string{"pyproject.toml": "\n"}, given: []string{"./run.sh"}, want: []string{"./run.sh"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := project(t, ".", tc.files, tc.onPath...)
			got, err := p.Command(tc.given)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Command = %q, %v; want the error %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("command (-want +got):\n%s", d)
			}
		})
	}
}

// A development build is no release: the workflow uses main and the
// caller says so; --action-ref names the reference.
func TestActionRef(t *testing.T) {
	for _, tc := range []struct {
		version, ref, want string
		release            bool
		err                string
	}{
		{version: "v1.2.3", want: "mcp-surface/mcp-surface@v1.2.3", release: true},
		{version: "v1.3.0-rc.1", want: "mcp-surface/mcp-surface@v1.3.0-rc.1", release: true},
		{version: "v0.0.0-dev.gabc1234", want: "mcp-surface/mcp-surface@main"},
		{version: "v0.0.0-20261207040215-36838de0abcd", want: "mcp-surface/mcp-surface@main"},
		{version: "(devel)", want: "mcp-surface/mcp-surface@main"},
		{version: "(devel)", ref: "v1.4.0", want: "mcp-surface/mcp-surface@v1.4.0", release: true},
		{version: "(devel)", ref: "main; rm", err: `--action-ref "main; rm": give a tag, branch or commit of mcp-surface/mcp-surface (e.g. v1.2.3)`},
	} {
		uses, release, err := ActionRef(tc.version, tc.ref)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ActionRef(%q, %q): %v, want %q", tc.version, tc.ref, err, tc.err)
			}
			continue
		}
		if err != nil || uses != tc.want || release != tc.release {
			t.Errorf("ActionRef(%q, %q) = %q, %v, %v; want %q, %v", tc.version, tc.ref, uses, release, err, tc.want, tc.release)
		}
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
