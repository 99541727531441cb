package check_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func findRule(fs []finding.Finding, rule string) *finding.Finding {
	for i := range fs {
		if fs[i].Rule == rule {
			return &fs[i]
		}
	}
	return nil
}

// rawServer is a misbehaving test server over stdio: it answers
// server/discover with "method not found", so the session falls back.
func rawServer(mode string) check.Server {
	return check.Server{Name: mode, Command: []string{os.Args[0]}, Env: []string{testserver.EnvFor(mode)}}
}

// The server does not speak server/discover at the base either: the
// fallback is not about the change, so it is info. When the base did
// speak it, or without a baseline, the fallback keeps its level.
func TestHandshakeFallbackSameAtBaseIsInfo(t *testing.T) {
	t.Parallel()
	head := rawServer(testserver.ModePagedRaw)
	for _, tc := range []struct {
		name     string
		baseline check.Baseline
		want     rules.Level
	}{
		{"fell back at the base too", check.Baseline{File: snapshotFile(t, head, "2026-07-28")}, rules.LevelInfo},
		{"the base spoke server/discover", check.Baseline{File: snapshotFile(t, inProcess(t, testserver.ModeFull), "2026-07-28")}, rules.LevelNote},
		{"no baseline", check.Baseline{Mode: check.BaselineNone}, rules.LevelNote},
	} {
		o := options(t, head)
		o.Baseline = tc.baseline
		o.ProtocolVersion = "2026-07-28"
		o.Environ = os.Environ()
		res := run(t, o)
		f := findRule(res.Findings, rules.HandshakeFallback)
		if f == nil {
			t.Fatalf("%s: no %s finding: %v", tc.name, rules.HandshakeFallback, ruleCounts(res.Findings))
		}
		if f.Level != tc.want {
			t.Errorf("%s: %s is %s, want %s (%s)", tc.name, f.Rule, f.Level, tc.want, f.Message)
		}
	}
}

// The accept reason acknowledges the breaking changes, and only those; an
// acknowledgement of the configuration keeps its own reason.
func TestAcceptBreaking(t *testing.T) {
	t.Parallel()
	o := removalOptions(t, parseConfig(t, ".mcp-surface.yaml", "acknowledged:\n  - rule: prompt-removed\n    reason: prompts move to another server\n"))
	res := run(t, o)
	if !res.Fails(rules.LevelError, nil) || res.Accepted() != 0 {
		t.Fatalf("without the reason: fails %v, accepted %d", res.Fails(rules.LevelError, nil), res.Accepted())
	}
	ack := string(res.Acknowledgements(rules.LevelError))
	if !strings.Contains(ack, "acknowledged:") || !strings.Contains(ack, "rule: resource-removed") || strings.Contains(ack, "rule: prompt-removed") {
		t.Errorf("acknowledgements to paste:\n%s", ack)
	}
	if _, err := config.Parse("pasted", []byte(strings.ReplaceAll(ack, "reason: TODO", "reason: intended"))); err != nil {
		t.Errorf("the acknowledgements do not parse once given a reason: %v\n%s", err, ack)
	}

	o.AcceptBreaking = check.AcceptedByLabel
	res = run(t, o)
	if res.Fails(rules.LevelError, nil) {
		t.Errorf("accepted breaks still fail: %v", ruleCounts(res.Findings))
	}
	if res.Accepted() == 0 || len(res.Acknowledgements(rules.LevelError)) != 0 {
		t.Errorf("accepted %d; acknowledgements left to paste:\n%s", res.Accepted(), res.Acknowledgements(rules.LevelError))
	}
	for _, f := range res.Findings {
		switch {
		case f.Rule == rules.PromptRemoved && f.Acknowledged != "prompts move to another server":
			t.Errorf("%s %s: acknowledged %q, want the configuration's reason", f.Rule, f.Subject.Name, f.Acknowledged)
		case f.Rule != rules.PromptRemoved && f.Severity == rules.SeverityBreaking && f.Acknowledged != check.AcceptedByLabel:
			t.Errorf("%s %s: acknowledged %q", f.Rule, f.Subject.Name, f.Acknowledged)
		case f.Severity != rules.SeverityBreaking && f.Acknowledged == check.AcceptedByLabel:
			t.Errorf("%s (%s) accepted although not breaking", f.Rule, f.Severity)
		}
	}
}

// With several servers each acknowledgement says which server it is for.
func TestAcknowledgementsNameTheServer(t *testing.T) {
	t.Parallel()
	base := snapshotFile(t, inProcess(t, testserver.ModeFull), "")
	a, b := inProcess(t, testserver.ModeToolsOnly), inProcess(t, testserver.ModeFull)
	a.Name, b.Name = "issues", "tracker"
	o := options(t, a, b)
	o.Baseline = check.Baseline{File: base}
	res := run(t, o)
	ack := string(res.Acknowledgements(rules.LevelError))
	if !strings.Contains(ack, "server issues: ") || strings.Contains(ack, "server tracker: ") {
		t.Errorf("acknowledgements:\n%s", ack)
	}
}
