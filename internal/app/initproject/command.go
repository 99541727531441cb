package initproject

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// uvInstall is the one line that says how to get uv.
const uvInstall = "install uv (https://docs.astral.sh/uv/getting-started/installation/)"

// Command is the server command: given (the words after --), adapted so
// that a runner can start it, or else the one the project declares
// (package.json's bin, pyproject.toml's [project.scripts] or a package's
// __main__.py); else an error asking for it.
func (p *Project) Command(given []string) ([]string, error) {
	if len(given) > 0 {
		if p.Eco.Name == "python" {
			return p.pythonCommand(given)
		}
		return given, nil
	}
	switch p.Eco.Name {
	case "node":
		return p.nodeCommand()
	case "python":
		return p.inferPython()
	}
	return nil, ask("a Go module declares no server command", "go run ./cmd/server")
}

func ask(why, example string) error {
	return fmt.Errorf("%s: give the server command after --, e.g. mcp-surface init -- %s", why, example)
}

func (p *Project) nodeCommand() ([]string, error) {
	var pkg struct {
		Bin json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(p.pkgJSON, &pkg); err != nil {
		return nil, fmt.Errorf("init: package.json: %w", err)
	}
	var one string
	var many map[string]string
	switch {
	case len(pkg.Bin) == 0:
		return nil, ask("package.json has no bin", "node dist/index.js")
	case json.Unmarshal(pkg.Bin, &one) == nil && one != "":
		return p.nodeBin(one)
	case json.Unmarshal(pkg.Bin, &many) == nil && len(many) == 1:
		for _, v := range many {
			return p.nodeBin(v)
		}
	case len(many) > 1:
		names := make([]string, 0, len(many))
		for k := range many {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil, ask("package.json's bin names several commands ("+frontend.LogText(strings.Join(names, ", "))+")", "node "+cmdline.Word(many[names[0]]))
	}
	return nil, ask("package.json's bin is neither a path nor a map of one command", "node dist/index.js")
}

// nodeBin is the command that runs package.json's bin file, which must
// exist: a server built from TypeScript is captured once it is built.
func (p *Project) nodeBin(bin string) ([]string, error) {
	if !p.exists(bin) {
		return nil, fmt.Errorf("package.json's bin %s does not exist yet: build the server first (npm run build), then rerun init", frontend.LogText(bin))
	}
	return []string{"node", bin}, nil
}

// inferPython is the command of the one [project.scripts] entry, or the
// package with a __main__.py.
func (p *Project) inferPython() ([]string, error) {
	names := projectScripts(p.pyproj)
	example := "uv run my-server"
	if !p.uv {
		example = ".venv/bin/my-server"
	}
	switch len(names) {
	case 1:
		return p.pythonScript(names[0], nil)
	case 0:
		if pkg := p.mainPackage(); pkg != "" {
			if p.uv {
				return p.needUV([]string{"uv", "run", "python", "-m", pkg})
			}
			return p.needVenv([]string{".venv/bin/python", "-m", pkg}, "python")
		}
		return nil, ask("pyproject.toml has no [project.scripts]", example)
	}
	if !p.uv {
		example = ".venv/bin/" + cmdline.Word(names[0])
	} else {
		example = "uv run " + cmdline.Word(names[0])
	}
	return nil, ask("pyproject.toml's [project.scripts] names several commands ("+frontend.LogText(strings.Join(names, ", "))+")", example)
}

// pythonCommand adapts a given command: a bare name that is a script of
// the project is on no runner's PATH, so it runs with uv run or from the
// virtual environment; another bare name must be on PATH.
func (p *Project) pythonCommand(cmd []string) ([]string, error) {
	name := cmd[0]
	if strings.ContainsAny(name, `/\`) {
		return cmd, nil
	}
	if slices.Contains(projectScripts(p.pyproj), name) || p.exists(".venv/bin/"+name) {
		return p.pythonScript(name, cmd[1:])
	}
	if _, err := p.lookPath(name); err != nil {
		if name == "uv" || name == "uvx" {
			return nil, fmt.Errorf("%s is not on PATH: %s, or give another command after --", name, uvInstall)
		}
		return nil, fmt.Errorf("%s is not on PATH, and a runner would not find it either: give its path (e.g. .venv/bin/%s) or a command on PATH after --", frontend.LogText(name), frontend.LogText(name))
	}
	return cmd, nil
}

// pythonScript runs the project's script name with args.
func (p *Project) pythonScript(name string, args []string) ([]string, error) {
	if p.uv {
		return p.needUV(append([]string{"uv", "run", name}, args...))
	}
	return p.needVenv(append([]string{".venv/bin/" + name}, args...), name)
}

// needUV is cmd once uv is there.
func (p *Project) needUV(cmd []string) ([]string, error) {
	if _, err := p.lookPath("uv"); err != nil {
		return nil, fmt.Errorf("this project uses uv (uv.lock or [tool.uv]), and uv is not on PATH: %s, then rerun init", uvInstall)
	}
	return cmd, nil
}

// needVenv is cmd once .venv/bin/name is there.
func (p *Project) needVenv(cmd []string, name string) ([]string, error) {
	if !p.exists(".venv/bin/" + name) {
		return nil, fmt.Errorf(".venv/bin/%s does not exist: install the project in a virtual environment (python3 -m venv .venv && .venv/bin/pip install -e .), then rerun init", frontend.LogText(name))
	}
	return cmd, nil
}

// mainPackage is the package of p.Dir (or of its src/) that has a
// __main__.py, the first by name; "" for none.
func (p *Project) mainPackage() string {
	for _, base := range []string{"", "src"} {
		entries, err := os.ReadDir(filepath.Join(p.Dir, base))
		if err != nil {
			continue
		}
		for i, e := range entries {
			if i >= 1000 {
				break
			}
			if e.IsDir() && pythonName().MatchString(e.Name()) && p.exists(filepath.ToSlash(filepath.Join(base, e.Name(), "__main__.py"))) {
				return e.Name()
			}
		}
	}
	return ""
}

var pythonName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// scriptLine is one `name = "module:function"` of a TOML table.
var scriptLine = lazyre.New(`^\s*("([^"\\]+)"|'([^']+)'|([A-Za-z0-9_.-]+))\s*=\s*["']`)

// projectScripts are the names of pyproject.toml's [project.scripts]
// table (the table form; an inline table is not read).
func projectScripts(toml []byte) []string {
	var names []string
	in := false
	for _, line := range strings.Split(string(toml), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = strings.ReplaceAll(strings.SplitN(t, "#", 2)[0], " ", "") == "[project.scripts]"
			continue
		}
		if !in {
			continue
		}
		if m := scriptLine().FindStringSubmatch(line); m != nil {
			names = append(names, m[2]+m[3]+m[4])
		}
	}
	return names
}
