package diff

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// snapshotOf is a snapshot of the given tools (raw JSON objects).
func snapshotOf(t *testing.T, tools ...string) *manifest.Manifest {
	t.Helper()
	raw := `{"snapshotVersion":1,"protocolVersion":"2025-11-25","serverInfo":{"name":"demo","version":"1.0.0"},"capabilities":{"tools":{}},"tools":[` + strings.Join(tools, ",") + `]}`
	m := capturetest.Read(t, []byte(raw))
	return m
}

// A readOnlyHint flip is one finding whose message names what the flip
// does to the effective destructiveHint and idempotentHint.
func TestReadOnlyFlipOneFinding(t *testing.T) {
	ro := snapshotOf(t, `{"name":"t","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`)
	rw := snapshotOf(t, `{"name":"t","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false}}`)
	for _, c := range []struct {
		base, head *manifest.Manifest
		rule       string
		effects    []string
	}{
		{ro, rw, rules.ToolAnnotationReadOnlyHintRemoved, []string{"destructiveHint false → true", "idempotentHint true → false"}},
		{rw, ro, rules.ToolAnnotationReadOnlyHintAdded, []string{"destructiveHint true → false", "idempotentHint false → true"}},
	} {
		var hints []string
		for _, f := range Diff(c.base, c.head, Options{}).Findings {
			if strings.HasPrefix(f.Rule, "tool-annotation-") {
				hints = append(hints, f.Rule)
				for _, e := range c.effects {
					if !strings.Contains(f.Message, e) {
						t.Errorf("%s: message %q does not name %q", f.Rule, f.Message, e)
					}
				}
			}
		}
		if len(hints) != 1 || hints[0] != c.rule {
			t.Errorf("hint findings = %v, want [%s]", hints, c.rule)
		}
	}
}

// ackPolicy acknowledges findings of one subject.
type ackPolicy struct{ subj finding.Subject }

func (p ackPolicy) Adjust(*finding.Finding) bool { return true }
func (p ackPolicy) Acknowledge(fs []finding.Finding) []finding.Finding {
	for i := range fs {
		if fs[i].Subject == p.subj {
			fs[i].Acknowledged = "ok"
		}
	}
	return fs
}

// One change repeated across tools is one finding per tool, each with
// its own fingerprint that does not move when another tool joins, and an
// acknowledgement of one tool covers that tool only.
func TestRepeatedChangeOnePerTool(t *testing.T) {
	tools := func(dialect string, names ...string) *manifest.Manifest {
		var ts []string
		for _, n := range names {
			ts = append(ts, `{"name":"`+n+`","inputSchema":{"$schema":"`+dialect+`","type":"object"}}`)
		}
		return snapshotOf(t, ts...)
	}
	const a, b = "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"
	dialect := func(r *Result) map[string]finding.Finding {
		out := map[string]finding.Finding{}
		for _, f := range r.Findings {
			if f.Rule == rules.ToolInputSchemaDialectChanged {
				if f.Subject.Kind != finding.KindTool {
					t.Errorf("a per-tool change has subject %v", f.Subject)
				}
				out[f.Subject.Name] = f
			}
		}
		return out
	}
	four := dialect(Diff(tools(a, "w", "x", "y", "z"), tools(b, "w", "x", "y", "z"), Options{}))
	five := dialect(Diff(tools(a, "v", "w", "x", "y", "z"), tools(b, "v", "w", "x", "y", "z"), Options{}))
	if len(four) != 4 || len(five) != 5 {
		t.Fatalf("want one finding per tool: %d and %d", len(four), len(five))
	}
	seen := map[string]bool{}
	for name, f := range four {
		if seen[f.Fingerprint] {
			t.Errorf("tool %s shares its fingerprint %s", name, f.Fingerprint)
		}
		seen[f.Fingerprint] = true
		if five[name].Fingerprint != f.Fingerprint {
			t.Errorf("tool %s: the fingerprint moved when a tool joined: %s → %s", name, f.Fingerprint, five[name].Fingerprint)
		}
		if strings.Contains(f.Message, "tools") {
			t.Errorf("tool %s: the message names other tools: %q", name, f.Message)
		}
	}
	one := dialect(Diff(tools(a, "w", "x", "y", "z"), tools(b, "w", "x", "y", "z"), Options{Policy: ackPolicy{finding.Subject{Kind: finding.KindTool, Name: "x"}}}))
	if len(one) != 4 {
		t.Fatalf("with tool x acknowledged: %+v", one)
	}
	for name, f := range one {
		if (name == "x") != (f.Acknowledged != "") {
			t.Errorf("acknowledgement by tool: %s acknowledged %q", name, f.Acknowledged)
		}
	}
}
