package report_test

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestManifestHashes(t *testing.T) {
	one := &report.Report{Servers: []report.Section{{Server: "a", Head: &report.Side{ManifestHash: "h"}, Base: &report.Side{ManifestHash: "b"}}}}
	if h, b := one.ManifestHashes(); h != "h" || b != "b" {
		t.Errorf("one server: %q %q", h, b)
	}
	two := &report.Report{Servers: []report.Section{
		{Server: "z", Head: &report.Side{ManifestHash: "1"}},
		{Server: "a", Head: &report.Side{ManifestHash: "2"}, Base: &report.Side{ManifestHash: "3"}},
	}}
	if h, b := two.ManifestHashes(); h != "a=2\nz=1" || b != "a=3" {
		t.Errorf("two servers: %q %q", h, b)
	}
	if one.HasBreaking() {
		t.Error("no changes, yet breaking")
	}
}
