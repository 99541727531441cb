package capture_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) {
	// A server started through the exec shim of a test process that
	// adopts orphans: the shim's argv[1] is a word, never a -test. flag;
	// a test server's argv has none.
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		_ = capture.AdoptOrphans()
	}
	testserver.MaybeRunFromEnv()
	if os.Getenv("MCP_SURFACE_TEST_ADOPT") == "1" {
		if err := capture.AdoptOrphans(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// stdio re-executes this test binary as a test server in the given mode;
// a marker in its environment lets noLeftovers find every process it spawned.
func stdio(t *testing.T, mode string) capture.Command {
	t.Helper()
	marker := fmt.Sprintf("MCP_SURFACE_TEST_MARKER=%s-%d", strings.ReplaceAll(t.Name(), "/", "_"), time.Now().UnixNano())
	t.Cleanup(func() { noLeftovers(t, marker) })
	return capture.Command{
		Argv: []string{os.Args[0]},
		Env:  append(os.Environ(), testserver.EnvFor(mode), marker),
	}
}

// noLeftovers fails the test if any process still carries marker.
func noLeftovers(t *testing.T, marker string) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return // not Linux: nothing to check with
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		if strings.Contains(string(env), marker+"\x00") {
			stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
			if strings.Contains(string(stat), ") Z ") {
				t.Errorf("process %d left as a zombie (not reaped)", pid)
				continue
			}
			t.Errorf("process %d is still running after the capture", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func opts(version string) capture.Options {
	return capture.Options{ProtocolVersion: version, Now: time.Now,
		Limits: capture.Limits{StartupTimeout: 20 * time.Second, RequestTimeout: 10 * time.Second}}
}

func mustRun(t *testing.T, target capture.Target, o capture.Options) *capture.Capture {
	t.Helper()
	c, err := capture.Run(context.Background(), target, o)
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	return c
}

func pagesPerList(c *capture.Capture) map[string]int {
	out := map[string]int{}
	for _, p := range c.Pages {
		out[p.Method]++
	}
	return out
}

func TestStdioFullEveryListToItsLastPage(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeFull), opts("2025-06-18"))
	if c.Handshake != capture.HandshakeInitialize || c.ProtocolVersion != "2025-06-18" {
		t.Errorf("handshake %s at %s, want initialize at 2025-06-18", c.Handshake, c.ProtocolVersion)
	}
	for method, n := range pagesPerList(c) {
		if n < 2 {
			t.Errorf("%s: %d page(s); the full mode pages every list, so the capture stopped early", method, n)
		}
	}
	if len(pagesPerList(c)) != 4 {
		t.Errorf("lists read: %v, want all four", pagesPerList(c))
	}
	// The snapshot holds every item of every page: compare with the SDK
	// server's own registry, read in process.
	ref := capturetest.Build(t, capturetest.InProcess(t, testserver.ModeFull, opts("2025-06-18")))
	m := capturetest.Build(t, c)
	if m.Fingerprints.Manifest != ref.Fingerprints.Manifest {
		t.Errorf("stdio and in-process snapshots differ")
	}
	if len(m.Tools) == 0 || len(m.Prompts) == 0 || len(m.Resources) == 0 || len(m.ResourceTemplates) == 0 {
		t.Errorf("empty sections: %d tools %d prompts %d resources %d templates", len(m.Tools), len(m.Prompts), len(m.Resources), len(m.ResourceTemplates))
	}
	// Frames alternate in order: every response follows its request.
	for _, e := range c.Exchanges {
		if e.ResponseFrame >= 0 && e.ResponseFrame < e.RequestFrame {
			t.Errorf("%s: response frame %d before request frame %d", e.Method, e.ResponseFrame, e.RequestFrame)
		}
	}
	if c.Timings.Startup <= 0 || c.Timings.Total < c.Timings.Startup {
		t.Errorf("timings not measured: %+v", c.Timings)
	}
}

func TestDiscoverHandshakeAtNewestRevision(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeFull), opts(""))
	if c.RequestedVersion != capture.LatestRevision {
		t.Errorf("requested %s, want the newest revision by default", c.RequestedVersion)
	}
	if c.Handshake != capture.HandshakeDiscover || c.ProtocolVersion != "2026-07-28" {
		t.Errorf("handshake %s at %s, want server/discover at 2026-07-28", c.Handshake, c.ProtocolVersion)
	}
	var r map[string]any
	if err := json.Unmarshal(c.HandshakeResult, &r); err != nil || r["supportedVersions"] == nil {
		t.Errorf("handshake result is not the raw DiscoverResult: %s", c.HandshakeResult)
	}
}

func TestFallbackToInitializeIsRecorded(t *testing.T) {
	t.Parallel()
	// The raw modes answer server/discover with "method not found".
	c := mustRun(t, stdio(t, testserver.ModePagedRaw), opts(""))
	if c.Handshake != capture.HandshakeInitialize {
		t.Fatalf("handshake %s, want initialize after the fallback", c.Handshake)
	}
	found := false
	for _, d := range c.Diagnostics {
		found = found || d.Code == capture.DiagHandshakeFallback
	}
	if !found {
		t.Errorf("no %s diagnostic: %+v", capture.DiagHandshakeFallback, c.Diagnostics)
	}
}

// Every transport records the same surface.
func TestTransportsAgree(t *testing.T) {
	t.Parallel()
	want := capturetest.Build(t, capturetest.InProcess(t, testserver.ModeFull, opts("2025-11-25")))
	for _, sse := range []bool{false, true} {
		h, err := testserver.Handler(testserver.ModeFull, sse)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		c, err := capture.Run(context.Background(), capture.HTTP{URL: ts.URL, SSE: sse, Headers: map[string][]string{"Authorization": {"Bearer secret-token"}}}, opts("2025-11-25"))
		if err != nil {
			for _, f := range c.Frames {
				t.Logf("%s %.300s", f.Dir, f.Data)
			}
			t.Fatal(err)
		}
		ts.Close()
		got := capturetest.Build(t, c)
		if diff := cmp.Diff(string(capturetest.Encode(t, want)), string(capturetest.Encode(t, got))); diff != "" {
			t.Errorf("sse=%v: snapshot differs from in-process (-want +got):\n%s", sse, diff)
		}
		if strings.Contains(c.Target, "secret") {
			t.Errorf("target description leaks a header: %s", c.Target)
		}
	}
}

func TestStdoutNoiseIsReportedWithTheLine(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeStdoutLog), opts("2025-06-18"))
	var lines []string
	for _, d := range c.Diagnostics {
		if d.Code == capture.DiagStdoutNoise {
			lines = append(lines, d.Detail)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no stdout noise reported: %+v", c.Diagnostics)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "Server listening on stdio") {
		t.Errorf("offending line not reported: %q", lines)
	}
	if len(capturetest.Build(t, c).Tools) == 0 {
		t.Errorf("the capture did not go on after the noise")
	}
}

func TestMisbehavingServers(t *testing.T) {
	type check func(t *testing.T, c *capture.Capture, err error)
	limit := func(name string) check {
		return func(t *testing.T, c *capture.Capture, err error) {
			var le *capture.LimitError
			if !errors.As(err, &le) || le.Limit != name || !strings.Contains(err.Error(), name+" limit of ") || strings.Contains(err.Error(), "--") {
				t.Errorf("error %v, want a limit error naming the %s (and no flag)", err, name)
			}
		}
	}
	cases := []struct {
		mode   string
		limits capture.Limits
		check  check
	}{
		{testserver.ModeCrashHandshake, capture.Limits{}, func(t *testing.T, c *capture.Capture, err error) {
			var se *capture.ServerError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a server error", err)
			}
			if !strings.Contains(err.Error(), "config file missing") || !strings.Contains(err.Error(), "exit status 3") {
				t.Errorf("error does not show the stderr tail and status: %v", err)
			}
			if c == nil || !strings.Contains(c.Stderr, "config file missing") {
				t.Errorf("stderr not kept in the capture")
			}
		}},
		{testserver.ModeHang, capture.Limits{StartupTimeout: time.Second}, limit(capture.LimitStartupTimeout)},
		{testserver.ModeHangLists, capture.Limits{RequestTimeout: time.Second}, limit(capture.LimitRequestTimeout)},
		// Exits 0 once the SDK gives up and closes its stdin: the deadline
		// is the cause, not the exit.
		{testserver.ModeSlowStart, capture.Limits{StartupTimeout: time.Second}, limit(capture.LimitStartupTimeout)},
		{testserver.ModeBadInitialize, capture.Limits{}, func(t *testing.T, c *capture.Capture, err error) {
			var se *capture.ServerError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "answered initialize (frame") || !strings.Contains(err.Error(), "SDK refused") || strings.Contains(err.Error(), "exited") {
				t.Errorf("error %v, want the refused answer named, not an exit", err)
			}
		}},
		{testserver.ModeBadVersion, capture.Limits{}, func(t *testing.T, c *capture.Capture, err error) {
			var se *capture.ServerError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), `protocolVersion "`+testserver.BadProtocolVersion+`"`) || strings.Contains(err.Error(), "exited") {
				t.Errorf("error %v, want the refused protocol version named, not an exit", err)
			}
		}},
		{testserver.ModeHuge, capture.Limits{MaxBytes: 1 << 20, RequestTimeout: time.Minute}, limit(capture.LimitTotalBytes)},
		{testserver.ModeEndlessPages, capture.Limits{MaxPages: 25}, limit(capture.LimitPageCount)},
		{testserver.ModeRepeatCursor, capture.Limits{}, func(t *testing.T, c *capture.Capture, err error) {
			if !errors.Is(err, capture.ErrRepeatedCursor) && !strings.Contains(err.Error(), "cursor") {
				t.Errorf("error %v, want a repeated cursor error", err)
			}
			if !strings.Contains(fmt.Sprint(err), "page-2") {
				t.Errorf("error does not name the cursor: %v", err)
			}
		}},
		{testserver.ModeInvalidJSON, capture.Limits{RequestTimeout: 20 * time.Second}, func(t *testing.T, c *capture.Capture, err error) {
			if err == nil || !strings.Contains(err.Error(), "invalid JSON") {
				t.Errorf("error %v, want invalid JSON named", err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			o := opts("2025-06-18")
			if tc.limits.StartupTimeout > 0 {
				o.Limits.StartupTimeout = tc.limits.StartupTimeout
			}
			if tc.limits.RequestTimeout > 0 {
				o.Limits.RequestTimeout = tc.limits.RequestTimeout
			}
			o.Limits.MaxBytes = tc.limits.MaxBytes
			o.Limits.MaxPages = tc.limits.MaxPages
			c, err := capture.Run(context.Background(), stdio(t, tc.mode), o)
			if err == nil {
				t.Fatalf("capture succeeded, want an error")
			}
			tc.check(t, c, err)
			// Fail fast: a misbehaving server is named for what it did,
			// not found out by a timeout (unless the timeout is the case).
			var le *capture.LimitError
			if errors.As(err, &le) && (le.Limit == capture.LimitRequestTimeout || le.Limit == capture.LimitStartupTimeout) &&
				tc.limits.StartupTimeout != time.Second && tc.limits.RequestTimeout != time.Second {
				t.Errorf("%v: a misbehaving server must fail for what it did, before the timeout", err)
			}
		})
	}
}

func TestHugeResultWithinBudget(t *testing.T) {
	t.Parallel()
	// 22 MB is slow to produce and parse under the race detector on a
	// loaded machine: this test is about the byte budget, not time.
	o := opts("2025-06-18")
	o.Limits.RequestTimeout = 2 * time.Minute
	c := mustRun(t, stdio(t, testserver.ModeHuge), o)
	if n := len(c.Pages); n != 1 {
		t.Fatalf("%d pages", n)
	}
	if len(c.Pages[0].Result) < 10<<20 {
		t.Errorf("huge page is only %d bytes", len(c.Pages[0].Result))
	}
	// The SDK got this page without its items (it is over 4 MiB); the
	// capture decoded them, found nothing to refuse, and kept them all.
	for _, d := range c.Diagnostics {
		if d.Code == capture.DiagSDKRejected {
			t.Errorf("a valid huge page was refused: %+v", d)
		}
	}
	if m := capturetest.Build(t, c); len(m.Tools) != testserver.HugeToolCount {
		t.Errorf("snapshot has %d tools, want %d", len(m.Tools), testserver.HugeToolCount)
	}
}

func TestShutdownKillsTheWholeGroup(t *testing.T) {
	cmd := stdio(t, testserver.ModeIgnoreSigterm)
	c := mustRun(t, cmd, opts("2025-06-18"))
	m := regexp.MustCompile(`child-pid=(\d+)`).FindStringSubmatch(c.Stderr)
	if m == nil {
		t.Fatalf("no child pid in stderr %q", c.Stderr)
	}
	pid, _ := strconv.Atoi(m[1])
	if testserver.Alive(pid) {
		t.Errorf("child %d survived the shutdown", pid)
	}
}

// A server that exits when its stdin closes is not made to wait for the
// grace period: its shutdown ends before the grace (a minute, which only
// a shutdown that waited for it reaches) is over. How fast it is, is
// bench/shutdown.sh's to measure.
func TestCleanShutdownDoesNotWaitForTheGracePeriod(t *testing.T) {
	o := opts("2025-06-18")
	o.Limits.ShutdownGrace = time.Minute
	c := mustRun(t, stdio(t, testserver.ModeToolsOnly), o)
	if c.Timings.Shutdown >= o.Limits.ShutdownGrace {
		t.Errorf("a server that exits on stdin close was given the whole grace of %v (shutdown took %v)", o.Limits.ShutdownGrace, c.Timings.Shutdown)
	}
	if got := pagesPerList(c); got[capture.MethodPromptsList] != 0 || got[capture.MethodToolsList] == 0 {
		t.Errorf("lists read %v: only advertised capabilities may be listed", got)
	}
}

func TestSDKRejectionKeepsRawBytes(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeSDKReject), opts("2025-06-18"))
	var rejected *capture.Diagnostic
	for i, d := range c.Diagnostics {
		if d.Code == capture.DiagSDKRejected {
			rejected = &c.Diagnostics[i]
		}
	}
	m := capturetest.Build(t, c)
	if rejected == nil {
		t.Fatalf("the SDK's rejection of the page was not reported: %+v", c.Diagnostics)
	}
	if !strings.Contains(rejected.Detail, "readOnlyHint") {
		t.Errorf("rejection detail %q does not name the field refused", rejected.Detail)
	}
	if len(m.Tools) != 3 {
		t.Errorf("snapshot has %d tools; the tool the SDK cannot decode must be kept from the raw bytes", len(m.Tools))
	}
}

// Over streamable HTTP the transport decodes each message before the
// capture sees it; the SDK's typed decode of a page over 4 MiB still gets
// the list without its items, and the capture decodes them: a refusal
// names the item, and the snapshot keeps every tool from the raw result.
func TestSDKRejectionOverHTTPNamesTheItem(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[`)
	const n = 5000
	for i := range n {
		fmt.Fprintf(&b, `{"name":"t%04d","description":"%s","inputSchema":{"type":"object"}},`, i, strings.Repeat("d", 1000))
	}
	b.WriteString(`{"name":"bad","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"yes"}}]`)
	tools := b.String()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{}`
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`
		case "tools/list":
			result = `{"tools":` + tools + `}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(ts.Close)
	// 5 MB is slow to serve and parse under the race detector on a loaded
	// machine: this test is about the rejection's name, not time.
	o := opts("2025-06-18")
	o.Limits.RequestTimeout = 2 * time.Minute
	c := mustRun(t, capture.HTTP{URL: ts.URL}, o)
	var detail string
	for _, d := range c.Diagnostics {
		if d.Code == capture.DiagSDKRejected {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, fmt.Sprintf("tools[%d]", n)) || !strings.Contains(detail, "readOnlyHint") {
		t.Errorf("rejection detail %q does not name tools[%d] and its readOnlyHint (diagnostics %+v)", detail, n, c.Diagnostics)
	}
	if m := capturetest.Build(t, c); len(m.Tools) != n+1 {
		t.Errorf("snapshot has %d tools, want %d", len(m.Tools), n+1)
	}
}

func TestDuplicateIdentityIsRefused(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeDuplicateName), opts("2025-06-18"))
	_, err := manifest.Build(c)
	var de *manifest.DuplicateError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), `"search"`) {
		t.Errorf("Build: %v, want a duplicate error naming \"search\"", err)
	}
}

func TestRawPagesKeepEveryField(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModePagedRaw), opts("2025-06-18"))
	if n := pagesPerList(c)[capture.MethodToolsList]; n != 3 {
		t.Errorf("tools/list pages = %d, want 3", n)
	}
	m := capturetest.Build(t, c)
	out := string(capturetest.Encode(t, m))
	if !strings.Contains(out, `"x-vendor"`) {
		t.Errorf("unknown item field dropped from the snapshot")
	}
	if strings.Contains(out, "nextCursor") {
		t.Errorf("list envelope leaked into the snapshot")
	}
}

func TestBadTargets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		t    capture.Target
		want string
	}{
		{capture.Command{}, "no server command"},
		{capture.Command{Argv: []string{"/nonexistent/server"}}, "starting /nonexistent/server"},
		{capture.HTTP{URL: "ftp://example"}, "not an http(s) URL"},
		{capture.InProcess{}, "no server"},
	} {
		_, err := capture.Run(context.Background(), tc.t, opts(""))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.t.Describe(), err, tc.want)
		}
	}
	if _, err := capture.Run(context.Background(), capture.InProcess{}, capture.Options{ProtocolVersion: "2099-01-01"}); err == nil {
		t.Errorf("unknown protocol version accepted")
	}
}

func TestRecordingTransportForwardsVersionSupport(t *testing.T) {
	t.Parallel()
	rt := capture.NewRecordingTransport(&versionLimited{})
	if rt.SupportsProtocolVersion("2026-07-28") || !rt.SupportsProtocolVersion("2025-06-18") {
		t.Errorf("ProtocolVersionSupporter not forwarded")
	}
}

type versionLimited struct{}

func (versionLimited) Connect(context.Context) (mcp.Connection, error) {
	return nil, errors.New("unused")
}
func (versionLimited) SupportsProtocolVersion(v string) bool { return v != "2026-07-28" }

// A declared resources.subscribe and completions are each tried once, and
// the outcome recorded: the full server answers both; one whose
// resources/subscribe is not implemented is recorded as failing.
func TestCapabilityTrials(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModeFull), opts("2025-06-18"))
	want := []capture.CapabilityTrial{{Method: capture.MethodResourcesSubscribe}, {Method: capture.MethodCompletionComplete}}
	if !reflect.DeepEqual(c.CapabilityTrials, want) {
		t.Errorf("full: trials %+v, want %+v", c.CapabilityTrials, want)
	}
	c = mustRun(t, stdio(t, testserver.ModeSubscribeUnimplemented), opts("2025-06-18"))
	if len(c.CapabilityTrials) != 1 || c.CapabilityTrials[0].Method != capture.MethodResourcesSubscribe || c.CapabilityTrials[0].Code != capture.CodeMethodNotFound {
		t.Errorf("subscribe-unimplemented: trials %+v, want one resources/subscribe answered -32601", c.CapabilityTrials)
	}
}
