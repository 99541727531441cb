package spec

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

var update = flag.Bool("update", false, "rewrite the want section of testdata/*.txtar from the current output")

// A fixture is one behaviour, in testdata/NAME.txtar:
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
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	triggered := map[string][]string{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runFixture(t, ar, schemas)
			for _, f := range got {
				triggered[f.Rule] = append(triggered[f.Rule], name)
			}
			gotText := render(got)
			if *update {
				txtartest.Set(ar, "want", gotText)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := string(txtartest.Data(ar, "want"))
			if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(gotText, "\n")); diff != "" {
				t.Errorf("findings differ (-want +got); run go test -run TestFixtures -update to accept:\n%s", diff)
			}
		})
	}
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
	c := captureFromFrames(t, parseFrames(t, txtartest.Data(ar, "frames")))
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
	for _, line := range strings.Split(string(txtartest.Data(ar, "diagnostics")), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var d capture.Diagnostic
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("diagnostic %q: %v", line, err)
		}
		c.Diagnostics = append(c.Diagnostics, d)
	}
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
