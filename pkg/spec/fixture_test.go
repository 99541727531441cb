package spec

import (
	"bufio"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A fixture is one behaviour, in testdata/NAME.txtar, in the vocabulary
// of internal/testkit/txtartest:
//
//	comment: what the server does wrong (or right)
//	-- capture --    optional "key: value" lines overriding what the frames
//	                 imply (protocolVersion, handshake, requestedVersion)
//	-- frames --     "> json" sent by the client, "< json" received
//	-- diagnostics --  optional, one capture.Diagnostic per line (JSON)
//	-- snapshot --   instead of frames: a snapshot-shaped object, validated
//	                 with ValidateManifest
//	-- want --       the findings: level rule kind "name" "pointer", then
//	                 the message on the next line, indented
func TestFixtures(t *testing.T) {
	schemas := testSchemas(t)
	triggered := map[string][]string{}
	fixtures := txtartest.Load(t, "testdata", "capture", "frames", "diagnostics", "snapshot", "want")
	txtartest.Run(t, fixtures, func(t *testing.T, fx *txtartest.Fixture) []txtartest.Got {
		got := runFixture(t, fx.Archive, schemas)
		for _, f := range got {
			triggered[f.Rule] = append(triggered[f.Rule], fx.Name)
		}
		return []txtartest.Got{{Section: "want", Text: render(got)}}
	})
	t.Run("every-rule-has-a-fixture", func(t *testing.T) {
		ids := rules.ProducedBy("pkg/spec")
		if !slices.IsSorted(ids) {
			t.Errorf("rules.ProducedBy is not sorted")
		}
		for _, id := range ids {
			r, ok := rules.Lookup(id)
			switch {
			case !ok:
				t.Errorf("rule %s is not in the rules table", id)
			case r.Kind != rules.KindSpec && r.Kind != rules.KindLint:
				t.Errorf("rule %s has kind %q, want spec or lint", id, r.Kind)
			case !r.HasTag("spec") && !r.HasTag("lint"):
				t.Errorf("rule %s has neither the spec nor the lint tag", id)
			case r.Summary == "" || r.Help == "" || strings.HasSuffix(r.Summary, "."):
				t.Errorf("rule %s needs a one-line summary without a period and help text", id)
			}
			if len(triggered[id]) == 0 {
				t.Errorf("rule %s is triggered by no fixture in testdata", id)
			}
		}
		for id, where := range triggered {
			if !slices.Contains(ids, id) {
				t.Errorf("fixture %s reports rule %s, whose row in pkg/rules does not name pkg/spec as a producer", where[0], id)
			}
		}
	})
}

func runFixture(t *testing.T, ar *txtar.Archive, schemas *Schemas) []finding.Finding {
	t.Helper()
	if snap := txtartest.Data(ar, "snapshot"); snap != nil {
		m := manifestFromJSON(t, snap)
		fs, err := ValidateManifest(m, schemas)
		if err != nil {
			t.Fatal(err)
		}
		checkRevision(t, fs, m.ProtocolVersion)
		return fs
	}
	c := capturetest.FromFrames(t, capturetest.ParseFrames(t, txtartest.Data(ar, "frames")))
	sc := bufio.NewScanner(strings.NewReader(string(txtartest.Data(ar, "capture"))))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "protocolVersion":
			c.ProtocolVersion = v
		case "handshake":
			c.Handshake = v
		case "requestedVersion":
			c.RequestedVersion = v
		default:
			t.Fatalf("unknown capture key %q", k)
		}
	}
	c.Diagnostics = append(c.Diagnostics, txtartest.JSONLines[capture.Diagnostic](t, ar, "diagnostics")...)
	fs, err := validate(c, schemas)
	if err != nil {
		t.Fatal(err)
	}
	checkRevision(t, fs, c.ProtocolVersion)
	return fs
}

func checkRevision(t *testing.T, fs []finding.Finding, rev string) {
	t.Helper()
	sorted := slices.Clone(fs)
	finding.Sort(sorted)
	for i, f := range fs {
		if f.Revision != rev {
			t.Errorf("finding %s has revision %q, want %q", f.Rule, f.Revision, rev)
		}
		if sorted[i].Fingerprint != f.Fingerprint {
			t.Errorf("findings are not sorted")
			break
		}
	}
}
