package capture_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestProbesRunOverTheSameSession(t *testing.T) {
	srv, _ := testserver.New(testserver.ModeFull)
	o := opts("2025-06-18")
	o.Probes = []capture.Probe{
		{ID: "ping", Method: capture.MethodToolsCall, Name: "ping"},
		{ID: "summary", Method: capture.MethodPromptsGet, Name: "summarize_issue", Arguments: json.RawMessage(`{"issue_id":"7"}`)},
		{ID: "all", Method: capture.MethodResourcesRead, AllResources: true, MaxResources: 3},
		{ID: "missing", Method: capture.MethodToolsCall, Name: "no_such_tool"},
	}
	c := mustRun(t, capture.InProcess{Server: srv}, o)
	if len(c.Probes) != 6 {
		t.Fatalf("%d probe results, want 6 (1 + 1 + 3 resources + 1)", len(c.Probes))
	}
	for _, p := range c.Probes {
		if p.Exchange < 0 {
			t.Fatalf("probe %s has no recorded exchange", p.Probe.ID)
		}
		ex := c.Exchanges[p.Exchange]
		if ex.Method != p.Probe.Method {
			t.Errorf("probe %s recorded as %s", p.Probe.ID, ex.Method)
		}
		if p.Probe.ID == "missing" {
			if ex.Error == nil && !strings.Contains(string(ex.Result), "isError") {
				t.Errorf("calling an unknown tool gave neither an error nor isError: %s", ex.Result)
			}
			continue
		}
		if ex.Result == nil {
			t.Errorf("probe %s (%s): no result: %+v", p.Probe.ID, p.Target, ex.Error)
		}
	}
	bounded := false
	for _, d := range c.Diagnostics {
		bounded = bounded || d.Code == capture.DiagProbeBounded
	}
	if !bounded {
		t.Errorf("reading 3 of 8 resources was not reported")
	}
	// Probe results never reach the snapshot.
	plain := mustRun(t, capture.InProcess{Server: mustNew(t)}, opts("2025-06-18"))
	if mustBuild(t, c).Fingerprints.Manifest != mustBuild(t, plain).Fingerprints.Manifest {
		t.Errorf("probes changed the snapshot")
	}
}

func mustNew(t *testing.T) *mcp.Server {
	srv, err := testserver.New(testserver.ModeFull)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

var _ = manifest.Build
