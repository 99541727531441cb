package check_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Captures stops at a failed list unless a partial capture is allowed.
func TestCapturesOfAFailedList(t *testing.T) {
	t.Parallel()
	o := options(t, stdioServer(testserver.ModeListFailed))
	o.Environ = os.Environ()
	caps, err := check.Captures(context.Background(), o, nil)
	var ie *capture.IncompleteError
	if !errors.As(err, &ie) || len(ie.Failures) != 1 || ie.Failures[0].Method != capture.MethodToolsList || ie.Failures[0].Code != testserver.CodeInternalError {
		t.Fatalf("error %v, want an IncompleteError naming tools/list -32603", err)
	}
	if len(caps) != 1 || !strings.Contains(err.Error(), testserver.ListFailedMessage) {
		t.Errorf("%d captures, error %q", len(caps), err)
	}
	o.AllowPartial = true
	caps, err = check.Captures(context.Background(), o, nil)
	if err != nil || len(caps) != 1 {
		t.Fatalf("AllowPartial: %v", err)
	}
	caps[0].Wait()
	m, err := manifest.Build(caps[0])
	if err != nil || !m.Incomplete() || len(m.Prompts) != 2 {
		t.Fatalf("snapshot: %v, %+v", err, m)
	}
}

// Run goes on with a head whose list failed: the failed list is a
// finding, no tool is removed, no cost is counted for unknown tools, and
// Result.Incomplete names it.
func TestRunWithAFailedList(t *testing.T) {
	t.Parallel()
	o := options(t, stdioServer(testserver.ModePagedRaw))
	o.Environ, o.AllowPartial = os.Environ(), false
	caps, err := check.Captures(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	caps[0].Wait()
	base := filepath.Join(t.TempDir(), "base.json")
	if m, err := manifest.Build(caps[0]); err != nil {
		t.Fatal(err)
	} else if err := manifest.WriteFile(base, m); err != nil {
		t.Fatal(err)
	}
	o = options(t, stdioServer(testserver.ModeListFailed))
	o.Environ, o.Baseline = os.Environ(), check.Baseline{File: base}
	res := run(t, o)
	got := ruleCounts(res.Findings)
	if got[rules.SurfaceListFailed] != 1 || got[rules.ToolRemoved] != 0 || got[rules.PromptRemoved] != 0 || got[rules.ListRequestFailed] != 1 {
		t.Errorf("findings %v, want surface-list-failed and list-request-failed, no removal", got)
	}
	inc := res.Incomplete()
	if len(inc) != 1 || !strings.Contains(inc[0], "head: tools/list page 1 answered with error -32603") {
		t.Errorf("Incomplete = %q", inc)
	}
	if sec := res.Servers[0].Section; sec.CostHead != nil {
		t.Errorf("cost head %v: head's tools are unknown", sec.CostHead)
	}
	if !res.Servers[0].Diff.Incomplete {
		t.Error("the diff is not Incomplete")
	}
}
