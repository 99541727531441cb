package manifest_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func extManifest(t *testing.T, mode string, flat bool) *manifest.Manifest {
	t.Helper()
	return capturetest.Build(t, capturetest.InProcess(t, mode, capture.Options{FlatView: flat}))
}

// Skills and groups are written, read back the same, and fingerprinted.
func TestExtensionsRoundTrip(t *testing.T) {
	m := extManifest(t, testserver.ModeExtensions, true)
	x := m.Ext
	if x == nil || len(x.Skills) != 2 || len(x.Groups) != 3 {
		t.Fatalf("extensions = %+v", x)
	}
	pdf, ok := x.Skill("skill://pdf-processing/SKILL.md")
	if !ok || !pdf.HasText || !strings.Contains(pdf.Text, "# PDF processing") || !strings.Contains(string(pdf.Resources), "extract.py") {
		t.Errorf("pdf-processing = %+v", pdf)
	}
	triage, ok := x.Group("triage")
	if !ok || len(triage.Tools) != 1 || triage.Tools[0].ID != "assign_issue" || len(triage.Parents) != 1 || triage.Parents[0] != "issues" {
		t.Errorf("triage = %+v", triage)
	}
	if got := x.Flat[manifest.ListTools]; len(got) != 6 {
		t.Errorf("flat tools = %v", got)
	}
	if len(m.Fingerprints.Skills) != 2 || len(m.Fingerprints.Groups) != 3 {
		t.Errorf("fingerprints: %d skills, %d groups", len(m.Fingerprints.Skills), len(m.Fingerprints.Groups))
	}
	enc := capturetest.Encode(t, m)
	back := capturetest.Read(t, enc)
	again := capturetest.Encode(t, back)
	if !bytes.Equal(enc, again) {
		t.Errorf("round trip changed the file:\n%s\n---\n%s", enc, again)
	}
	if back.Fingerprints.Manifest != m.Fingerprints.Manifest {
		t.Error("manifest hash changed on reading back")
	}
	// A change to a skill file changes the manifest hash and that skill's contract print only.
	h := extManifest(t, testserver.ModeExtensionsChanged, false)
	if h.Fingerprints.Manifest == m.Fingerprints.Manifest {
		t.Error("a changed skill left the manifest hash alone")
	}
	uri := "skill://pdf-processing/SKILL.md"
	if h.Fingerprints.Skills[uri].Contract == m.Fingerprints.Skills[uri].Contract {
		t.Error("FORMS.md's digest changed, the contract print did not")
	}
}

// A server without extensions keeps the snapshot it had.
func TestNoExtensionsNoMember(t *testing.T) {
	m := extManifest(t, testserver.ModeToolsOnly, false)
	enc := capturetest.Encode(t, m)
	if m.Ext != nil || bytes.Contains(enc, []byte(`"extensions"`)) {
		t.Errorf("a server without extensions got an extensions member")
	}
}

func TestExtensionsMatchTheSnapshotSchema(t *testing.T) {
	sch := snapshotSchema(t)
	for _, mode := range []string{testserver.ModeExtensions, testserver.ModeExtensionsToolbox, testserver.ModeExtensionsUnknown} {
		enc := capturetest.Encode(t, extManifest(t, mode, true))
		if err := validateSnapshot(t, sch, enc); err != nil {
			t.Errorf("%s: %v", mode, err)
		}
	}
}
