package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func TestCaptureWritesSnapshotAndFrames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, frames := filepath.Join(dir, "s.json"), filepath.Join(dir, "frames.jsonl")
	args := append([]string{"capture", "-o", out, "--frames", frames, "--protocol-version", "2025-06-18", "--"}, serverCmd()...)
	r := run(t, serverEnvFor(testserver.ModeFull), args...)
	if r.code != frontend.ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
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
	args := append([]string{"capture", "--"}, serverCmd()...)
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
	args := append([]string{"capture", "-o", out, "--protocol-version", "2025-03-26", "--protocol-version", "2026-07-28", "--"}, serverCmd()...)
	r := run(t, serverEnvFor(testserver.ModeFull), args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
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
		{"crash", serverEnvFor(testserver.ModeCrashHandshake), append([]string{"capture", "--"}, serverCmd()...), "config file missing"},
		{"hang", serverEnvFor(testserver.ModeHang), append([]string{"capture", "--startup-timeout", "1s", "--"}, serverCmd()...), "--startup-timeout"},
		{"duplicate", serverEnvFor(testserver.ModeDuplicateName), append([]string{"capture", "--"}, serverCmd()...), `"search"`},
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
	r := run(t, serverEnvFor(testserver.ModeStdoutLog), append([]string{"capture", "--"}, serverCmd()...)...)
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
	if r := run(t, full, append([]string{"snapshot", "-o", path}, cmd...)...); r.code != 0 {
		t.Fatalf("snapshot: exit %d: %s", r.code, r.stderr)
	}
	if r := run(t, serverEnvFor("shuffled-9"), append([]string{"snapshot", "--check", "-o", path}, cmd...)...); r.code != 0 {
		t.Fatalf("a reordered server no longer matches: exit %d %s", r.code, r.stdout)
	}
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
	if r := run(t, serverEnvFor(testserver.ModeFull), append([]string{"snapshot", "-o", path}, cmd...)...); r.code != 0 {
		t.Fatalf("snapshot: exit %d: %s", r.code, r.stderr)
	}
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
	r := run(t, serverEnvFor(testserver.ModePagedRaw), append([]string{"capture", "--"}, serverCmd()...)...)
	if r.code != 0 {
		t.Fatalf("capture: exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "info: the server did not accept server/discover") {
		t.Fatalf("the server fell back to initialize, but stderr does not say so: %q", r.stderr)
	}
	if strings.Contains(r.stderr, "warning:") {
		t.Errorf("a warning: line: %q", r.stderr)
	}
}
