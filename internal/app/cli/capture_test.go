package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestCaptureWritesSnapshotAndFrames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, frames := filepath.Join(dir, "s.json"), filepath.Join(dir, "frames.jsonl")
	r := captureOK(t, testserver.ModeFull, "-o", out, "--frames", frames, "--protocol-version", "2025-06-18")
	m, err := manifest.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.ProtocolVersion != "2025-06-18" || len(m.Tools) == 0 {
		t.Errorf("snapshot: protocol %s, %d tools", m.ProtocolVersion, len(m.Tools))
	}
	if !strings.Contains(r.stderr, "tools") || !strings.Contains(r.stderr, "via initialize") {
		t.Errorf("no summary on stderr: %s", r.stderr)
	}
	data, err := os.ReadFile(frames)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 10 {
		t.Fatalf("only %d frames", len(lines))
	}
	for i, l := range lines {
		var f struct {
			Revision string          `json:"revision"`
			Seq      int             `json:"seq"`
			Dir      string          `json:"dir"`
			Data     json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &f); err != nil || f.Seq != i || (f.Dir != "send" && f.Dir != "recv") || f.Revision != "2025-06-18" {
			t.Fatalf("frame line %d malformed: %s (%v)", i, l, err)
		}
	}
}

func TestCaptureTwiceIsByteIdentical(t *testing.T) {
	t.Parallel()
	args := captureArgs()
	a := run(t, serverEnvFor(testserver.ModeFull), args...)
	b := run(t, serverEnvFor("shuffled-3"), args...)
	if a.code != 0 || b.code != 0 {
		t.Fatalf("exit %d/%d: %s %s", a.code, b.code, a.stderr, b.stderr)
	}
	if a.stdout != b.stdout || a.stdout == "" {
		t.Errorf("two captures of the same surface differ")
	}
}

func TestCaptureSeveralRevisions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "mcp-surface.json")
	captureOK(t, testserver.ModeFull, "-o", out, "--protocol-version", "2025-03-26", "--protocol-version", "2026-07-28")
	for rev, hs := range map[string]string{"2025-03-26": "initialize", "2026-07-28": "server/discover"} {
		m, err := manifest.ReadFile(filepath.Join(dir, "mcp-surface."+rev+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if m.ProtocolVersion != rev || m.Handshake != hs {
			t.Errorf("%s: negotiated %s via %s", rev, m.ProtocolVersion, m.Handshake)
		}
	}
}

func TestCaptureErrorsExitTwo(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"no server", nil, []string{"capture"}, "no server given"},
		{"bad version", nil, []string{"capture", "--protocol-version", "1999-01-01", "--", "x"}, "use one of"},
		{"url and command", nil, []string{"capture", "--url", "http://127.0.0.1:1", "--", "x"}, "either --url or a command"},
		{"header env missing", nil, []string{"capture", "--url", "http://127.0.0.1:1/mcp", "--header", "Authorization: Bearer ${MCP_SURFACE_TEST_UNSET_TOKEN}"}, "MCP_SURFACE_TEST_UNSET_TOKEN is not set"},
		{"crash", serverEnvFor(testserver.ModeCrashHandshake), captureArgs(), "config file missing"},
		{"hang", serverEnvFor(testserver.ModeHang), captureArgs("--startup-timeout", "1s"), "--startup-timeout"},
		{"duplicate", serverEnvFor(testserver.ModeDuplicateName), captureArgs(), `"search"`},
		{"several to stdout", nil, []string{"capture", "--protocol-version", "2025-03-26", "--protocol-version", "2025-06-18", "--", "x"}, "need -o"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.env, tc.args...)
			if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", r.code, r.stderr, tc.want)
			}
		})
	}
}

func TestHeaderValuesAreNeverPrinted(t *testing.T) {
	t.Parallel()
	r := run(t, []string{"MCP_SURFACE_TEST_TOKEN=sekrit-value-123"}, "capture", "--url", "http://127.0.0.1:1/mcp?token=sekrit-value-123",
		"--header", "Authorization: Bearer ${MCP_SURFACE_TEST_TOKEN}", "--startup-timeout", "2s")
	if r.code != frontend.ExitFailure {
		t.Fatalf("exit %d", r.code)
	}
	if strings.Contains(r.stderr+r.stdout, "sekrit") {
		t.Errorf("a secret was printed: %s", r.stderr)
	}
}

func TestStdoutNoiseIsWarned(t *testing.T) {
	t.Parallel()
	r := run(t, serverEnvFor(testserver.ModeStdoutLog), captureArgs()...)
	if r.code != 0 || !strings.Contains(r.stderr, "Server listening on stdio") {
		t.Errorf("exit %d, stderr %q: want a warning quoting the stdout line", r.code, r.stderr)
	}
}

func TestSnapshotCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp-surface.json")
	full := serverEnvFor(testserver.ModeFull)
	cmd := append([]string{"--"}, serverCmd()...)

	r := run(t, full, append([]string{"snapshot", "--check", "-o", path}, cmd...)...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "does not exist") {
		t.Fatalf("check without a file: exit %d %q", r.code, r.stdout)
	}
	runOK(t, full, append([]string{"snapshot", "-o", path}, cmd...)...)
	runOK(t, serverEnvFor("shuffled-9"), append([]string{"snapshot", "--check", "-o", path}, cmd...)...)
	r = run(t, serverEnvFor(testserver.ModeToolsOnly), append([]string{"snapshot", "--check", "-o", path}, cmd...)...)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != frontend.ExitFindings || !strings.HasPrefix(lines[0], "20 tools break existing clients (also 6 prompts") || !strings.HasSuffix(lines[0], path+" is out of date") {
		t.Fatalf("changed server: exit %d, want the verdict first:\n%s", r.code, r.stdout)
	}
	// The engine's findings, one line each, bounded; then the way to
	// rewrite the file, and nothing left in the directory.
	if !strings.Contains(r.stdout, "\n  tool add_comment: was removed: calls to it fail [tool-removed]\n") || len(lines) != 1+report.MaxBriefLines+2 {
		t.Fatalf("want %d change lines, an \"and N more\" and the remedy:\n%s", report.MaxBriefLines, r.stdout)
	}
	if want := "If the change is intended: run `mcp-surface snapshot -o " + path + " -- " + cmdline.Join(serverCmd()) + "` and commit " + path; lines[len(lines)-1] != want {
		t.Errorf("last line:\n%s\nwant\n%s", lines[len(lines)-1], want)
	}
	// The command it prints really shows every change: run it against the
	// same server.
	_, shown, ok := strings.Cut(lines[len(lines)-2], "`")
	shown, _, ok2 := strings.Cut(shown, "` shows every change")
	words, err := cmdline.Split(shown)
	if !ok || !ok2 || err != nil || len(words) < 2 || words[0] != "mcp-surface" {
		t.Fatalf("no command that shows every change: %q", lines[len(lines)-2])
	}
	all := run(t, serverEnvFor(testserver.ModeToolsOnly), words[1:]...)
	if all.code != frontend.ExitFindings || strings.Count(all.stdout, "\n  ") <= report.MaxBriefLines || strings.Contains(all.stdout, "more:") {
		t.Errorf("%s: exit %d, want every change:\n%s", shown, all.code, all.stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("snapshot --check left files behind: %v", entries)
	}
}

// A test helper names its own way to rewrite the snapshot, and the
// launcher its own command; a rewrite says what it changed.
func TestSnapshotCheckHints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp-surface.json")
	cmd := append([]string{"--"}, serverCmd()...)
	runOK(t, serverEnvFor(testserver.ModeFull), append([]string{"snapshot", "-o", path}, cmd...)...)
	env := append(serverEnvFor(testserver.ModeToolsOnly), frontend.CLIEnv+"=npx mcp-surface")
	r := run(t, env, append([]string{"snapshot", "--check", "--update-hint", "run `MCP_SURFACE_UPDATE=1 npm test`", "-o", path}, cmd...)...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "If the change is intended: run `MCP_SURFACE_UPDATE=1 npm test` and commit ") ||
		!strings.Contains(r.stdout, "`npx mcp-surface snapshot --check --verbose -o ") || strings.Contains(r.stdout, "update-hint") {
		t.Errorf("exit %d:\n%s", r.code, r.stdout)
	}
	r = run(t, serverEnvFor(testserver.ModeToolsOnly), append([]string{"snapshot", "-o", path}, cmd...)...)
	if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != 0 || !strings.HasPrefix(first, "rewrote "+path+": 20 tools break existing clients") || !strings.Contains(r.stderr, "\n  tool add_comment: was removed") {
		t.Errorf("update: exit %d, want what it rewrote:\n%s", r.code, r.stderr)
	}
}

// The discover→initialize fallback of today's servers is an info line on
// capture's stderr, never a warning.
func TestHandshakeFallbackIsInfo(t *testing.T) {
	r := captureOK(t, testserver.ModePagedRaw)
	if !strings.Contains(r.stderr, "info: the server did not accept server/discover") {
		t.Fatalf("the server fell back to initialize, but stderr does not say so: %q", r.stderr)
	}
	if strings.Contains(r.stderr, "warning:") {
		t.Errorf("a warning: line: %q", r.stderr)
	}
}

// partialSnapshot captures mode with --partial into dir and returns the
// file's path.
func partialSnapshot(t *testing.T, dir, mode string) string {
	t.Helper()
	path := filepath.Join(dir, mode+".json")
	captureOK(t, mode, "--partial", "-o", path)
	return path
}

// noRawEscape fails when server bytes reached the output unescaped.
func noRawEscape(t *testing.T, what, s string) {
	t.Helper()
	if strings.ContainsRune(s, '\x1b') {
		t.Errorf("%s holds a raw escape sequence: %q", what, s)
	}
}

// A server whose tools/list answers -32603 while it advertises tools
// captures to no snapshot and exit 2, naming the method, the page, the
// code, the message and both fixes; a failed second page likewise, its
// message escaped.
func TestCaptureFailsClosedOnAFailedList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for mode, want := range map[string][]string{
		testserver.ModeListFailed:     {"tools/list page 1 answered with error -32603", testserver.ListFailedMessage},
		testserver.ModeListFailedPage: {"tools/list page 2 answered with error -32603", "upstream"},
	} {
		out := filepath.Join(dir, mode+".json")
		r := run(t, serverEnvFor(mode), captureArgs("-o", out)...)
		if r.code != frontend.ExitFailure {
			t.Errorf("%s: exit %d, want 2\n%s", mode, r.code, r.stderr)
		}
		wantIn(t, mode+": stderr", r.stderr, append(want, "the capture is incomplete", "backend", "--partial")...)
		noRawEscape(t, mode+" stderr", r.stderr)
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a snapshot was written (%v)", mode, err)
		}
	}
	// To stdout: nothing either.
	if r := run(t, serverEnvFor(testserver.ModeListFailed), captureArgs()...); r.code != frontend.ExitFailure || r.stdout != "" {
		t.Errorf("capture to stdout: exit %d, stdout %q", r.code, r.stdout)
	}
}

// --partial writes the snapshot marked partial: the failed list holds
// nothing (not the first page of a list that failed on its second), the
// file says why, it reads back partial, and its hash is not a complete
// one's.
func TestCapturePartialIsMarked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := run(t, serverEnvFor(testserver.ModeListFailedPage), captureArgs("--partial", "-o", filepath.Join(dir, "p.json"))...)
	if r.code != frontend.ExitOK || !strings.Contains(r.stderr, "PARTIAL") || !strings.Contains(r.stderr, "tools unknown (tools/list failed)") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	noRawEscape(t, "stderr", r.stderr)
	data, err := os.ReadFile(filepath.Join(dir, "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Partial map[string]struct {
			Page    int
			Code    int64
			Message string
		}
		Tools []json.RawMessage
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f, ok := doc.Partial["tools/list"]
	if !ok || f.Page != 2 || f.Code != testserver.CodeInternalError || f.Message != testserver.ListFailedPageMessage || len(doc.Tools) != 0 {
		t.Errorf("snapshot partial %+v, %d tools; want tools/list page 2 -32603 and no tool", doc.Partial, len(doc.Tools))
	}
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil || !m.Incomplete() {
		t.Fatalf("read back: %v, incomplete %v", err, m != nil && m.Incomplete())
	}
	again, err := manifest.Encode(m)
	if err != nil || string(again) != string(data) {
		t.Errorf("a partial snapshot does not round-trip (%v)", err)
	}
	complete := *m
	complete.Partial = nil
	c, err := manifest.Encode(&complete)
	if err != nil {
		t.Fatalf("encoding it without its partial mark: %v", err)
	}
	if back, err := manifest.FromCanonicalJSON(c); err != nil || back.Fingerprints.Manifest == m.Fingerprints.Manifest {
		t.Errorf("a partial snapshot has the manifest hash of a complete one (%v)", err)
	}
}

// diff never turns a failed list into removals: against a complete
// snapshot, and between two partial ones, it reports the failed list,
// compares the other kinds, writes its report and exits 2.
func TestDiffOfAPartialSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	complete := filepath.Join(dir, "complete.json")
	if err := os.WriteFile(complete, []byte(snapshotOf(t, testserver.ModePagedRaw)), 0o644); err != nil {
		t.Fatal(err)
	}
	partial := partialSnapshot(t, dir, testserver.ModeListFailed)
	other := partialSnapshot(t, dir, testserver.ModeListFailedPage)
	for _, pair := range [][2]string{{complete, partial}, {partial, complete}, {partial, other}, {partial, partial}} {
		name := filepath.Base(pair[0]) + " vs " + filepath.Base(pair[1])
		r := run(t, nil, "diff", "--format", "json", pair[0], pair[1])
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "the comparison is incomplete") || !strings.Contains(r.stderr, "tools/list") {
			t.Errorf("%s: exit %d, want 2 naming the failed list:\n%s", name, r.code, r.stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: no JSON report: %v\n%s", name, err, r.stdout)
		}
		got := rulesIn(doc)
		if got["surface-list-failed"] != 1 || got["tool-removed"] != 0 || got["tool-added"] != 0 || got["context-cost-changed"] != 0 {
			t.Errorf("%s: findings %v, want surface-list-failed and no tool removed or added", name, got)
		}
		if pair[0] == complete && got["prompt-removed"]+got["resource-removed"] != 0 {
			t.Errorf("%s: the lists that worked differ: %v", name, got)
		}
		text := run(t, nil, "diff", pair[0], pair[1])
		if text.code != frontend.ExitFailure || strings.Contains(text.stdout, "no breaking changes") || strings.Contains(text.stdout, "surface unchanged") ||
			!strings.Contains(text.stdout, "surface-list-failed") {
			t.Errorf("%s: text report (exit %d):\n%s", name, text.code, text.stdout)
		}
		noRawEscape(t, name+" text", text.stdout+text.stderr)
		// --fail-on none does not make a partial comparison pass.
		if r := run(t, nil, "diff", "--fail-on", "none", pair[0], pair[1]); r.code != frontend.ExitFailure ||
			strings.Contains(r.stdout, "surface unchanged") || strings.Contains(r.stdout, "no breaking changes") ||
			!strings.Contains(r.stdout, "incomplete: tools/list failed at ") {
			t.Errorf("%s --fail-on none: exit %d, want 2 and an incomplete verdict:\n%s", name, r.code, r.stdout)
		}
	}
}

// snapshot refuses a failed list as capture does, writes it marked
// partial with --partial, and --check never calls a partial file current.
func TestSnapshotOfAFailedList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp-surface.json")
	args := append([]string{"snapshot", "-o", path, "--"}, serverCmd()...)
	if r := run(t, serverEnvFor(testserver.ModeListFailed), args...); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "-32603") || !strings.Contains(r.stderr, "--partial") {
		t.Errorf("snapshot: exit %d, want 2\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a snapshot was written (%v)", err)
	}
	partial := append([]string{"snapshot", "--partial", "-o", path, "--"}, serverCmd()...)
	if r := run(t, serverEnvFor(testserver.ModeListFailed), partial...); r.code != frontend.ExitOK || !strings.Contains(r.stderr, "PARTIAL") {
		t.Fatalf("snapshot --partial: exit %d\n%s", r.code, r.stderr)
	}
	check := append([]string{"snapshot", "--check", "-o", path, "--"}, serverCmd()...)
	r := run(t, serverEnvFor(testserver.ModePagedRaw), check...)
	if r.code != frontend.ExitFindings || !strings.Contains(r.stdout, "is a partial snapshot") || !strings.Contains(r.stdout, "tools/list") {
		t.Errorf("--check against a partial file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The same failure live: it cannot be verified at all.
	if r := run(t, serverEnvFor(testserver.ModeListFailed), check...); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "the capture is incomplete") {
		t.Errorf("--check of a failing server: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, nil, append([]string{"snapshot", "--check", "--partial", "--"}, serverCmd()...)...); r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--partial") {
		t.Errorf("--check --partial: exit %d, want a usage error\n%s", r.code, r.stderr)
	}
}

// check captures a failing head with the partial allowed, writes the
// report naming the failed list, reports no removal and no stale
// snapshot, and exits 2.
func TestCheckOfAFailedList(t *testing.T) {
	// At the head, the backend is down.
	_, base := modeRepo(t, testserver.ModePagedRaw, true, testserver.ModeListFailed)
	r := run(t, nil, append([]string{"check", "--format", "json", "--schema-dir", spectest.SchemaDir(t), "--base-ref", base}, serverArgs()...)...)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "the comparison is incomplete") || !strings.Contains(r.stderr, "head: tools/list page 1 answered with error -32603") {
		t.Fatalf("exit %d, want 2 naming the failed list:\n%s", r.code, r.stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("no JSON report: %v\n%s", err, r.stdout)
	}
	got := rulesIn(doc)
	if got["surface-list-failed"] != 1 || got["tool-removed"] != 0 || got["snapshot-out-of-date"] != 0 || got["prompt-removed"] != 0 {
		t.Errorf("findings %v, want surface-list-failed, no tool removed, no stale snapshot", got)
	}
	// Without a baseline there is no comparison, and still a failed list.
	if r := run(t, nil, append([]string{"check", "--baseline", "none", "--schema-dir", spectest.SchemaDir(t)}, serverArgs()...)...); r.code != frontend.ExitFailure || !strings.Contains(r.stdout, "list-request-failed") {
		t.Errorf("--baseline none: exit %d, want 2 with the failed list reported\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// lock never writes a failed list as a lock with no tools, and lock
// --check never reports it as drift.
func TestLockOfAFailedList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, _ := json.Marshal(os.Args[0])
	cfg := `{"mcpServers": {"backend": {"command": "sh", "args": ["-c", "MCP_SURFACE_TESTSERVER=$(cat mode.txt) exec \"$0\"", ` + string(bin) + `]}}}`
	for name, data := range map[string]string{".mcp.json": cfg, "mode.txt": testserver.ModeListFailed} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, nil, "lock", "--root", dir)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "tools/list page 1 answered with error -32603") || !strings.Contains(r.stderr, "the lock was not written") {
		t.Errorf("lock of a failing server: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-surface.lock.json")); !os.IsNotExist(err) {
		t.Fatalf("a lock was written (%v)", err)
	}
	os.WriteFile(filepath.Join(dir, "mode.txt"), []byte(testserver.ModePagedRaw), 0o644)
	runOK(t, nil, "lock", "--root", dir)
	os.WriteFile(filepath.Join(dir, "mode.txt"), []byte(testserver.ModeListFailed), 0o644)
	r = run(t, nil, "lock", "--root", dir, "--check")
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "-32603") || strings.Contains(r.stdout, "tool-removed") || strings.Contains(r.stdout, "drifted") {
		t.Errorf("lock --check of a failing server: exit %d, want 2 and no drift\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// A resource list of one placeholder item ([{}], no uri, no name) no
// longer refuses the server: without --partial the error names the item
// and says to use it; with it the snapshot holds the tools and records the
// item, and a diff against a snapshot without it compares the tools and
// says once what it could not compare.
func TestCapturePartialRecordsAnUnidentifiedItem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "whole.json")
	r := run(t, serverEnvFor(testserver.ModeUnidentifiedResource), captureArgs("-o", out)...)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, `resources[0] has no string "uri"`) || !strings.Contains(r.stderr, "--partial") {
		t.Errorf("capture: exit %d, want 2 naming the item and --partial:\n%s", r.code, r.stderr)
	}
	path := partialSnapshot(t, dir, testserver.ModeUnidentifiedResource)
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) == 0 || len(m.Resources) != 0 || len(m.Unidentified) != 1 || m.Unidentified[0].List != manifest.ListResources || string(m.Unidentified[0].Item) != `{}` {
		t.Fatalf("%d tools, %d resources, unidentified %+v", len(m.Tools), len(m.Resources), m.Unidentified)
	}
	clean := *m
	clean.Unidentified = nil
	cleanData, err := manifest.Encode(&clean)
	if err != nil {
		t.Fatal(err)
	}
	cleanPath := filepath.Join(dir, "clean.json")
	if err := os.WriteFile(cleanPath, cleanData, 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, nil, "diff", "--format", "json", cleanPath, path)
	if r.code != frontend.ExitOK || strings.Count(r.stdout, `"surface-items-unidentified"`) != 1 || !strings.Contains(r.stdout, "head: resources[0]") {
		t.Errorf("diff: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// The extensions end to end, over stdio with the test server's skills and
// groups (go-sdk custom methods; the extension logic is the test
// server's, written from the documents): capture writes two skills (one
// with three files) read over two pages, and groups over two pages with
// a nested group and scoped tools; against the changed server, a skill
// file's digest, a removed scoped tool, a tool moved from tools/list into
// a group and a SKILL.md that gains an instruction to read ~/.ssh are
// each reported at their level, in the PR comment and in SARIF.
func TestExtensionsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snap := func(mode string) string {
		path := filepath.Join(dir, mode+".json")
		captureOK(t, mode, "--flat-view", "-o", path)
		return path
	}
	base, head := snap(testserver.ModeExtensions), snap(testserver.ModeExtensionsChanged)

	m, err := manifest.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	x := m.Ext
	if x == nil || len(x.Skills) != 2 || len(x.Groups) != 3 {
		t.Fatalf("snapshot extensions: %+v", x)
	}
	pdf, _ := x.Skill("skill://pdf-processing/SKILL.md")
	var files []json.RawMessage
	if err := json.Unmarshal(pdf.Resources, &files); err != nil || len(files) != 3 || !pdf.HasText {
		t.Errorf("pdf-processing: %d files, SKILL.md read %v", len(files), pdf.HasText)
	}
	if triage, ok := x.Group("triage"); !ok || len(triage.Tools) != 1 || len(triage.Parents) != 1 {
		t.Errorf("nested group triage: %+v", triage)
	}
	if len(m.Tools) != 2 || len(x.Flat[manifest.ListTools]) != 6 {
		t.Errorf("tools/list holds %d tools for a client with groups, %d without; want 2 and 6", len(m.Tools), len(x.Flat[manifest.ListTools]))
	}

	want := map[string]string{ // rule: SARIF level
		"skill-file-changed":             "warning",
		"group-item-removed":             "error",
		"tool-moved-into-group":          "error",
		"text-sensitive-reference-added": "",
		"skill-text-changed":             "",
	}
	r := run(t, nil, "diff", "--format", "markdown", base, head)
	if r.code == frontend.ExitOK {
		t.Errorf("diff with breaking changes exited 0")
	}
	for rule := range want {
		if !strings.Contains(r.stdout, rule) {
			t.Errorf("the PR comment lacks %s:\n%s", rule, r.stdout)
		}
	}
	wantIn(t, "the PR comment", r.stdout, "label_issue", "create_issue", "FORMS.md")
	r = run(t, nil, "diff", "--format", "sarif", base, head)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, res := range log.Runs[0].Results {
		got[res.RuleID] = res.Level
	}
	for rule, level := range want {
		l, ok := got[rule]
		switch {
		case !ok:
			t.Errorf("SARIF lacks %s (has %v)", rule, got)
		case level != "" && l != level:
			t.Errorf("SARIF: %s at level %q, want %q", rule, l, level)
		}
	}
	if _, ok := got["tool-removed"]; ok {
		t.Errorf("the tool that moved into a group is also reported removed")
	}
}

// A server declaring an extension mcp-surface does not know: the
// capture records it and says it was not captured.
func TestExtensionUnknownSaidUncaptured(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.json")
	r := captureOK(t, testserver.ModeExtensionsUnknown, "-o", path)
	if !strings.Contains(r.stderr, "com.example/widgets") || !strings.Contains(r.stderr, "not captured") {
		t.Errorf("stderr does not say com.example/widgets is not captured:\n%s", r.stderr)
	}
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Ext == nil || len(m.Ext.Uncaptured) != 1 || m.Ext.Uncaptured[0] != "com.example/widgets" {
		t.Errorf("snapshot uncaptured = %+v", m.Ext)
	}
}

// A failed skills/list or groups/get is never an empty list: exit 2,
// naming it, and no snapshot.
func TestExtensionFailuresExit2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for mode, method := range map[string]string{testserver.ModeSkillsListFails: "skills/list", testserver.ModeGroupsGetFails: "groups/get"} {
		out := filepath.Join(dir, mode+".json")
		r := run(t, serverEnvFor(mode), captureArgs("-o", out)...)
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, method) || !strings.Contains(r.stderr, "incomplete") {
			t.Errorf("%s: exit %d, want 2 naming %s:\n%s", mode, r.code, method, r.stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a snapshot was written", mode)
		}
	}
}

// lock --check reports the same changes of a consumer's locked server.
func TestExtensionsLockCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, _ := json.Marshal(os.Args[0])
	// One configuration entry; the server it runs changes underneath (the
	// mode comes from the environment the configuration reads).
	text := `{"mcpServers": {"tracker": {"command": ` + string(bin) + `, "env": {"` + testserver.EnvVar + `": "${TRACKER_MODE}"}}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, []string{"TRACKER_MODE=" + testserver.ModeExtensions}, "lock", "--root", dir)
	r := run(t, []string{"TRACKER_MODE=" + testserver.ModeExtensionsChanged}, "lock", "--root", dir, "--check")
	if r.code == 0 {
		t.Fatalf("lock --check of the changed server exited 0:\n%s", r.stdout)
	}
	wantIn(t, "lock --check", r.stdout, "skill-file-changed", "group-item-removed", "tool-moved-into-group", "text-sensitive-reference-added")
}
