package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/version"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
)

// init sets a repository up: the first snapshot, the workflow that checks
// every pull request against it, and the ecosystem's way to refresh it.

// ecosystem is what the repository is built with, as its files say.
type ecosystem struct {
	name   string // node, python, go
	marker string // the file that says so
	build  string // the workflow's build: step
	setup  string // the workflow steps that install the toolchain; {dir} is the server's directory with a slash, or ""
}

// initWorkflow is where init writes the workflow, from the repository's top.
const initWorkflow = ".github/workflows/mcp-surface.yml"

// initScript is the package.json script init adds.
const initScript = "mcp-surface:snapshot"

// maxInitInput bounds the project files init reads.
const maxInitInput = 4 << 20

func runInit(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("init", "[--force] [-o mcp-surface.json] [-- CMD ARGS...]", env.Stderr)
	force := fs.Bool("force", false, "overwrite what init writes (the snapshot, the workflow, the package.json script)")
	out := fs.String("o", "mcp-surface.json", "the snapshot `file`, from the current directory")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("init: the current directory: %w", err)
	}
	repo, dir, rel, err := gitrepo.Within(ctx, dir)
	if err != nil {
		return 0, err
	}
	eco, pkgJSON, err := detectEcosystem(ctx, dir)
	if err != nil {
		return 0, err
	}
	if len(cmd) == 0 {
		if cmd, err = inferCommand(ctx, dir, eco, pkgJSON); err != nil {
			return 0, err
		}
	}
	if strings.Contains(strings.Join(cmd, " "), "${{") {
		return 0, usagef("the server command contains ${{, which a workflow would read as an expression: start the server from a script instead")
	}
	if filepath.IsAbs(*out) || strings.HasPrefix(filepath.ToSlash(filepath.Clean(*out)), "../") {
		return 0, usagef("-o %s: name the snapshot inside the repository, relative to the current directory", *out)
	}
	snapshot := filepath.ToSlash(filepath.Clean(*out))
	pin := actionRef()

	// What would be written, checked before the server starts.
	workflowPath := filepath.Join(repo, filepath.FromSlash(initWorkflow))
	var conflicts []string
	for _, p := range []struct{ file, shown string }{{filepath.Join(dir, *out), snapshot}, {workflowPath, initWorkflow}} {
		if _, err := os.Lstat(p.file); err == nil {
			conflicts = append(conflicts, p.shown)
		}
	}
	var scripts *orderedObject
	var pkg *orderedObject
	if eco.name == "node" {
		if pkg, err = parseOrdered(pkgJSON); err != nil {
			return 0, fmt.Errorf("init: package.json: %w", err)
		}
		scripts, err = pkg.object("scripts")
		if err != nil {
			return 0, fmt.Errorf("init: package.json: scripts: %w", err)
		}
		if scripts.has(initScript) {
			conflicts = append(conflicts, "package.json's script "+initScript)
		}
	}
	if len(conflicts) > 0 && !*force {
		return 0, usagef("already there: %s; init never overwrites: rerun with --force to replace", strings.Join(conflicts, ", "))
	}
	if err := checkOutput("-o", filepath.Join(dir, *out)); err != nil {
		return 0, err
	}

	fmt.Fprintf(env.Stdout, "%s project (%s); server: %s\n", eco.name, eco.marker, frontend.LogText(cmdline.Join(cmd)))
	code, err := runSnapshot(ctx, env, append([]string{"-o", *out, "--"}, cmd...))
	if err != nil {
		return 0, err
	}
	if code != frontend.ExitOK {
		return code, nil
	}
	var wrote []string
	wrote = append(wrote, filepath.Join(rel, snapshot))

	wf := initWorkflowText(eco, cmd, rel, snapshot, pin)
	if err := os.MkdirAll(filepath.Dir(workflowPath), 0o755); err != nil {
		return 0, fmt.Errorf("init: %w", err)
	}
	if err := outfile.Write(ctx, workflowPath, []byte(wf)); err != nil {
		return 0, fmt.Errorf("init: writing the workflow: %w", err)
	}
	wrote = append(wrote, initWorkflow)

	refresh := "mcp-surface snapshot -o " + cmdline.Word(snapshot) + " -- " + cmdline.Join(cmd)
	if eco.name == "node" {
		scripts.set(initScript, refresh)
		pkg.setRaw("scripts", scripts.marshal(pkg.indent, 1))
		if err := outfile.Write(ctx, filepath.Join(dir, "package.json"), pkg.marshalFile()); err != nil {
			return 0, fmt.Errorf("init: writing package.json: %w", err)
		}
		wrote = append(wrote, path.Join(rel, "package.json")+" (script "+initScript+")")
	}

	pc, err := addPreCommit(ctx, repo, rel, snapshot, cmd, pin)
	if err != nil {
		return 0, err
	}
	if pc != "" {
		wrote = append(wrote, pc)
	}

	fmt.Fprintln(env.Stdout, "wrote:")
	for _, w := range wrote {
		fmt.Fprintf(env.Stdout, "  %s\n", frontend.LogText(path.Clean(filepath.ToSlash(w))))
	}
	fmt.Fprintln(env.Stdout, "next: review and commit them; every pull request is then checked against the snapshot.")
	if eco.name == "node" {
		fmt.Fprintf(env.Stdout, "refresh the snapshot with `npm run %s` (it needs `npm install --save-dev mcp-surface`).\n", initScript)
	} else {
		fmt.Fprintf(env.Stdout, "refresh the snapshot with: %s\n", frontend.LogText(refresh))
	}
	if strings.HasSuffix(pin, "@main") {
		fmt.Fprintf(env.Stderr, "mcp-surface init: this build is not a release, so the workflow uses %s: pin it to a release tag (mcp-surface --version of a release prints it)\n", pin)
	}
	return frontend.ExitOK, nil
}

// releaseVersion matches the version of a release build.
var releaseVersion = lazyre.New(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$`)

// actionRef is the action at this binary's release, or at main for a
// build that is none.
func actionRef() string {
	v := version.Get().Version
	if releaseVersion().MatchString(v) {
		return "mcp-surface/mcp-surface@" + v
	}
	return "mcp-surface/mcp-surface@main"
}

// detectEcosystem looks for package.json, pyproject.toml and go.mod in
// dir, in that order; package.json's contents are returned for later.
func detectEcosystem(ctx context.Context, dir string) (ecosystem, []byte, error) {
	if b, err := infile.Read(ctx, filepath.Join(dir, "package.json"), "package.json", maxInitInput); err == nil {
		build := "npm ci"
		if obj, err := parseOrdered(b); err == nil {
			if s, err := obj.object("scripts"); err == nil && s.has("build") {
				build = "npm ci && npm run build"
			}
		}
		return ecosystem{"node", "package.json", build, "      - uses: actions/setup-node@v4\n        with:\n          node-version: lts/*\n"}, b, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return ecosystem{}, nil, fmt.Errorf("init: %w", err)
	}
	for _, e := range []ecosystem{
		{"python", "pyproject.toml", "uv sync", "      - uses: astral-sh/setup-uv@v6\n"},
		// setup-go names go.mod from the repository's top.
		{"go", "go.mod", "go build ./...", "      - uses: actions/setup-go@v5\n        with:\n          go-version-file: {dir}go.mod\n"},
	} {
		if _, err := os.Stat(filepath.Join(dir, e.marker)); err == nil {
			return e, nil, nil
		}
	}
	return ecosystem{}, nil, usagef("no package.json, pyproject.toml or go.mod here: run init in the server's project directory")
}

// inferCommand is the server command the project declares: package.json's
// bin, or pyproject.toml's [project.scripts]; else an error asking for it.
func inferCommand(ctx context.Context, dir string, eco ecosystem, pkgJSON []byte) ([]string, error) {
	ask := func(why, example string) error {
		return usagef("%s: give the server command after --, e.g. mcp-surface init -- %s", why, example)
	}
	switch eco.name {
	case "node":
		var p struct {
			Bin json.RawMessage `json:"bin"`
		}
		if err := json.Unmarshal(pkgJSON, &p); err != nil {
			return nil, fmt.Errorf("init: package.json: %w", err)
		}
		var one string
		var many map[string]string
		switch {
		case len(p.Bin) == 0:
			return nil, ask("package.json has no bin", "node dist/index.js")
		case json.Unmarshal(p.Bin, &one) == nil && one != "":
			return nodeBin(dir, one)
		case json.Unmarshal(p.Bin, &many) == nil && len(many) == 1:
			for _, v := range many {
				return nodeBin(dir, v)
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
	case "python":
		b, err := infile.Read(ctx, filepath.Join(dir, "pyproject.toml"), "pyproject.toml", maxInitInput)
		if err != nil {
			return nil, fmt.Errorf("init: %w", err)
		}
		names := projectScripts(b)
		switch len(names) {
		case 0:
			return nil, ask("pyproject.toml has no [project.scripts]", "uv run my-server")
		case 1:
			return []string{"uv", "run", names[0]}, nil
		default:
			return nil, ask("pyproject.toml's [project.scripts] names several commands ("+frontend.LogText(strings.Join(names, ", "))+")", "uv run "+cmdline.Word(names[0]))
		}
	}
	return nil, ask("a Go module declares no server command", "go run ./cmd/server")
}

// nodeBin is the command that runs package.json's bin file, which must
// exist: a server built from TypeScript is captured once it is built.
func nodeBin(dir, bin string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(bin))); err != nil {
		return nil, usagef("package.json's bin %s does not exist yet: build the server first (npm run build), then rerun init", frontend.LogText(bin))
	}
	return []string{"node", bin}, nil
}

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

// yamlPlain matches the values the workflow writes without quotes.
var yamlPlain = lazyre.New(`^[A-Za-z0-9_./][A-Za-z0-9_./ =@%+,-]*$`)

// yamlString is s as a YAML scalar: plain when that reads the same, else
// double-quoted (a JSON string is one).
func yamlString(s string) string {
	if yamlPlain().MatchString(s) && !strings.HasSuffix(s, " ") {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// initWorkflowText is the workflow: on every pull request, the action
// builds the server, captures it and compares it with the snapshot.
func initWorkflowText(eco ecosystem, cmd []string, rel, snapshot, pin string) string {
	var b strings.Builder
	b.WriteString(`# mcp-surface: on every pull request, build the MCP server, capture what it
# advertises, validate it against the MCP schema and compare it with the
# committed snapshot; the verdict is a comment on the pull request.
# Written by mcp-surface init.
name: mcp-surface
on:
  pull_request:
permissions:
  contents: read
  pull-requests: write # the comment
`)
	serverDir := ""
	if rel != "." {
		serverDir = rel + "/"
	}
	b.WriteString(`jobs:
  surface:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # the base of the pull request, for the comparison
`)
	b.WriteString(strings.ReplaceAll(eco.setup, "{dir}", serverDir))
	fmt.Fprintf(&b, "      - uses: %s\n        with:\n", pin)
	if rel != "." {
		fmt.Fprintf(&b, "          working-directory: %s\n", yamlString(rel))
	}
	fmt.Fprintf(&b, "          build: %s\n", yamlString(eco.build))
	fmt.Fprintf(&b, "          command: %s\n", yamlString(cmdline.Join(cmd)))
	fmt.Fprintf(&b, "          snapshot: %s\n", yamlString(snapshot))
	return b.String()
}

// addPreCommit appends the snapshot hook to .pre-commit-config.yaml when
// the repository has one and it names no mcp-surface hook yet; it returns
// what it wrote ("" for nothing).
func addPreCommit(ctx context.Context, repo, rel, snapshot string, cmd []string, pin string) (string, error) {
	p := filepath.Join(repo, ".pre-commit-config.yaml")
	b, err := infile.Read(ctx, p, ".pre-commit-config.yaml", maxInitInput)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("init: %w", err)
	}
	if bytes.Contains(b, []byte("mcp-surface/mcp-surface")) {
		return "", nil
	}
	text := string(b)
	indent := "  "
	if m := preCommitRepo().FindStringSubmatch(text); m != nil {
		indent = m[1]
	} else if !preCommitRepos().MatchString(text) {
		return "", fmt.Errorf("init: .pre-commit-config.yaml has no repos: list to add the mcp-surface hook to; add it as docs/pre-commit.md shows")
	}
	// The hook runs from the repository's top.
	args := []string{"-o", path.Join(rel, snapshot)}
	if rel != "." {
		args = append(args, "--cwd", rel)
	}
	args = append(append(args, "--"), cmd...)
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = yamlString(a)
	}
	rev := pin[strings.LastIndex(pin, "@")+1:]
	if !strings.HasSuffix(text, "\n") && text != "" {
		text += "\n"
	}
	text += fmt.Sprintf("%[1]s- repo: https://github.com/mcp-surface/mcp-surface\n%[1]s  rev: %[2]s\n%[1]s  hooks:\n%[1]s    - id: mcp-surface-snapshot-check\n%[1]s      args: [%[3]s]\n",
		indent, rev, strings.Join(quoted, ", "))
	if err := outfile.Write(ctx, p, []byte(text)); err != nil {
		return "", fmt.Errorf("init: writing .pre-commit-config.yaml: %w", err)
	}
	return ".pre-commit-config.yaml (hook mcp-surface-snapshot-check)", nil
}

var (
	preCommitRepo  = lazyre.New(`(?m)^( *)- repo:`)
	preCommitRepos = lazyre.New(`(?m)^repos:\s*$`)
	firstIndent    = lazyre.New(`\n([ \t]+)\S`)
)

// orderedObject is a JSON object whose members keep their order, so that
// init edits package.json without reordering it.
type orderedObject struct {
	keys   []string
	values map[string]json.RawMessage
	indent string // the file's indentation unit
}

func parseOrdered(b []byte) (*orderedObject, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &orderedObject{values: map[string]json.RawMessage{}, indent: detectIndent(b)}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := o.values[k]; !dup {
			o.keys = append(o.keys, k)
		}
		o.values[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level object")
	}
	return o, nil
}

// detectIndent is the indentation of the first indented line, else two
// spaces (npm's).
func detectIndent(b []byte) string {
	if m := firstIndent().FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return "  "
}

func (o *orderedObject) has(k string) bool { _, ok := o.values[k]; return ok }

// object is the member k as an ordered object (empty when absent).
func (o *orderedObject) object(k string) (*orderedObject, error) {
	v, ok := o.values[k]
	if !ok {
		return &orderedObject{values: map[string]json.RawMessage{}, indent: o.indent}, nil
	}
	sub, err := parseOrdered(v)
	if err != nil {
		return nil, err
	}
	sub.indent = o.indent
	return sub, nil
}

func (o *orderedObject) set(k, v string) {
	b, _ := json.Marshal(v)
	o.setRaw(k, b)
}

func (o *orderedObject) setRaw(k string, v json.RawMessage) {
	if !o.has(k) {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

// marshal writes the object indented as at depth.
func (o *orderedObject) marshal(indent string, depth int) json.RawMessage {
	if len(o.keys) == 0 {
		return json.RawMessage("{}")
	}
	pre := strings.Repeat(indent, depth)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range o.keys {
		kb, _ := json.Marshal(k)
		var v bytes.Buffer
		if err := json.Indent(&v, o.values[k], pre+indent, indent); err != nil {
			v.Reset()
			v.Write(o.values[k])
		}
		fmt.Fprintf(&b, "%s%s%s: %s", pre, indent, kb, v.Bytes())
		if i < len(o.keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(pre + "}")
	return b.Bytes()
}

func (o *orderedObject) marshalFile() []byte {
	return append(o.marshal(o.indent, 0), '\n')
}
