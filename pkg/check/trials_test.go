package check_test

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
			o.Environ, o.Baseline = os.Environ(), check.Baseline{File: base}
			res := run(t, o)
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
	o.Environ, o.Baseline, o.ProtocolVersion = os.Environ(), check.Baseline{File: base}, "2025-11-25"
	res := run(t, o)
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

// check against a stdio baseline of the same server over HTTP: a stateless
// HTTP server serves every revision the baseline lists (no finding); a
// stateful one lists only the older revisions, and head's trial of
// 2026-07-28 fails, which is an error (clients of 2026-07-28 cannot connect
// over that transport), not a warning about a list.
func TestHTTPHeadAgainstAStdioBaseline(t *testing.T) {
	t.Parallel()
	bm := captureSnapshot(t, stdioServer(testserver.ModeFull), "")
	if bm.ProtocolVersion != capture.LatestRevision || len(bm.SupportedVersions) < 2 {
		t.Fatalf("baseline at %s lists %v", bm.ProtocolVersion, bm.SupportedVersions)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := manifest.WriteFile(base, bm); err != nil {
		t.Fatal(err)
	}
	stateful, err := testserver.Handler(testserver.ModeFull, false)
	if err != nil {
		t.Fatal(err)
	}
	stateless, err := testserver.StatelessHandler(testserver.ModeFull)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
		want map[string]int
	}{
		{"stateless", stateless, map[string]int{}},
		{"stateful", stateful, map[string]int{rules.ProtocolVersionNoLongerSupported: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(c.h)
			defer ts.Close()
			o := options(t, check.Server{Name: c.name, URL: ts.URL})
			o.Baseline = check.Baseline{File: base}
			res := run(t, o)
			got := map[string]int{}
			for _, f := range res.Servers[0].Diff.Findings {
				if strings.HasPrefix(f.Rule, "protocol-version-no-longer") {
					got[f.Rule]++
				}
			}
			if n := len(res.Servers[0].Diff.Findings); c.name == "stateless" && n != 0 {
				t.Errorf("stateless HTTP against the stdio baseline: %d changes, want none: %v", n, ruleCounts(res.Servers[0].Diff.Findings))
			}
			if !maps.Equal(got, c.want) {
				t.Errorf("withdrawn revisions: %v, want %v (all: %v)", got, c.want, ruleCounts(res.Servers[0].Diff.Findings))
			}
		})
	}
}
