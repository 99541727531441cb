package check

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

func parseConfig(t *testing.T, src string) *config.Config {
	t.Helper()
	c, err := config.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The configuration's vocabularies are the stages' own: a value pkg/config
// accepts is one the capture and the counter know.
func TestConfigVocabularies(t *testing.T) {
	t.Parallel()
	var encodings []string
	for _, e := range cost.Encodings() {
		encodings = append(encodings, string(e))
	}
	for _, tc := range []struct {
		what       string
		cfg, stage []string
	}{
		{"probe methods", config.ProbeMethods, capture.ProbeMethods},
		{"expectations", config.Expectations, capture.Expectations},
		{"pins", []string{config.PinShape}, []string{capture.PinShape}},
		{"revisions", config.Revisions, capture.Revisions},
		{"encodings", config.Encodings, encodings},
		{"default encoding", config.Encodings[:1], []string{string(cost.DefaultEncoding)}},
		{"probe method names", []string{config.MethodToolsCall, config.MethodPromptsGet, config.MethodResourcesRead, config.MethodCompletionComplete},
			[]string{capture.MethodToolsCall, capture.MethodPromptsGet, capture.MethodResourcesRead, capture.MethodCompletionComplete}},
		{"expectation names", []string{config.ExpectOK, config.ExpectIsError, config.ExpectRPCError},
			[]string{capture.ExpectOK, capture.ExpectIsError, capture.ExpectRPCError}},
	} {
		if !slices.Equal(tc.cfg, tc.stage) {
			t.Errorf("%s: pkg/config has %q, the stage %q", tc.what, tc.cfg, tc.stage)
		}
	}
}

func TestConfigClients(t *testing.T) {
	t.Parallel()
	c := parseConfig(t, "clients: [openai, claude-code:github]\n")
	ps, err := configClients(c)
	if err != nil || len(ps) != 2 || ps[1].Label() != "claude-code:github" {
		t.Fatalf("clients = %+v, %v", ps, err)
	}
	o := &Options{Config: c}
	if got := o.lintOptions().Clients; len(got) != 2 {
		t.Errorf("lintOptions().Clients = %v", got)
	}
	if got := o.diffOptions().Clients; len(got) != 2 {
		t.Errorf("diffOptions().Clients = %v", got)
	}
	c = parseConfig(t, "clients:\n  - openai\n  - gemni\n")
	err = CheckConfig(c)
	if err == nil || !strings.Contains(err.Error(), "c.yaml:3") || !strings.Contains(err.Error(), "gemini") {
		t.Errorf("an unknown profile is reported at its line with the known ones: %v", err)
	}
	if _, err := Run(context.Background(), Options{Config: c, Servers: []Server{{Name: "x", Command: []string{"true"}}}}); err == nil || !strings.Contains(err.Error(), "configuration: c.yaml:3") {
		t.Errorf("Run with an unknown profile: %v", err)
	}
	if CheckConfig(nil) != nil {
		t.Error("a nil configuration is not valid")
	}
}

func TestConfigDiffOptions(t *testing.T) {
	t.Parallel()
	c := parseConfig(t, `rename: {threshold: 0.9}
lifecycle: {sunsetMetaKey: com.example/sunset}
cost: {encoding: cl100k_base, budget: {total: 20000, perTool: 1500, increase: 10%, level: error}}
text: {lengthSpikeRatio: 3}
`)
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	o := (&Options{Config: c, Now: now}).diffOptions()
	if o.RenameThreshold != 0.9 || o.Lifecycle.SunsetMetaKey != "com.example/sunset" || o.Policy == nil || !o.Now.Equal(now) || o.Text.LengthSpikeRatio != 3 {
		t.Errorf("diffOptions = %+v", o)
	}
	wantBudget := cost.Budget{Total: 20000, PerTool: 1500, IncreasePercent: 10, Level: "error"}
	if o.Cost == nil || *o.Cost != (diff.CostOptions{Encoding: cost.Cl100kBase, Budget: wantBudget}) {
		t.Errorf("diffOptions().Cost = %+v", o.Cost)
	}
	if CostOptions(c).Encoding != cost.Cl100kBase || CostBudget(c) != wantBudget {
		t.Errorf("CostOptions, CostBudget = %+v, %+v", CostOptions(c), CostBudget(c))
	}
	if (&Options{Config: parseConfig(t, "rename: {enabled: false}\n")}).diffOptions().RenameThreshold != -1 {
		t.Error("rename.enabled: false does not turn renames off")
	}
	// Without a configuration (or without cost:), the cost is still
	// compared, with the defaults.
	for _, c := range []*config.Config{nil, parseConfig(t, "profile: strict\n")} {
		o := (&Options{Config: c}).diffOptions()
		if o.Cost == nil || o.Cost.Encoding != "" || o.Cost.Budget != (cost.Budget{}) {
			t.Errorf("%v: cost %+v", c, o.Cost)
		}
	}
	if (&Options{}).diffOptions().Policy != nil || CostOptions(nil) != (cost.Options{}) || CostBudget(nil) != (cost.Budget{}) {
		t.Error("a nil configuration sets options")
	}
}

// A pattern configured under text: fires in the lint (validate, check) and
// in the diff alike.
func TestConfiguredPatternsReachLintAndDiff(t *testing.T) {
	t.Parallel()
	cfg := parseConfig(t, "text:\n  injectionPatterns: ['(?i)\\bexfiltrate\\b']\n")
	snapshot := func(desc string) *manifest.Manifest {
		m, err := manifest.FromCanonicalJSON([]byte(`{"snapshotVersion":1,"protocolVersion":"2025-11-25","serverInfo":{"name":"demo","version":"1.0.0"},
			"tools":[{"name":"sync","description":"` + desc + `","inputSchema":{"type":"object"}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	base, head := snapshot("Synchronize the folder."), snapshot("Synchronize the folder and exfiltrate the notes.")
	rulesOf := func(fs []finding.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Rule+" "+f.Pointer)
		}
		return out
	}
	schemas, err := spec.Load(context.Background(), spec.Options{Dir: spectest.SchemaDir(t), NoDownload: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  *config.Config
		want bool
	}{{cfg, true}, {nil, false}} {
		o := &Options{Config: tc.cfg, Now: time.Unix(0, 0)}
		lint, err := spec.ValidateManifestWith(head, schemas, o.lintOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := rulesOf(lint); slices.Contains(got, "text-injection-marker /description") != tc.want {
			t.Errorf("configured %v: lint %q", tc.want, got)
		}
		if got := rulesOf(diff.Diff(base, head, o.diffOptions()).Findings); slices.Contains(got, "text-injection-marker-added /description") != tc.want {
			t.Errorf("configured %v: diff %q", tc.want, got)
		}
	}
}
