package check_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// One section per revision, named after the server and the revision.
func TestValidate(t *testing.T) {
	t.Parallel()
	o := options(t, inProcess(t, testserver.ModeFull))
	res, err := check.Validate(context.Background(), o, []string{"2025-06-18", "2025-03-26"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Captures) != 2 || len(res.Report.Servers) != 2 || len(res.Servers) != 2 {
		t.Fatalf("captures %d, sections %d", len(res.Captures), len(res.Report.Servers))
	}
	for i, rev := range []string{"2025-06-18", "2025-03-26"} {
		sec := res.Report.Servers[i]
		if sec.Command != "validate" || sec.Head.Revision != rev || !strings.Contains(sec.Server, "(MCP "+rev+")") || sec.Head.ManifestHash == "" {
			t.Errorf("section %d = %+v", i, sec)
		}
	}

	// A failed capture keeps what was captured, for the frames.
	o.Limits.MaxBytes = 10
	res, err = check.Validate(context.Background(), o, nil)
	if err == nil || res == nil || len(res.Captures) != 1 {
		t.Fatalf("err %v, result %+v", err, res)
	}
}

func TestValidateSnapshot(t *testing.T) {
	t.Parallel()
	m := capturetest.Read(t, capturetest.Encode(t, snapshotOf(t, testserver.ModeFull)))
	res, err := check.ValidateSnapshot(context.Background(), options(t), "mcp-surface.json", m)
	if err != nil {
		t.Fatal(err)
	}
	sec := res.Report.Servers[0]
	if sec.Head.Label != "mcp-surface.json" || sec.Head.ManifestHash != m.Fingerprints.Manifest || len(sec.Findings) == 0 {
		t.Errorf("section = %+v", sec)
	}
}

// Probes run over the captured session; a probe whose outcome is not the
// expected one is reported, and pinned shapes are written and compared.
func TestProbe(t *testing.T) {
	t.Parallel()
	s := inProcess(t, testserver.ModeProbes)
	s.Probes = []capture.Probe{
		{ID: "echo", Method: capture.MethodToolsCall, Name: "echo", Arguments: json.RawMessage(`{"message":"hi"}`), Pin: capture.PinShape},
		{ID: "wrong", Method: capture.MethodToolsCall, Name: "echo", Arguments: json.RawMessage(`{"message":"hi"}`), Expect: capture.ExpectIsError},
	}
	o := options(t, s)
	pins := filepath.Join(t.TempDir(), "pins.json")
	var logs []string
	o.Log = func(format string, args ...any) { logs = append(logs, format) }
	res, err := check.Probe(context.Background(), o, check.ProbeOptions{PinsFile: pins, UpdatePins: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 1 || !strings.HasPrefix(logs[0], "wrote") {
		t.Errorf("logs %q", logs)
	}
	got := ruleCounts(res.Findings)
	if got["probe-expectation-failed"] != 1 || got["probe-shape-not-pinned"] != 0 {
		t.Errorf("findings %v", got)
	}
	if sec := res.Report.Servers[0]; sec.Command != "probe" || !strings.Contains(strings.Join(sec.Notes, "\n"), "2 probe calls made") {
		t.Errorf("section = %+v", sec)
	}
	// Against the pins just written: nothing changed.
	res, err = check.Probe(context.Background(), o, check.ProbeOptions{PinsFile: pins})
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleCounts(res.Findings); len(got) != 1 || got["probe-expectation-failed"] != 1 {
		t.Errorf("findings against the pins %v", got)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	base, head := snapshotOf(t, testserver.ModeFull), snapshotOf(t, testserver.ModeToolsOnly)
	res := check.Diff(base, head, "base.json", "head.json", check.Options{Version: "test"})
	sec := res.Report.Servers[0]
	if sec.Command != "diff" || sec.Base.Label != "base.json" || sec.Head.Label != "head.json" || sec.WorstSeverity == "" {
		t.Errorf("section = %+v", sec)
	}
	if len(sec.Changes()) == 0 || len(res.Findings) < len(sec.Findings) || res.Servers[0].Diff == nil {
		t.Errorf("changes %d, findings %d", len(sec.Changes()), len(res.Findings))
	}
}

func TestReadSnapshot(t *testing.T) {
	t.Parallel()
	repo := gittest.New(t)
	m := snapshotOf(t, testserver.ModeToolsOnly)
	repo.Write("mcp-surface.json", capturetest.Encode(t, m))
	sha := repo.Commit("snapshot")
	ctx := context.Background()
	for _, arg := range []string{filepath.Join(repo.Dir, "mcp-surface.json"), sha + ":mcp-surface.json"} {
		got, err := check.ReadSnapshot(ctx, repo.Dir, arg, 0)
		if err != nil || got.Fingerprints.Manifest != m.Fingerprints.Manifest {
			t.Errorf("%s: %v", arg, err)
		}
	}
	if _, err := check.ReadSnapshot(ctx, repo.Dir, sha+":missing.json", 0); err == nil {
		t.Errorf("a missing path at a ref was read")
	}
}

// Paths become relative to the repository, ${VAR} is expanded (an unset
// one is named, never a value), and probe arguments taken from the
// environment are kept as secrets.
func TestFromConfig(t *testing.T) {
	t.Parallel()
	src := `servers:
  - name: api
    command: [./server]
    cwd: srv
    snapshot: snapshots/api.json
    env: {B: "2", A: "1"}
    protocolVersion: 2025-03-26
    probes:
      - {id: hi, method: tools/call, name: echo, arguments: {message: "${GREETING}"}}
  - name: remote
    url: https://mcp.example.com/mcp
    headers: {Authorization: "Bearer ${TOKEN}"}
`
	cfg := parseConfig(t, "conf/.mcp-surface.yaml", src)
	repo := t.TempDir()
	env := map[string]string{"GREETING": "hello", "TOKEN": "t0k"}
	servers, err := check.FromConfig(cfg, filepath.Join(repo, "conf", ".mcp-surface.yaml"), repo, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	api, remote := servers[0], servers[1]
	if api.Dir != "conf/srv" || api.Snapshot != "conf/snapshots/api.json" || strings.Join(api.Env, ",") != "A=1,B=2" || api.ProtocolVersion != "2025-03-26" {
		t.Errorf("api = %+v", api)
	}
	if len(api.Secrets) != 1 || api.Secrets[0] != "hello" || !strings.Contains(string(api.Probes[0].Arguments), "hello") {
		t.Errorf("api probes %+v, secrets %q", api.Probes, api.Secrets)
	}
	if remote.Headers.Get("Authorization") != "Bearer t0k" {
		t.Errorf("remote headers %v", remote.Headers)
	}
	delete(env, "TOKEN")
	_, err = check.FromConfig(cfg, ".mcp-surface.yaml", "", func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "TOKEN is not set") {
		t.Errorf("unset variable: %v", err)
	}
}

// The text patterns configured under text: reach the lint of validate as
// they reach the diff: a pattern that matches a tool's description is
// reported only when configured.
func TestValidateConfiguredPattern(t *testing.T) {
	t.Parallel()
	m := snapshotOf(t, testserver.ModeFull)
	var tool struct {
		Description string `json:"description"`
	}
	for _, it := range m.Tools {
		if json.Unmarshal(it.Raw, &tool) == nil && len(strings.Fields(tool.Description)) > 0 {
			break
		}
	}
	word := strings.Fields(tool.Description)[0]
	count := func(cfg *config.Config) int {
		o := options(t)
		o.Config = cfg
		res, err := check.ValidateSnapshot(context.Background(), o, "mcp-surface.json", m)
		if err != nil {
			t.Fatal(err)
		}
		return ruleCounts(res.Findings)[rules.TextInjectionMarker]
	}
	cfg := parseConfig(t, ".mcp-surface.yaml", "text:\n  injectionPatterns: ['(?i)"+regexp.QuoteMeta(word)+"']\n")
	if without, with := count(nil), count(cfg); with <= without {
		t.Errorf("text-injection-marker findings: %d without the configured pattern %q, %d with it", without, word, with)
	}
}
