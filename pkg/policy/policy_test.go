package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func mk(rule, kind, name, ptr string) finding.Finding {
	return finding.New(rule, finding.Subject{Kind: kind, Name: name}, ptr, "m", nil, nil)
}

func TestPolicyAdjust(t *testing.T) {
	c, err := config.Parse("c.yaml", []byte("profile: strict\nseverity:\n  tool-description-changed: breaking\n  resource-last-modified-changed: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := New(c, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))

	f := mk("tool-description-changed", finding.KindTool, "t", "/description")
	if !p.Adjust(&f) || f.Severity != rules.SeverityBreaking || f.Level != rules.LevelError {
		t.Errorf("override: %+v", f)
	}
	f = mk("resource-last-modified-changed", finding.KindResource, "r", "/annotations/lastModified")
	if p.Adjust(&f) {
		t.Error("off rule kept")
	}
	// A strict-tagged rule under the strict profile.
	var strict string
	for _, r := range rules.All() {
		if r.HasTag("strict") && r.Kind == rules.KindChange {
			strict = r.ID
			break
		}
	}
	if strict != "" {
		f = finding.New(strict, finding.Subject{Kind: finding.KindTool, Name: "t"}, "/inputSchema", "m", nil, nil)
		if !p.Adjust(&f) || f.Severity != rules.SeverityBreaking {
			t.Errorf("strict profile: %+v", f)
		}
		c.Profile = config.ProfileLenient
		f = finding.New(strict, finding.Subject{Kind: finding.KindTool, Name: "t"}, "/inputSchema", "m", nil, nil)
		if !p.Adjust(&f) || f.Severity != rules.SeverityMinor || f.Level != rules.LevelNote {
			t.Errorf("lenient profile: %+v", f)
		}
	}
	// A spec rule takes the level of the override's severity.
	var nilPolicy *Policy
	f = mk("tool-removed", finding.KindTool, "x", "")
	if !nilPolicy.Adjust(&f) || f.Severity != rules.SeverityBreaking {
		t.Errorf("nil policy changed %+v", f)
	}
}

func TestPolicyAcknowledge(t *testing.T) {
	src := `acknowledged:
  - rule: tool-removed
    tool: legacy_*
    reason: legacy tools go
    expires: 2030-01-31
  - rule: text-*
    template: "db://**"
    pointer: /description
    reason: reviewed
  - rule: tool-added
    reason: old
    expires: 2020-01-01
`
	c, err := config.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding.Finding{
		mk("tool-removed", finding.KindTool, "legacy_search", ""),
		mk("tool-removed", finding.KindTool, "search", ""),
		mk("text-url-added", finding.KindResourceTemplate, "db://{table}/{id}", "/description"),
		mk("text-url-added", finding.KindResourceTemplate, "db://{table}", "/title"),
		mk("tool-added", finding.KindTool, "new", ""),
	}
	fp := mk("tool-removed", finding.KindTool, "search", "").Fingerprint

	// Valid through the expiry day.
	got := New(c, time.Date(2030, 1, 31, 23, 0, 0, 0, time.UTC)).Acknowledge(append([]finding.Finding(nil), fs...))
	acks := []string{}
	for _, f := range got {
		acks = append(acks, f.Rule+" "+f.Subject.Name+" "+f.Acknowledged)
	}
	want := []string{
		"tool-removed legacy_search legacy tools go",
		"tool-removed search ",
		"text-url-added db://{table}/{id} reviewed",
		"text-url-added db://{table} ",
		"tool-added new ",
		"config-acknowledgement-expired  ",
	}
	if d := cmp.Diff(want, acks); d != "" {
		t.Errorf("acknowledged (-want +got):\n%s", d)
	}
	exp := got[len(got)-1]
	if exp.Level != rules.LevelError || !strings.HasPrefix(exp.Message, "c.yaml:10: the acknowledgement of tool-added expired on 2020-01-01") {
		t.Errorf("expired finding = %+v", exp)
	}

	// The day after, the first entry has expired too and no longer applies.
	got = New(c, time.Date(2030, 2, 1, 0, 0, 0, 0, time.UTC)).Acknowledge(append([]finding.Finding(nil), fs...))
	if got[0].Acknowledged != "" || len(got) != len(fs)+2 {
		t.Errorf("after expiry: %+v", got)
	}

	// By fingerprint.
	c2, err := config.Parse("c.yaml", []byte("acknowledged:\n  - fingerprint: "+fp+"\n    reason: ok\n"))
	if err != nil {
		t.Fatal(err)
	}
	got = New(c2, time.Time{}).Acknowledge(append([]finding.Finding(nil), fs...))
	if got[1].Acknowledged != "ok" || got[0].Acknowledged != "" {
		t.Errorf("by fingerprint: %+v", got)
	}
}

// The configuration names subject kinds with its own constants: they are
// finding's, or an acknowledgement would match nothing.
func TestSubjectKinds(t *testing.T) {
	for got, want := range map[string]string{
		config.KindTool: finding.KindTool, config.KindPrompt: finding.KindPrompt, config.KindResource: finding.KindResource,
		config.KindResourceTemplate: finding.KindResourceTemplate, config.KindServer: finding.KindServer,
	} {
		if got != want {
			t.Errorf("config names the kind %q %q", want, got)
		}
	}
}
