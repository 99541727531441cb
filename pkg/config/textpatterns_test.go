package config_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// A pattern configured under text: fires in the lint (validate, check) and
// in the diff alike.
func TestConfiguredPatternsReachLintAndDiff(t *testing.T) {
	cfg, err := config.Parse(".mcp-surface.yaml", []byte("text:\n  injectionPatterns: ['(?i)\\bexfiltrate\\b']\n"))
	if err != nil {
		t.Fatal(err)
	}
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

	dir := spectest.SchemaDir(t)
	schemas, err := spec.Load(context.Background(), spec.Options{Dir: dir, NoDownload: true})
	if err != nil {
		t.Fatal(err)
	}
	lint, err := spec.ValidateManifestWith(head, schemas, cfg.LintOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(lint); !slices.Contains(got, "text-injection-marker /description") {
		t.Errorf("lint: %q", got)
	}
	if got := rulesOf(diff.Diff(base, head, cfg.DiffOptions(time.Unix(0, 0))).Findings); !slices.Contains(got, "text-injection-marker-added /description") {
		t.Errorf("diff: %q", got)
	}
	// Without the configuration, neither fires.
	var none *config.Config
	lint, err = spec.ValidateManifestWith(head, schemas, none.LintOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(lint); slices.Contains(got, "text-injection-marker /description") {
		t.Errorf("lint without configuration: %q", got)
	}
	if got := rulesOf(diff.Diff(base, head, none.DiffOptions(time.Unix(0, 0))).Findings); slices.Contains(got, "text-injection-marker-added /description") {
		t.Errorf("diff without configuration: %q", got)
	}
}
