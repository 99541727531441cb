package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// levelFits reports whether a finding's level and severity are its rule's,
// or, for a schema change, what its witness search made of them (see
// prove): raised to error with a witness, lowered to warning without one,
// a pattern proven compatible lowered to a note.
func levelFits(f finding.Finding, r rules.Rule) bool {
	if f.Level == r.Level && f.Severity == r.Severity {
		return f.Witness == nil || f.Level == rules.LevelError
	}
	switch {
	case f.Witness != nil:
		return f.Level == rules.LevelError && f.Severity == rules.SeverityBreaking
	case r.Severity == rules.SeverityBreaking:
		return f.Level == rules.LevelWarning && f.Severity == rules.SeverityRisky
	case r.ID == rules.InputPatternChanged || r.ID == rules.OutputPatternChanged:
		return f.Level == rules.LevelNote && f.Severity == rules.SeverityMinor
	}
	return false
}

// TestWitnessFixtures runs testdata/witness-*.txtar: the schema findings
// of Diff(base, head), each with its level, message and witness, in the
// section want.witness (rewritten with -update). Every witness is checked
// again by a freshly compiled validator against the tool's two schemas.
func TestWitnessFixtures(t *testing.T) {
	var fxs []*fixture
	for _, fx := range loadFixtures(t) {
		if strings.HasPrefix(fx.Name, "witness-") {
			fxs = append(fxs, fx)
		}
	}
	if len(fxs) < 10 {
		t.Errorf("%d witness fixtures, want at least 10", len(fxs))
	}
	txtartest.Run(t, fxs, func(t *testing.T, fx *fixture) []txtartest.Got {
		fs := Diff(fx.base, fx.head, fx.opts).Findings
		for _, f := range fs {
			checkWitness(t, fx.base, fx.head, f)
		}
		return []txtartest.Got{{Section: "want.witness", Text: renderWitnesses(fs)}}
	})
}

// renderWitnesses is one line per input-*/output-* finding (rule, level,
// pointer, message) and, under it, its witness.
func renderWitnesses(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		if !strings.HasPrefix(f.Rule, "input-") && !strings.HasPrefix(f.Rule, "output-") {
			continue
		}
		fmt.Fprintf(&b, "%s %s %s %s\n", f.Rule, f.Level, field(f.Pointer), f.Message)
		if f.Witness != nil {
			fmt.Fprintf(&b, "\twitness %s accepts=%s rejects=%s\n", f.Witness.Value, f.Witness.Accepts, f.Witness.Rejects)
			if f.Witness.Formats != "" {
				fmt.Fprintf(&b, "\tformats: %s\n", f.Witness.Formats)
			}
		}
	}
	return b.String()
}

// schemaOf is a tool's inputSchema or outputSchema in a snapshot.
func schemaOf(t *testing.T, m *manifest.Manifest, tool, key string) json.RawMessage {
	t.Helper()
	for _, it := range m.Tools {
		if it.ID != tool {
			continue
		}
		var item map[string]json.RawMessage
		if err := json.Unmarshal(it.Raw, &item); err != nil {
			t.Fatal(err)
		}
		return item[key]
	}
	return nil
}

// checkWitness validates a finding's witness as it claims, with a fresh
// validator (a new Pair, nothing shared with the diff that found it).
func checkWitness(t *testing.T, base, head *manifest.Manifest, f finding.Finding) {
	t.Helper()
	if f.Witness == nil {
		return
	}
	key, dir := "inputSchema", schemadiff.Input
	if strings.HasPrefix(f.Pointer, "/outputSchema") {
		key, dir = "outputSchema", schemadiff.Output
	}
	bs, hs := schemaOf(t, base, f.Subject.Name, key), schemaOf(t, head, f.Subject.Name, key)
	bOK, hOK, err := witness.NewPair(bs, hs, dir, witness.Options{}).Check(f.Witness.Value)
	if err != nil {
		t.Errorf("%s: witness %s: %v", f.Rule, f.Witness.Value, err)
		return
	}
	wantBase := f.Witness.Accepts == finding.SideBase
	if f.Witness.Accepts == f.Witness.Rejects || bOK != wantBase || hOK == wantBase {
		t.Errorf("%s: witness %s claims accepts=%s rejects=%s; base valid %v, head valid %v", f.Rule, f.Witness.Value, f.Witness.Accepts, f.Witness.Rejects, bOK, hOK)
	}
	if (dir == schemadiff.Input) != wantBase {
		t.Errorf("%s: a %s witness accepted by %s", f.Rule, dir, f.Witness.Accepts)
	}
	if f.Level != rules.LevelError {
		t.Errorf("%s: a finding with a witness at level %s", f.Rule, f.Level)
	}
}
