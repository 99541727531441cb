package check_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A revision base listed and head's server/discover no longer lists is
// tried at head before the diff may call it withdrawn: accepted, no
// finding; refused, an error. The same two snapshots diffed without a
// trial keep the warning that says no session tried it.
func TestUnlistedRevisionsAreTried(t *testing.T) {
	t.Parallel()
	const dropped, alsoDropped = "2025-06-18", "2024-11-05"
	for _, c := range []struct {
		mode     string
		accepted bool
		want     string
	}{
		{testserver.ModeDiscoverUnlisted, true, ""},
		{testserver.ModeDiscoverRefusesUnlisted, false, rules.ProtocolVersionNoLongerSupported},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			// Base: the same server, when it still listed the two
			// revisions it now leaves out.
			bm := captureSnapshot(t, stdioServer(c.mode), "")
			if !slices.Equal(bm.SupportedVersions, []string{testserver.DiscoverListed}) || bm.ProtocolVersion != testserver.DiscoverListed {
				t.Fatalf("head lists %v at %s, want only %s (the discover answer kept)", bm.SupportedVersions, bm.ProtocolVersion, testserver.DiscoverListed)
			}
			headOnly := *bm
			bm.SupportedVersions = []string{alsoDropped, dropped, testserver.DiscoverListed}
			base := filepath.Join(t.TempDir(), "base.json")
			if err := manifest.WriteFile(base, bm); err != nil {
				t.Fatal(err)
			}

			o := options(t, stdioServer(c.mode))
			o.Environ, o.Baseline = os.Environ(), base
			res, err := check.Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			head := res.Servers[0].Head
			for _, v := range []string{dropped, alsoDropped} {
				if tr, ok := head.Trial(v); !ok || tr.Accepted() != c.accepted {
					t.Errorf("trial of %s = %+v (made: %v), want accepted %v", v, tr, ok, c.accepted)
				}
			}
			if _, ok := head.Trial(testserver.DiscoverListed); ok {
				t.Errorf("head's own revision was tried again")
			}
			got := ruleCounts(res.Findings)
			if got[rules.ProtocolVersionNoLongerListed] != 0 {
				t.Errorf("%s although every unlisted revision was tried: %v", rules.ProtocolVersionNoLongerListed, got)
			}
			if c.want != "" && got[c.want] != 2 {
				t.Errorf("%d %s, want one per refused revision: %v", got[c.want], c.want, got)
			}
			if c.accepted && res.Fails(rules.LevelWarning, nil) {
				t.Errorf("findings at warning or above for revisions the server accepts: %v", got)
			}

			// No trial possible: the snapshots alone keep the warning.
			fs := diff.Diff(bm, &headOnly, diff.Options{}).Findings
			n := 0
			for _, f := range fs {
				if f.Rule == rules.ProtocolVersionNoLongerListed {
					n++
					if f.Level != rules.LevelWarning {
						t.Errorf("%s at %s, want warning", f.Rule, f.Level)
					}
				}
			}
			if n != 2 {
				t.Errorf("diff of the snapshots: %d %s, want 2", n, rules.ProtocolVersionNoLongerListed)
			}
		})
	}
}

// A resources.subscribe that answered -32601 at base and is no longer
// advertised at head is a fix (a note), end to end over stdio.
func TestNeverWorkingSubscribeWithdrawn(t *testing.T) {
	t.Parallel()
	bm := captureSnapshot(t, stdioServer(testserver.ModeSubscribeUnimplemented), "2025-11-25")
	if bm.FailedMethods[capture.MethodResourcesSubscribe] != capture.CodeMethodNotFound {
		t.Fatalf("base's failedMethods = %v, want resources/subscribe: -32601", bm.FailedMethods)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := manifest.WriteFile(base, bm); err != nil {
		t.Fatal(err)
	}
	o := options(t, stdioServer(testserver.ModeSubscribeWithdrawn))
	o.Environ, o.Baseline, o.ProtocolVersion = os.Environ(), base, "2025-11-25"
	res, err := check.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	got := ruleCounts(res.Findings)
	if got[rules.CapabilityResourcesSubscribeRemoved] != 0 || got[rules.CapabilityUnimplementedRemoved] != 1 {
		t.Errorf("withdrawal of a subscribe that never worked: %v, want one %s and no %s",
			got, rules.CapabilityUnimplementedRemoved, rules.CapabilityResourcesSubscribeRemoved)
	}
	for _, f := range res.Findings {
		if f.Level == rules.LevelError || f.Level == rules.LevelWarning {
			t.Errorf("%s at %s: %s", f.Rule, f.Level, f.Message)
		}
	}
}
