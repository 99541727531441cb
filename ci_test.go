package main

import (
	"bytes"
	"context"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/app/cli"
)

// The files other CIs read (.pre-commit-hooks.yaml, the GitLab job in
// docs/gitlab.md) run real commands: each is parsed, and its command line
// is held against the flags the command's --help lists, in process.

// helpFlag is a flag line of a command's usage: "  -name" or "  -name word".
var helpFlag = regexp.MustCompile(`(?m)^  -([a-z0-9-]+)( .+)?$`)

// commandFlags runs `mcp-surface SUBCOMMAND --help` and returns its flags,
// each with whether it takes a value.
func commandFlags(t *testing.T, sub string) map[string]bool {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{sub, "--help"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("mcp-surface %s --help: exit %d\n%s", sub, code, stderr.String())
	}
	flags := map[string]bool{}
	for _, m := range helpFlag.FindAllStringSubmatch(stdout.String()+stderr.String(), -1) {
		flags[m[1]] = m[2] != ""
	}
	if len(flags) == 0 {
		t.Fatalf("mcp-surface %s --help lists no flags:\n%s", sub, stderr.String())
	}
	return flags
}

// checkCommandLine holds args (after the binary's name) against the CLI:
// a known subcommand, then known flags, with a value where one is needed,
// until "--".
func checkCommandLine(t *testing.T, where string, args []string) {
	t.Helper()
	if len(args) == 0 {
		t.Errorf("%s: no subcommand", where)
		return
	}
	flags := commandFlags(t, args[0])
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i == len(args)-1 {
				t.Errorf("%s: nothing after --", where)
			}
			return
		}
		if !strings.HasPrefix(a, "-") {
			t.Errorf("%s: %q is not a flag of %s (the server command goes after --)", where, a, args[0])
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, ok := flags[name]
		switch {
		case !ok:
			t.Errorf("%s: mcp-surface %s has no flag -%s", where, args[0], name)
		case takes && !hasValue:
			if i+1 >= len(args) || args[i+1] == "--" {
				t.Errorf("%s: -%s needs a value", where, name)
			}
			i++
		case !takes && hasValue && value != "true" && value != "false":
			t.Errorf("%s: -%s takes no value", where, name)
		}
	}
}

// launchers are the ways the npm and Python packages run the binary: the
// words before its arguments.
var launchers = [][]string{{"npx", "--no-install", "mcp-surface"}, {"npx", "mcp-surface"}, {"python", "-m", "mcp_surface"}}

// cliArgs are the arguments of an mcp-surface command line (after the
// binary, or after a launcher of the npm or Python package), ok false when
// the line runs something else.
func cliArgs(t *testing.T, words []string) ([]string, bool) {
	t.Helper()
	if len(words) > 0 && words[0] == binaryName(t) {
		return words[1:], true
	}
	for _, l := range launchers {
		if len(words) >= len(l) && slices.Equal(words[:len(l)], l) {
			return words[len(l):], true
		}
	}
	return nil, false
}

// binaryName is what `go install` of the module calls the command.
func binaryName(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if mod, ok := strings.CutPrefix(line, "module "); ok {
			return path.Base(strings.TrimSpace(mod))
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

type preCommitHook struct {
	ID            string   `yaml:"id"`
	Name          string   `yaml:"name"`
	Description   string   `yaml:"description"`
	Entry         string   `yaml:"entry"`
	Language      string   `yaml:"language"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	RequireSerial bool     `yaml:"require_serial"`
	Args          []string `yaml:"args"`
	Files         string   `yaml:"files"`
}

func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		where := ".pre-commit-hooks.yaml " + h.ID
		ids[h.ID] = true
		if h.Name == "" || h.Description == "" {
			t.Errorf("%s: needs a name and a description", where)
		}
		if h.Language != "golang" && h.Language != "system" {
			t.Errorf("%s: language %q: golang builds this module, system uses the binary on PATH", where, h.Language)
		}
		// File names would land after the user's "--" and become
		// arguments of the server command.
		if h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("%s: needs pass_filenames: false", where)
		}
		args, ok := cliArgs(t, strings.Fields(h.Entry))
		if !ok || len(args) < 2 {
			t.Errorf("%s: entry %q must run %s (or the npm or Python package's launcher)", where, h.Entry, binaryName(t))
			continue
		}
		if !slices.Contains(args, "--check") {
			t.Errorf("%s: entry %q must only check the snapshot", where, h.Entry)
		}
		// The user's args follow the entry: a server command after "--".
		checkCommandLine(t, where, append(slices.Clone(args), "--", "node", "build/index.js"))
	}
	for _, id := range []string{"mcp-surface-snapshot-check", "mcp-surface-snapshot-check-npm", "mcp-surface-snapshot-check-python"} {
		if !ids[id] {
			t.Errorf(".pre-commit-hooks.yaml: no hook %s", id)
		}
	}

	// The configuration docs/pre-commit.md shows uses those hooks with
	// arguments the command accepts.
	doc, err := os.ReadFile("docs/pre-commit.md")
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for i, block := range yamlBlocks(string(doc)) {
		var cfg struct {
			Repos []struct {
				Repo  string          `yaml:"repo"`
				Rev   string          `yaml:"rev"`
				Hooks []preCommitHook `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if err := yaml.Unmarshal([]byte(block), &cfg); err != nil {
			t.Fatalf("docs/pre-commit.md yaml block %d: %v", i+1, err)
		}
		for _, repo := range cfg.Repos {
			for _, h := range repo.Hooks {
				used++
				if !ids[h.ID] {
					t.Errorf("docs/pre-commit.md: hook %q is not in .pre-commit-hooks.yaml", h.ID)
				}
				for _, def := range hooks {
					if def.ID == h.ID {
						if _, err := regexp.Compile(h.Files); err != nil {
							t.Errorf("docs/pre-commit.md: files: %v", err)
						}
						args, _ := cliArgs(t, strings.Fields(def.Entry))
						checkCommandLine(t, "docs/pre-commit.md "+h.ID, append(slices.Clone(args), h.Args...))
					}
				}
			}
		}
	}
	if used == 0 {
		t.Error("docs/pre-commit.md shows no .pre-commit-config.yaml")
	}
	docFlags(t, "docs/pre-commit.md", "snapshot")
}

// docFlags checks that every flag a page names in inline code ("`--cwd
// DIR`") is a flag of the command.
func docFlags(t *testing.T, page, sub string) {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	flags := commandFlags(t, sub)
	named := 0
	for _, m := range regexp.MustCompile("`--?([a-z][a-z0-9-]*)").FindAllStringSubmatch(string(data), -1) {
		named++
		if _, ok := flags[m[1]]; !ok {
			t.Errorf("%s names -%s, which mcp-surface %s does not have", page, m[1], sub)
		}
	}
	if named == 0 {
		t.Errorf("%s names no flag of %s", page, sub)
	}
}

var fencedYAML = regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")

func yamlBlocks(md string) []string {
	var out []string
	for _, m := range fencedYAML.FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}

type gitlabJob struct {
	Image        string            `yaml:"image"`
	Stage        string            `yaml:"stage"`
	Rules        []map[string]any  `yaml:"rules"`
	Variables    map[string]string `yaml:"variables"`
	BeforeScript []string          `yaml:"before_script"`
	Script       []string          `yaml:"script"`
	AllowFailure any               `yaml:"allow_failure"`
	Artifacts    struct {
		When    string `yaml:"when"`
		Reports struct {
			JUnit string `yaml:"junit"`
		} `yaml:"reports"`
		Paths []string `yaml:"paths"`
	} `yaml:"artifacts"`
}

func TestGitLabJob(t *testing.T) {
	data, err := os.ReadFile("docs/gitlab.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	jobs := 0
	for i, block := range yamlBlocks(doc) {
		var pipeline map[string]gitlabJob
		dec := yaml.NewDecoder(strings.NewReader(block))
		dec.KnownFields(true)
		if err := dec.Decode(&pipeline); err != nil {
			t.Fatalf("docs/gitlab.md yaml block %d: %v", i+1, err)
		}
		for name, job := range pipeline {
			where := "docs/gitlab.md job " + name
			junit := ""
			for _, line := range job.Script {
				words := strings.Fields(line)
				args, ok := cliArgs(t, words)
				if !ok {
					continue
				}
				jobs++
				checkCommandLine(t, where, args)
				for j, w := range words {
					if w == "--output" && j+1 < len(words) {
						if f, ok := strings.CutPrefix(words[j+1], "junit="); ok {
							junit = f
						}
					}
				}
			}
			if junit == "" {
				t.Errorf("%s: no mcp-surface command writes --output junit=FILE", where)
				continue
			}
			if job.Artifacts.Reports.JUnit != junit {
				t.Errorf("%s: artifacts.reports.junit is %q, the command writes %q", where, job.Artifacts.Reports.JUnit, junit)
			}
			if job.Artifacts.When != "always" {
				t.Errorf("%s: artifacts need when: always, or a failing job loses its report", where)
			}
		}
	}
	if jobs == 0 {
		t.Fatal("docs/gitlab.md has no job running mcp-surface")
	}
	// A job for each package: the npm project's and the Python one's.
	for _, launcher := range []string{"npx --no-install mcp-surface check", "python -m mcp_surface check"} {
		if !strings.Contains(doc, "- "+launcher+" ") {
			t.Errorf("docs/gitlab.md: no job runs %s", launcher)
		}
	}
	docFlags(t, "docs/gitlab.md", "check")
	for _, code := range []string{"| `0` |", "| `1` |", "| `2` |"} {
		if !strings.Contains(doc, code) {
			t.Errorf("docs/gitlab.md: the exit codes table has no row %s", code)
		}
	}
}
