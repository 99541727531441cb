package check_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// TestMain lets the build-the-base test re-execute this binary as a stdio
// test server.
func TestMain(m *testing.M) {
	testserver.MaybeRunFromEnv()
	os.Exit(m.Run())
}

// schemas loads the published schemas.
func schemas(t *testing.T) *spec.Schemas {
	t.Helper()
	dir, err := spectest.Dir()
	sharedtest.Require(t, err)
	s, err := spec.Load(context.Background(), spec.Options{Dir: dir, NoDownload: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func inProcess(t *testing.T, mode string) check.Server {
	t.Helper()
	s, err := testserver.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	return check.Server{Name: mode, InProcess: s}
}

// snapshotOf captures a mode in-process and returns its snapshot.
func snapshotOf(t *testing.T, mode string) *manifest.Manifest {
	t.Helper()
	return captureSnapshot(t, inProcess(t, mode), "")
}

// captureSnapshot captures s, asking for protocol ("": the default).
func captureSnapshot(t *testing.T, s check.Server, protocol string) *manifest.Manifest {
	t.Helper()
	c, err := capture.Run(context.Background(), s.Target(os.Environ(), ""), capture.Options{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	return capturetest.Build(t, c)
}

// snapshotFile captures s (asking for protocol) into a snapshot file of
// its own and returns its path, for a baseline.
func snapshotFile(t *testing.T, s check.Server, protocol string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "base.json")
	if err := manifest.WriteFile(path, captureSnapshot(t, s, protocol)); err != nil {
		t.Fatal(err)
	}
	return path
}

// parseConfig parses a configuration given as YAML under name.
func parseConfig(t *testing.T, name, src string) *config.Config {
	t.Helper()
	cfg, err := config.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func options(t *testing.T, servers ...check.Server) check.Options {
	return check.Options{Servers: servers, Schemas: schemas(t), Version: "test", Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// removalOptions check the tools-only server against a snapshot file of
// the full one as the baseline (its prompts and resources removed), with
// cfg (nil: none).
func removalOptions(t *testing.T, cfg *config.Config) check.Options {
	o := options(t, inProcess(t, testserver.ModeToolsOnly))
	o.Baseline = check.Baseline{File: snapshotFile(t, inProcess(t, testserver.ModeFull), "")}
	o.Config = cfg
	return o
}

// run is check.Run, failing the test on an error.
func run(t *testing.T, o check.Options) *check.Result {
	t.Helper()
	res, err := check.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ruleCounts(fs []finding.Finding) map[string]int {
	out := map[string]int{}
	for _, f := range fs {
		out[f.Rule]++
	}
	return out
}

func TestNoBaseline(t *testing.T) {
	t.Parallel()
	o := options(t, inProcess(t, testserver.ModeFull))
	o.Baseline = check.Baseline{Mode: check.BaselineNone}
	res := run(t, o)
	if len(res.Servers) != 1 || len(res.Report.Servers) != 1 {
		t.Fatalf("servers = %d, sections = %d", len(res.Servers), len(res.Report.Servers))
	}
	out := res.Servers[0]
	if out.Head == nil || out.Base != nil || out.Diff != nil || out.Capture == nil {
		t.Errorf("outcome = head %v, base %v, diff %v", out.Head != nil, out.Base != nil, out.Diff != nil)
	}
	if len(out.Section.Changes()) != 0 || !slices.Contains(out.Section.Notes, "no baseline: the surface was validated, not compared") {
		t.Errorf("section = %+v", out.Section)
	}
	if res.Report.Version != "test" || out.Section.Command != "check" {
		t.Errorf("report version %q, command %q", res.Report.Version, out.Section.Command)
	}
}

// A snapshot file as the baseline: removals fail at error, additions do
// not; policy turns a rule off and acknowledges another.
func TestBaselineFile(t *testing.T) {
	t.Parallel()
	o := removalOptions(t, nil)
	res := run(t, o)
	got := ruleCounts(res.Findings)
	for _, want := range []string{"prompt-removed", "capability-prompts-removed"} {
		if got[want] == 0 {
			t.Errorf("no %s finding; got %v", want, got)
		}
	}
	if !res.Fails(rules.LevelError, nil) {
		t.Errorf("removals do not fail at error")
	}
	if out := res.Servers[0]; out.BaseLabel != o.Baseline.File || out.Diff == nil || out.Section.Base == nil {
		t.Errorf("base label %q, diff %v", out.BaseLabel, out.Diff != nil)
	}

	cfg := parseConfig(t, "c.yaml", "severity:\n  capability-prompts-removed: off\nacknowledged:\n  - rule: prompt-removed\n    prompt: '*'\n    reason: moved to another server\n")
	o.Config = cfg
	res = run(t, o)
	got = ruleCounts(res.Findings)
	if got["capability-prompts-removed"] != 0 {
		t.Errorf("a rule turned off is still reported: %v", got)
	}
	for _, f := range res.Findings {
		if f.Rule == "prompt-removed" && f.Acknowledged != "moved to another server" {
			t.Errorf("not acknowledged: %+v", f)
		}
	}

	// The other way round: additions only.
	only := snapshotFile(t, inProcess(t, testserver.ModeToolsOnly), "")
	o = options(t, inProcess(t, testserver.ModeFull))
	o.Baseline = check.Baseline{File: only}
	res = run(t, o)
	if res.Fails(rules.LevelError, nil) {
		t.Errorf("additions fail at error: %v", ruleCounts(res.Findings))
	}
	if ruleCounts(res.Findings)["prompt-added"] == 0 {
		t.Errorf("no prompt-added: %v", ruleCounts(res.Findings))
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := check.Run(ctx, check.Options{}); !errors.Is(err, check.ErrNoServer) {
		t.Errorf("no servers: %v", err)
	}
	o := options(t, inProcess(t, testserver.ModeFull), inProcess(t, testserver.ModeFull))
	if _, err := check.Run(ctx, o); err == nil || !strings.Contains(err.Error(), "two servers are named") {
		t.Errorf("duplicate names: %v", err)
	}
	o = options(t, inProcess(t, testserver.ModeFull))
	o.Baseline = check.Baseline{Mode: check.BaselineBuild}
	if _, err := check.Run(ctx, o); !errors.Is(err, check.ErrBuildNeedsBaseRef) {
		t.Errorf("build without a base ref: %v", err)
	}
	// A limit error names the limit, not a flag.
	o = options(t, inProcess(t, testserver.ModeFull))
	o.Baseline = check.Baseline{Mode: check.BaselineNone}
	o.Limits.MaxBytes = 10
	_, err := check.Run(ctx, o)
	var le *capture.LimitError
	if !errors.As(err, &le) || le.Limit != capture.LimitTotalBytes || strings.Contains(err.Error(), "--") {
		t.Errorf("limit: %v", err)
	}
	// Schemas that cannot be found stop the run before any server starts.
	o = options(t, inProcess(t, testserver.ModeFull))
	o.Schemas, o.SchemaOptions = nil, spec.Options{Dir: t.TempDir(), NoDownload: true}
	var nf *spec.NotFoundError
	if _, err := check.Run(ctx, o); !errors.As(err, &nf) {
		t.Errorf("no schemas: %v", err)
	}
}

func TestFails(t *testing.T) {
	t.Parallel()
	fs := []finding.Finding{finding.New("tool-description-changed", finding.Subject{Kind: finding.KindTool, Name: "t"}, "/description", "m", nil, nil)}
	level := fs[0].Level
	if !check.Fails(fs, level, nil) || check.Fails(fs, "", nil) {
		t.Errorf("by level %s", level)
	}
	tags := fs[0].Tags
	if len(tags) > 0 && !check.Fails(fs, "", tags[:1]) {
		t.Errorf("by tag %s", tags[0])
	}
	fs[0].Acknowledged = "ok"
	if len(tags) > 0 && check.Fails(fs, "", tags[:1]) {
		t.Errorf("an acknowledged finding fails by tag")
	}
}

// The snapshot committed at the base ref is the baseline; the stale
// snapshot in the work tree is reported.
func TestSnapshotAtRef(t *testing.T) {
	t.Parallel()
	repo := gittest.New(t)
	repo.Write("mcp-surface.json", capturetest.Encode(t, snapshotOf(t, testserver.ModeFull)))
	base := repo.Commit("base")
	repo.Write("README", []byte("head\n"))
	repo.Commit("head")

	s := inProcess(t, testserver.ModeToolsOnly)
	s.Snapshot = "mcp-surface.json"
	o := options(t, s)
	o.RepoDir, o.BaseRef = repo.Dir, base
	res := run(t, o)
	out := res.Servers[0]
	if want := "mcp-surface.json at " + base[:12]; out.BaseLabel != want {
		t.Errorf("base label %q, want %q", out.BaseLabel, want)
	}
	got := ruleCounts(res.Findings)
	for _, want := range []string{"prompt-removed", "snapshot-out-of-date"} {
		if got[want] == 0 {
			t.Errorf("no %s finding; got %v", want, got)
		}
	}
	if len(out.Section.Locations) == 0 {
		t.Errorf("no finding was located in the repository")
	}
}

// Without a committed snapshot the base is built and captured in a
// temporary worktree, with the build command run at head and at base.
func TestBuildTheBase(t *testing.T) {
	t.Parallel()
	repo := gittest.New(t)
	repo.Write("mode.txt", []byte(testserver.ModeToolsOnly+"\n"))
	base := repo.Commit("base")
	repo.Write("mode.txt", []byte(testserver.ModeFull+"\n"))
	repo.Commit("head")

	s := check.Server{Name: "stdio", Shell: true, Command: []string{testserver.EnvVar + "=$(cat mode.txt) exec " + os.Args[0]}}
	o := options(t, s)
	o.RepoDir, o.BaseRef, o.Build = repo.Dir, base, "echo built >&2"
	o.Environ = os.Environ()
	var build bytes.Buffer
	var logs []string
	o.BuildOutput = &build
	o.Log = func(format string, args ...any) { logs = append(logs, format) }
	res := run(t, o)
	if want := base[:12] + " (built)"; res.Servers[0].BaseLabel != want {
		t.Errorf("base label %q, want %q", res.Servers[0].BaseLabel, want)
	}
	if got := ruleCounts(res.Findings); got["prompt-added"] == 0 || res.Fails(rules.LevelError, nil) {
		t.Errorf("findings %v", got)
	}
	if strings.Count(build.String(), "built") != 2 {
		t.Errorf("build output %q, want one line at head and one at base", build.String())
	}
	if !slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, "worktree") }) {
		t.Errorf("logs %q", logs)
	}
}

// An expired acknowledgement is one finding, although the policy runs
// over both the spec gate's findings and the diff's.
func TestExpiredAcknowledgementOnce(t *testing.T) {
	t.Parallel()
	res := run(t, removalOptions(t, parseConfig(t, "c.yaml", "acknowledged:\n  - rule: prompt-removed\n    prompt: '*'\n    reason: moved\n    expires: 2020-01-01\n")))
	if n := ruleCounts(res.Findings)[rules.ConfigAcknowledgementExpired]; n != 1 {
		t.Errorf("%d config-acknowledgement-expired findings, want 1: %v", n, ruleCounts(res.Findings))
	}
}

// stdioServer re-executes this test binary as a raw test server.
func stdioServer(mode string) check.Server {
	return check.Server{Name: mode, Command: []string{os.Args[0]}, Env: []string{testserver.EnvFor(mode)}}
}

// A capability advertised and never implemented is a spec finding of
// validation, recorded in the snapshot; its later withdrawal is a fix.
func TestCapabilityNeverWorked(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ mode, method string }{
		{testserver.ModeCapabilityUnimplemented, capture.MethodPromptsList},
		{testserver.ModeSubscribeUnimplemented, capture.MethodResourcesSubscribe},
	} {
		t.Run(c.mode, func(t *testing.T) {
			o := options(t, stdioServer(c.mode))
			o.Environ = os.Environ()
			o.ProtocolVersion = "2025-11-25"
			res, err := check.Validate(context.Background(), o, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ruleCounts(res.Findings)[rules.CapabilityMethodNotFound] == 0 {
				t.Errorf("no %s finding: %v", rules.CapabilityMethodNotFound, ruleCounts(res.Findings))
			}
			m := capturetest.Build(t, res.Captures[0])
			if m.FailedMethods[c.method] != capture.CodeMethodNotFound {
				t.Fatalf("failedMethods = %v", m.FailedMethods)
			}
			if c.method == capture.MethodResourcesSubscribe {
				return // the withdrawal is a diff fixture (no mode drops only subscribe)
			}
			base := filepath.Join(t.TempDir(), "base.json")
			if err := manifest.WriteFile(base, m); err != nil {
				t.Fatal(err)
			}
			// Head: the same lite tools, capabilities withdrawn.
			o = options(t, stdioServer(testserver.ModeProbeHang))
			o.Environ, o.ProtocolVersion, o.Baseline = os.Environ(), "2025-11-25", check.Baseline{File: base}
			out := run(t, o)
			got := ruleCounts(out.Findings)
			if got[rules.CapabilityUnimplementedRemoved] == 0 || got[rules.CapabilityPromptsRemoved]+got[rules.CapabilityResourcesRemoved]+got[rules.CapabilityResourcesSubscribeRemoved] != 0 {
				t.Errorf("withdrawal not reported as a fix: %v", got)
			}
		})
	}
}

// check tries the baseline's revision before calling it withdrawn.
func TestProtocolSupportByTrial(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	m := snapshotOf(t, testserver.ModeFull)
	for _, c := range []struct {
		name   string
		server check.Server
		rev    string
		want   string
		absent string
	}{
		// The in-process server accepts 2025-06-18 though head settles on 2026-07-28.
		{"accepted", inProcess(t, testserver.ModeFull), "2025-06-18", "", rules.ProtocolVersionNoLongerSupported},
		// newest-only answers 2025-11-25 to a request for 2025-06-18.
		{"refused", stdioServer(testserver.ModeNewestOnly), "2025-06-18", rules.ProtocolVersionNoLongerSupported, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			bm := *m
			bm.ProtocolVersion, bm.Handshake, bm.SupportedVersions = c.rev, "initialize", nil
			if err := manifest.WriteFile(base, &bm); err != nil {
				t.Fatal(err)
			}
			o := options(t, c.server)
			o.Environ, o.Baseline = os.Environ(), check.Baseline{File: base}
			res := run(t, o)
			head := res.Servers[0].Head
			if tr, ok := head.Trial(c.rev); !ok || tr.Accepted() != (c.want == "") {
				t.Errorf("trial = %+v, %v", tr, ok)
			}
			got := ruleCounts(res.Findings)
			if c.want != "" && got[c.want] == 0 {
				t.Errorf("no %s: %v", c.want, got)
			}
			if c.absent != "" && got[c.absent] != 0 {
				t.Errorf("%s reported: %v", c.absent, got)
			}
		})
	}
}
