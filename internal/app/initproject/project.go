package initproject

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonedit"
)

// Workflow is where init writes the workflow, from the repository's top.
const Workflow = ".github/workflows/mcp-surface.yml"

// Script is the package.json script init adds.
const Script = "mcp-surface:snapshot"

// maxInput bounds the project files init reads.
const maxInput = 4 << 20

// Ecosystem is what the project is built with, as its files say.
type Ecosystem struct {
	Name   string // node, python, go
	Marker string // the file that says so
	build  string // the workflow's build: step
	setup  string // the workflow steps that install the toolchain; {dir} is the server's directory with a slash, or ""
}

// Project is the repository init sets up and the server's directory in
// it.
type Project struct {
	Repo string // the repository's top
	Dir  string // the server's directory
	Rel  string // Dir from Repo, slash-separated; "." at the top
	Eco  Ecosystem

	pkg      *jsonedit.Doc // package.json (node)
	pkgJSON  []byte
	pyproj   []byte // pyproject.toml (python)
	uv       bool   // the Python project uses uv
	lookPath func(string) (string, error)
}

// Open finds the repository around dir and the project in dir. lookPath
// finds the tools the project needs (exec.LookPath when nil).
func Open(ctx context.Context, dir string, lookPath func(string) (string, error)) (*Project, error) {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	repo, dir, rel, err := gitrepo.Within(ctx, dir)
	if err != nil {
		return nil, err
	}
	p := &Project{Repo: repo, Dir: dir, Rel: rel, lookPath: lookPath}
	if err := p.detect(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// detect looks for package.json, pyproject.toml and go.mod in p.Dir, in
// that order.
func (p *Project) detect(ctx context.Context) error {
	b, err := infile.Read(ctx, filepath.Join(p.Dir, "package.json"), "package.json", maxInput)
	if err == nil {
		p.pkgJSON = b
		build := "npm ci"
		if doc, err := jsonedit.Parse(b); err == nil {
			p.pkg = doc
			if _, ok := doc.Get("scripts", "build"); ok {
				build = "npm ci && npm run build"
			}
		}
		p.Eco = Ecosystem{"node", "package.json", build, "      - uses: actions/setup-node@v4\n        with:\n          node-version: lts/*\n"}
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("init: %w", err)
	}
	b, err = infile.Read(ctx, filepath.Join(p.Dir, "pyproject.toml"), "pyproject.toml", maxInput)
	if err == nil {
		p.pyproj = b
		p.uv = usesUV(b) || p.exists("uv.lock") || fileExists(filepath.Join(p.Repo, "uv.lock"))
		if p.uv {
			p.Eco = Ecosystem{"python", "pyproject.toml", "uv sync", "      - uses: astral-sh/setup-uv@v6\n"}
		} else {
			p.Eco = Ecosystem{"python", "pyproject.toml", "python -m venv .venv && .venv/bin/pip install .",
				"      - uses: actions/setup-python@v5\n        with:\n          python-version: \"3.x\"\n"}
		}
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("init: %w", err)
	}
	if p.exists("go.mod") {
		// setup-go names go.mod from the repository's top.
		p.Eco = Ecosystem{"go", "go.mod", "go build ./...", "      - uses: actions/setup-go@v5\n        with:\n          go-version-file: {dir}go.mod\n"}
		return nil
	}
	return errors.New("no package.json, pyproject.toml or go.mod here: run init in the server's project directory")
}

// usesUV reports whether pyproject.toml has a [tool.uv] table (or one of
// its subtables).
func usesUV(toml []byte) bool {
	for _, line := range strings.Split(string(toml), "\n") {
		t := strings.ReplaceAll(strings.SplitN(strings.TrimSpace(line), "#", 2)[0], " ", "")
		if t == "[tool.uv]" || strings.HasPrefix(t, "[tool.uv.") {
			return true
		}
	}
	return false
}

// exists reports whether the file name (slash-separated) is in p.Dir.
func (p *Project) exists(name string) bool {
	return fileExists(filepath.Join(p.Dir, filepath.FromSlash(name)))
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Conflicts names what init would overwrite: the snapshot (file, shown as
// shown), the workflow and the package.json script.
func (p *Project) Conflicts(file, shown string) ([]string, error) {
	var out []string
	for _, c := range []struct{ file, shown string }{{file, shown}, {filepath.Join(p.Repo, filepath.FromSlash(Workflow)), Workflow}} {
		if _, err := os.Lstat(c.file); err == nil {
			out = append(out, c.shown)
		}
	}
	if p.Eco.Name == "node" {
		if p.pkg == nil {
			_, err := jsonedit.Parse(p.pkgJSON)
			return nil, fmt.Errorf("init: package.json: %w", err)
		}
		scripts, ok := p.pkg.Get("scripts")
		if ok && (len(scripts) == 0 || scripts[0] != '{') {
			return nil, errors.New("init: package.json: scripts: not a JSON object")
		}
		if _, ok := p.pkg.Get("scripts", Script); ok {
			out = append(out, "package.json's script "+Script)
		}
	}
	return out, nil
}
