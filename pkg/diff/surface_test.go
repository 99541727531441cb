package diff

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// snapshotOf is a snapshot of the given tools (raw JSON objects).
func snapshotOf(t *testing.T, tools ...string) *manifest.Manifest {
	t.Helper()
	raw := `{"snapshotVersion":1,"protocolVersion":"2025-11-25","serverInfo":{"name":"demo","version":"1.0.0"},"capabilities":{"tools":{}},"tools":[` + strings.Join(tools, ",") + `]}`
	m, err := manifest.FromCanonicalJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
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
