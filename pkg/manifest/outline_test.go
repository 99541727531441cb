package manifest_test

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func TestOutline(t *testing.T) {
	full := capturetest.Build(t, captureMode(t, testserver.ModeFull, "2025-06-18"))
	only := capturetest.Build(t, captureMode(t, testserver.ModeToolsOnly, "2025-06-18"))
	if got := manifest.Outline(full, full); got != nil {
		t.Errorf("same snapshot: %q", got)
	}
	got := strings.Join(manifest.Outline(full, only), "\n")
	for _, want := range []string{"capabilities changed", "prompts removed: ", "resources removed: "} {
		if !strings.Contains(got, want) {
			t.Errorf("outline has no %q:\n%s", want, got)
		}
	}
}
