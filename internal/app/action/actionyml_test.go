package action

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
)

// ---- action.yml and its documentation ----

var updateActionDocs = flag.Bool("update-action-docs", false, "rewrite the generated tables of docs/action.md from action.yml")

type actionYAMLInput struct {
	Description string  `yaml:"description"`
	Default     *string `yaml:"default"`
	Required    bool    `yaml:"required"`
}

type actionYAMLStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
}

type actionManifest struct {
	Name        string                     `yaml:"name"`
	Description string                     `yaml:"description"`
	Inputs      map[string]actionYAMLInput `yaml:"inputs"`
	Outputs     map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string           `yaml:"using"`
		Steps []actionYAMLStep `yaml:"steps"`
	} `yaml:"runs"`
	inputOrder, outputOrder []string
}

type namedInput struct{ name, def, desc string }

// inputList is the inputs in the order of action.yml.
func (m *actionManifest) inputList() []namedInput {
	var out []namedInput
	for _, n := range m.inputOrder {
		in := m.Inputs[n]
		def := ""
		if in.Default != nil {
			def = *in.Default
		}
		out = append(out, namedInput{n, def, in.Description})
	}
	return out
}

var (
	actionYAMLOnce   sync.Once
	actionYAMLParsed *actionManifest
	actionYAMLErr    error
)

// actionYAML parses action.yml at the repository root.
func actionYAML(t *testing.T) *actionManifest {
	t.Helper()
	actionYAMLOnce.Do(func() {
		data, err := os.ReadFile(filepath.Join(sharedtest.Root(t), "action.yml"))
		if err != nil {
			actionYAMLErr = err
			return
		}
		var m actionManifest
		if actionYAMLErr = yaml.Unmarshal(data, &m); actionYAMLErr != nil {
			return
		}
		var doc yaml.Node
		if actionYAMLErr = yaml.Unmarshal(data, &doc); actionYAMLErr != nil {
			return
		}
		top := doc.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			var order *[]string
			switch top.Content[i].Value {
			case "inputs":
				order = &m.inputOrder
			case "outputs":
				order = &m.outputOrder
			default:
				continue
			}
			for j := 0; j+1 < len(top.Content[i+1].Content); j += 2 {
				*order = append(*order, top.Content[i+1].Content[j].Value)
			}
		}
		actionYAMLParsed = &m
	})
	if actionYAMLErr != nil {
		t.Fatalf("action.yml: %v", actionYAMLErr)
	}
	return actionYAMLParsed
}

func TestActionYAML(t *testing.T) {
	t.Parallel()
	m := actionYAML(t)
	if m.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", m.Runs.Using)
	}
	if m.Name == "" || m.Description == "" {
		t.Error("action.yml needs a name and a description")
	}

	// Inputs: the same set, order and defaults as the binary's list, each
	// documented.
	var binary []string
	for _, in := range Inputs {
		binary = append(binary, in.Name)
	}
	if strings.Join(m.inputOrder, " ") != strings.Join(binary, " ") {
		t.Errorf("action.yml inputs:\n  %v\nthe binary reads (Inputs):\n  %v", m.inputOrder, binary)
	}
	for _, in := range Inputs {
		y, ok := m.Inputs[in.Name]
		if !ok {
			continue
		}
		if strings.TrimSpace(y.Description) == "" {
			t.Errorf("input %s has no description", in.Name)
		}
		def := ""
		if y.Default != nil {
			def = *y.Default
		}
		if def != in.Default && !(in.Default == "." && def == ".") {
			t.Errorf("input %s: action.yml default %q, the binary's %q", in.Name, def, in.Default)
		}
		if y.Required {
			t.Errorf("input %s is required: every input has a default or is optional", in.Name)
		}
	}

	// Every input is read by the binary: reading the configuration asks
	// for each INPUT_ variable.
	asked := map[string]bool{}
	ae := actionenv.New(func(k string) string {
		asked[k] = true
		return ""
	}, io.Discard)
	if _, err := readActionConfig(ae); err != nil {
		t.Fatalf("reading empty inputs: %v", err)
	}
	for _, name := range m.inputOrder {
		if !asked["INPUT_"+strings.ToUpper(name)] {
			t.Errorf("input %s is never read by the binary", name)
		}
	}

	// Outputs: the same set, each documented and mapped from the step that
	// runs the binary.
	if strings.Join(m.outputOrder, " ") != strings.Join(Outputs, " ") {
		t.Errorf("action.yml outputs:\n  %v\nthe binary sets (Outputs):\n  %v", m.outputOrder, Outputs)
	}
	var run *actionYAMLStep
	for i, s := range m.Runs.Steps {
		if strings.Contains(s.Run, " action") && strings.Contains(s.Run, "MCP_SURFACE_BIN") {
			run = &m.Runs.Steps[i]
		}
	}
	if run == nil || run.ID == "" {
		t.Fatal("no step with an id runs `mcp-surface action`")
	}
	for name, o := range m.Outputs {
		if strings.TrimSpace(o.Description) == "" {
			t.Errorf("output %s has no description", name)
		}
		if want := "${{ steps." + run.ID + ".outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s: value %q, want %q", name, o.Value, want)
		}
	}

	// Every input reaches the binary through env:, by the runner's name.
	for _, name := range m.inputOrder {
		key := "INPUT_" + strings.ToUpper(name)
		if want := "${{ inputs." + name + " }}"; run.Env[key] != want {
			t.Errorf("the run step's env %s = %q, want %q", key, run.Env[key], want)
		}
	}
	for key := range run.Env {
		if name, ok := strings.CutPrefix(key, "INPUT_"); ok {
			if _, known := m.Inputs[strings.ToLower(name)]; !known {
				t.Errorf("the run step passes %s, which is no input", key)
			}
		}
	}
	for _, s := range m.Runs.Steps {
		checkRunText(t, "action.yml step "+s.Name, s.Run)
		if s.Run != "" && s.Shell == "" {
			t.Errorf("action.yml step %q: a composite run step needs shell:", s.Name)
		}
	}
}

// checkRunText refuses expressions in shell text: inputs and event fields
// written into a script are a script injection. Values go through env:.
func checkRunText(t *testing.T, where, run string) {
	t.Helper()
	for _, bad := range []string{"${{ inputs.", "${{ github.event.", "${{inputs.", "${{github.event.", "${{ github.head_ref", "${{ env."} {
		if strings.Contains(run, bad) {
			t.Errorf("%s: run text contains %q...: pass it through env:", where, bad)
		}
	}
	if strings.Contains(run, "${{") {
		t.Errorf("%s: run text contains an expression; pass values through env:", where)
	}
}

// The project's workflows follow the same rule.
func TestWorkflowsRunText(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(sharedtest.Root(t), ".github", "workflows", "*.yml"))
	if len(files) == 0 {
		t.Fatal("no workflows in .github/workflows")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Permissions any `yaml:"permissions"`
			Jobs        map[string]struct {
				Permissions any              `yaml:"permissions"`
				Steps       []actionYAMLStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if wf.Permissions == nil {
			t.Errorf("%s: no top-level permissions: (the default token may write)", filepath.Base(f))
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				checkRunText(t, fmt.Sprintf("%s job %s step %q", filepath.Base(f), job, s.Name), s.Run)
			}
		}
	}
	// The examples of docs/action.md too.
	doc, err := os.ReadFile(filepath.Join(sharedtest.Root(t), "docs", "action.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	workflows := 0
	for i, b := range blocks {
		for _, line := range strings.Split(string(b[1]), "\n") {
			if strings.Contains(line, "run:") {
				checkRunText(t, fmt.Sprintf("docs/action.md example %d", i+1), line)
			}
		}
		if !bytes.Contains(b[1], []byte("\njobs:\n")) {
			continue // a fragment
		}
		workflows++
		var wf struct {
			Jobs map[string]struct {
				Steps []actionYAMLStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(b[1], &wf); err != nil {
			t.Errorf("docs/action.md yaml example %d: %v", i+1, err)
			continue
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				checkRunText(t, fmt.Sprintf("docs/action.md example %d job %s step %q", i+1, job, s.Name), s.Run)
			}
		}
	}
	if workflows < 4 {
		t.Errorf("docs/action.md has %d complete workflows, want the quick start, the matrix and the fork-safe pair", workflows)
	}
}

// actionDocTables renders the inputs and outputs tables of docs/action.md
// from action.yml.
func actionDocTables(m *actionManifest) (inputs, outputs string) {
	cell := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
	}
	var b strings.Builder
	b.WriteString("| Input | Default | Description |\n| --- | --- | --- |\n")
	for _, in := range m.inputList() {
		def := ""
		if in.def != "" {
			def = "`" + in.def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", in.name, def, cell(in.desc))
	}
	inputs = b.String()
	b.Reset()
	b.WriteString("| Output | Description |\n| --- | --- |\n")
	for _, name := range m.outputOrder {
		fmt.Fprintf(&b, "| `%s` | %s |\n", name, cell(m.Outputs[name].Description))
	}
	return inputs, b.String()
}

func TestActionDocs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(sharedtest.Root(t), "docs", "action.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	inputs, outputs := actionDocTables(actionYAML(t))
	for _, part := range []struct{ name, table string }{{"inputs", inputs}, {"outputs", outputs}} {
		begin := "<!-- BEGIN " + part.name + " (generated from action.yml: go test ./internal/app/action -run TestActionDocs -update-action-docs) -->\n"
		end := "<!-- END " + part.name + " -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("docs/action.md lacks the markers %q ... %q", strings.TrimSpace(begin), end)
		}
		got := doc[i+len(begin) : j]
		if got != part.table {
			if *updateActionDocs {
				doc = doc[:i+len(begin)] + part.table + doc[j:]
				continue
			}
			t.Errorf("the %s table of docs/action.md is not the one action.yml gives; run with -update-action-docs", part.name)
		}
	}
	if *updateActionDocs {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every publishing failure kind has a troubleshooting entry, and the
	// section internal/app/github's hints point to exists.
	for _, kind := range []github.Kind{github.KindForbidden, github.KindNotFound, github.KindRateLimited, github.KindUnauthorized,
		github.KindInvalid, github.KindTooLarge, github.KindUnavailable, github.KindUnexpected} {
		if !strings.Contains(doc, "### `"+string(kind)+"`") {
			t.Errorf("docs/action.md: no troubleshooting entry \"### `%s`\"", kind)
		}
	}
	if !strings.Contains(doc, "\n## Fork pull requests\n") {
		t.Error("docs/action.md: no \"## Fork pull requests\" section")
	}
}
