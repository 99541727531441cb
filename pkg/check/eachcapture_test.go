//go:build unix

package check_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// shellServer is a stdio server started by a shell command line.
func shellServer(name, line string) check.Server {
	return check.Server{Name: name, Shell: true, Command: []string{line}}
}

// testServerLine is the shell command that execs the test binary as the
// test server of mode.
func testServerLine(mode string) string {
	return testserver.EnvVar + "=" + mode + " exec " + os.Args[0]
}

// handed is what EachCapture handed f, one entry per call.
type handed struct {
	index    int
	failed   bool
	manifest []string // the manifest hash of each capture
}

func eachCapture(t *testing.T, o check.Options, revisions []string) ([]handed, error) {
	t.Helper()
	var got []handed
	err := check.EachCapture(context.Background(), o, revisions, func(i int, caps []*capture.Capture, err error) error {
		h := handed{index: i, failed: err != nil}
		for _, c := range caps {
			c.Wait()
			if err == nil {
				m, merr := manifest.Build(c)
				if merr != nil {
					t.Errorf("server %d: %v", i, merr)
					continue
				}
				h.manifest = append(h.manifest, m.Fingerprints.Manifest)
			}
		}
		got = append(got, h)
		return nil
	})
	return got, err
}

// Three servers captured at once are handed on in their order, each with
// one capture per revision, as one job at a time hands them.
func TestEachCaptureKeepsTheServersOrder(t *testing.T) {
	o := options(t,
		shellServer("full", testServerLine(testserver.ModeFull)),
		shellServer("tools", testServerLine(testserver.ModeToolsOnly)),
		shellServer("again", testServerLine(testserver.ModeFull)))
	o.Environ = os.Environ()
	revs := []string{"2025-06-18", "2025-11-25"}
	var runs [][]handed
	for _, jobs := range []int{1, 3} {
		o.Jobs = jobs
		got, err := eachCapture(t, o, revs)
		if err != nil {
			t.Fatalf("jobs %d: %v", jobs, err)
		}
		runs = append(runs, got)
	}
	if diff := cmp.Diff(runs[0], runs[1], cmp.AllowUnexported(handed{})); diff != "" {
		t.Errorf("three jobs hand on another sequence than one (-one +three):\n%s", diff)
	}
	if len(runs[1]) != 3 || runs[1][0].index != 0 || runs[1][2].index != 2 || len(runs[1][1].manifest) != 2 {
		t.Fatalf("handed: %+v", runs[1])
	}
	if runs[1][0].manifest[1] == runs[1][1].manifest[1] || runs[1][0].manifest[1] != runs[1][2].manifest[1] {
		t.Errorf("each server's captures must be its own: %+v", runs[1])
	}
}

// When two of three servers fail, the error is the first one's in the
// servers' order, whichever failed first: the last one fails at once,
// the second once the first is about to start. The first still runs to
// its end and is handed on; nothing after the failed one is.
func TestEachCaptureReportsTheFirstFailureInOrder(t *testing.T) {
	dir := t.TempDir()
	gate := filepath.Join(dir, "second-started")
	o := options(t,
		shellServer("first", `until [ -f "$GATE" ]; do sleep 0.01; done; sleep 0.2; `+testServerLine(testserver.ModeFull)),
		shellServer("second", `touch "$GATE"; `+testServerLine(testserver.ModeCrashHandshake)),
		shellServer("third", testServerLine(testserver.ModeCrashHandshake)))
	o.Environ = append(os.Environ(), "GATE="+gate)
	for _, jobs := range []int{1, 3} {
		if jobs == 1 {
			// One at a time the first waits for a gate no one opens.
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			os.Remove(gate)
		}
		o.Jobs = jobs
		got, err := eachCapture(t, o, nil)
		if err == nil || !strings.Contains(err.Error(), "capturing second (") {
			t.Fatalf("jobs %d: error %v, want the second server's", jobs, err)
		}
		want := []handed{{index: 0, manifest: got[0].manifest}, {index: 1, failed: true}}
		if len(got) != 2 || len(got[0].manifest) != 1 {
			t.Fatalf("jobs %d: handed %+v, want the first (captured) and the second (failed)", jobs, got)
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(handed{})); diff != "" {
			t.Errorf("jobs %d (-want +got):\n%s", jobs, diff)
		}
	}
}

// An error f returns stops the run: it is what EachCapture returns, and
// no later server is handed on.
func TestEachCaptureStopsAtTheCallersError(t *testing.T) {
	o := options(t,
		shellServer("a", testServerLine(testserver.ModeToolsOnly)),
		shellServer("b", testServerLine(testserver.ModeToolsOnly)),
		shellServer("c", testServerLine(testserver.ModeToolsOnly)))
	o.Environ, o.Jobs, o.DeferShutdown = os.Environ(), 3, true
	stop := errors.New("stop here")
	var seen []int
	err := check.EachCapture(context.Background(), o, nil, func(i int, caps []*capture.Capture, err error) error {
		for _, c := range caps {
			c.Wait()
		}
		seen = append(seen, i)
		if i == 1 {
			return stop
		}
		return err
	})
	if !errors.Is(err, stop) || !slices.Equal(seen, []int{0, 1}) {
		t.Errorf("error %v after servers %v, want %v after 0 and 1", err, seen, stop)
	}
}
