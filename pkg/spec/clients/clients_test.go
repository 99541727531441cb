package clients

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"golang.org/x/tools/txtar"
)

// A fixture is testdata/<constraint>.txtar, in the vocabulary of
// internal/testkit/txtartest: the profiles (names separated by spaces), a
// tool list each of them accepts (accept, one tool per line as JSON) and
// one some of them reject (reject), and in want what the rejected list
// gets: rule, subject, pointer and the profiles that reject it. An
// optional count section repeats the tools ("128 129": accept 128 times,
// reject 129 times) under numbered names.
func TestFixtures(t *testing.T) {
	seen := map[string]bool{}
	kinds := map[string]bool{}
	fixtures := txtartest.Load(t, "testdata", "profiles", "count", "accept", "reject", "want")
	txtartest.Run(t, fixtures, func(t *testing.T, fx *txtartest.Fixture) []txtartest.Got {
		a := fx.Archive
		ps, err := ParseList(strings.Fields(string(txtartest.Data(a, "profiles"))))
		if err != nil {
			t.Fatal(err)
		}
		counts := strings.Fields(string(txtartest.Data(a, "count")))
		accept := tools(t, a, "accept", counts, 0)
		if vs := Violations("demo-server", accept, ps); len(vs) > 0 {
			t.Errorf("accept is rejected:\n%s", render(vs))
		}
		reject := tools(t, a, "reject", counts, 1)
		vs := Violations("demo-server", reject, ps)
		for _, v := range vs {
			seen[v.Constraint.Rule()] = true
			kinds[v.Constraint.Kind] = true
		}
		got := render(vs)
		// The findings say the same, one per place.
		fs := findings(vs)
		if len(fs) != strings.Count(got, "\n") {
			t.Errorf("%d findings for %d places", len(fs), strings.Count(got, "\n"))
		}
		for _, f := range fs {
			if !slices.Contains(f.Tags, "compat") || f.Level != rules.LevelWarning {
				t.Errorf("%s: tags %v level %s, want compat and warning", f.Rule, f.Tags, f.Level)
			}
			if !strings.Contains(f.Message, "https://") || !strings.Contains(f.Message, "checked ") {
				t.Errorf("%s: the message cites no documentation: %s", f.Rule, f.Message)
			}
		}
		return []txtartest.Got{{Section: "want", Text: got}}
	})
	for _, id := range rules.ProducedBy("pkg/spec/clients") {
		if !seen[id] {
			t.Errorf("%s: no fixture rejects anything under it", id)
		}
	}
	for k := range ruleOf {
		if !kinds[k] {
			t.Errorf("constraint kind %s: no fixture", k)
		}
	}
}

func tools(t *testing.T, a *txtar.Archive, section string, counts []string, which int) []Tool {
	t.Helper()
	var out []Tool
	for _, v := range txtartest.JSONLines[map[string]any](t, a, section) {
		out = append(out, Tool{Name: v["name"].(string), Value: v})
	}
	if len(counts) == 2 {
		n, _ := strconv.Atoi(counts[which])
		var rep []Tool
		for i := range n {
			tl := out[i%len(out)]
			rep = append(rep, Tool{Name: fmt.Sprintf("%s%d", tl.Name, i), Value: tl.Value})
		}
		out = rep
	}
	return out
}

// render lists each place once with the profiles that reject it.
func render(vs []Violation) string {
	type key struct{ rule, kind, name, ptr string }
	var order []key
	by := map[key][]string{}
	for _, v := range vs {
		k := key{v.Constraint.Rule(), finding.KindTool, v.Tool, v.Pointer}
		if v.Tool == "" {
			k.kind, k.name = finding.KindServer, `""`
		}
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], v.Profile.Label())
	}
	slices.SortFunc(order, func(a, b key) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	var b strings.Builder
	for _, k := range order {
		ps := by[k]
		slices.Sort(ps)
		fmt.Fprintf(&b, "%s %s %s %s %s\n", k.rule, k.kind, k.name, k.ptr, strings.Join(slices.Compact(ps), ","))
	}
	return b.String()
}

// Every built-in profile loads and cites, for each constraint, a page that
// its rule's help text links too: the help is where users read why.
func TestProfilesCiteTheirDocumentation(t *testing.T) {
	for _, want := range []string{"anthropic", "claude-code", "gemini", "openai", "openai-strict"} {
		if _, ok := builtin()[want]; !ok {
			t.Errorf("no profile %s", want)
		}
	}
	for _, p := range All() {
		for _, c := range p.Constraints {
			r := rules.MustLookup(c.Rule())
			for _, u := range []string{c.Source, c.Also} {
				if u != "" && !strings.Contains(r.Help, u) {
					t.Errorf("%s %s: the help of %s does not cite %s", p.Name, c.Kind, r.ID, u)
				}
			}
			if c.Checked != "2026-12-01" && testing.Verbose() {
				t.Logf("%s %s: last checked %s", p.Name, c.Kind, c.Checked)
			}
		}
	}
}

func TestParse(t *testing.T) {
	p, err := Parse("claude-code:github")
	if err != nil || p.Server != "github" || p.Label() != "claude-code:github" {
		t.Errorf("Parse(claude-code:github) = %+v, %v", p, err)
	}
	for _, bad := range []string{"openai:x", "nope", "claude-code:"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if _, err := Parse("nope"); err == nil || !strings.Contains(err.Error(), "openai-strict") {
		t.Errorf("the error for an unknown profile lists the known ones: %v", err)
	}
	ps, err := ParseList([]string{"openai,gemini", " openai ", ""})
	if err != nil || len(ps) != 2 {
		t.Errorf("ParseList = %v, %v", ps, err)
	}
	var q struct{ Clients []Profile }
	if err := json.Unmarshal([]byte(`{"Clients":["gemini","claude-code:x"]}`), &q); err != nil || q.Clients[1].Server != "x" {
		t.Errorf("profiles from JSON names: %+v, %v", q, err)
	}
}

// A profile without a source, or with an unknown kind, does not load.
func TestUndocumentedConstraintDoesNotLoad(t *testing.T) {
	for name, body := range map[string]string{
		"no source":    "name: x\nprovider: P\ntitle: T\nconstraints:\n  - kind: tool-count\n    max: 1\n    reason: r\n    checked: 2026-12-01\n",
		"no date":      "name: x\nprovider: P\ntitle: T\nconstraints:\n  - kind: tool-count\n    max: 1\n    reason: r\n    source: https://example.com/\n",
		"unknown kind": "name: x\nprovider: P\ntitle: T\nconstraints:\n  - kind: vibes\n    reason: r\n    source: https://example.com/\n    checked: 2026-12-01\n",
	} {
		fsys := fstest.MapFS{"profiles/x.yaml": {Data: []byte(body)}}
		if _, err := load(fsys); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
