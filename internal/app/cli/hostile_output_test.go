package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/runnertest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// Hostile and confused servers, run through the real CLI in-process: what
// reaches stdout and stderr must not be obeyed by the Actions runner or a
// terminal, and a failure must name its real cause.

// pidServer is the environment of a raw test server that writes its pid,
// and a function that returns it once the run is over.
func pidServer(t *testing.T, mode string) ([]string, func() int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pid")
	return []string{testserver.EnvFor(mode), testserver.PidFileVar + "=" + path}, func() int {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("the server wrote no pid: %v", err)
		}
		pid, err := strconv.Atoi(string(data))
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
}

func TestHostileServerOutputIsEscaped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, mode string
		args       []string
		code       int
		want       []string // in stdout+stderr, escaped
	}{
		{"stderr tail of a crash", testserver.ModeHostileStderr, []string{"capture"}, frontend.ExitFailure,
			[]string{"exit status 4", `\u003a:error::forged`, `\u003a:add-mask::forged`, `\u003a:stop-commands::forged`, `##\[error]forged`, `\r::error::forged`, `\e[31m`}},
		{"line quoted by invalid JSON", testserver.ModeInvalidJSONCR, []string{"capture"}, frontend.ExitFailure,
			[]string{"invalid JSON on stdout", `"a\r::error::forged`, `\e]8;;`}},
		{"stdout noise", testserver.ModeHostileNoise, []string{"capture", "-o", "OUT"}, frontend.ExitOK,
			[]string{"log to stderr", `\u003a:error::forged`, `\u003a:stop-commands::forged`, `##\[error]forged`}},
		{"names in the summary of snapshot --check", testserver.ModeHostileNames, []string{"snapshot", "--check", "-o", "BASE"}, frontend.ExitFindings,
			[]string{"is out of date", `##\[error]forged`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			base := filepath.Join(dir, "base.json")
			runOK(t, serverEnvFor(testserver.ModeStdoutLog), "capture", "-o", base, "--", os.Args[0])
			args := make([]string, 0, len(tc.args)+3)
			for _, a := range tc.args {
				a = strings.ReplaceAll(a, "OUT", filepath.Join(dir, "out.json"))
				args = append(args, strings.ReplaceAll(a, "BASE", base))
			}
			env, pid := pidServer(t, tc.mode)
			r := run(t, env, append(args, "--", os.Args[0])...)
			out := r.stdout + r.stderr
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, out)
			}
			wantIn(t, "output", out, tc.want...)
			runnertest.AssertNothingForged(t, "stdout", r.stdout)
			runnertest.AssertNothingForged(t, "stderr", r.stderr)
			testserver.AssertGone(t, pid())
		})
	}
}

func TestFailureNamesTheRealCause(t *testing.T) {
	cases := []struct {
		name, mode string
		args       []string
		interrupt  bool // interrupt the run once the server runs
		code       int
		want       string
	}{
		{"startup timeout", testserver.ModeSlowStart, []string{"--startup-timeout", "1s"}, false, frontend.ExitFailure,
			"startup timeout limit of 1s reached; raise it with --startup-timeout"},
		{"interrupted", testserver.ModeSlowStart, nil, true, frontend.ExitFailure,
			"the handshake: interrupted: context canceled"},
		{"answer the SDK refused", testserver.ModeBadInitialize, nil, false, frontend.ExitFailure,
			"answered initialize (frame 3) with something the MCP Go SDK refused: "},
		{"unknown protocol version", testserver.ModeBadVersion, nil, false, frontend.ExitFailure,
			`answered initialize with protocolVersion "1999-01-01", which is not a revision the client supports`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, pid := pidServer(t, tc.mode)
			ctx := context.Background()
			if tc.interrupt {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				// As Ctrl-C cancels main's context, once the server has
				// started (it wrote its pid) and waits in the handshake:
				// on a loaded machine a fixed delay may come first.
				pidFile := strings.TrimPrefix(env[1], testserver.PidFileVar+"=")
				go func() {
					for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
						if data, err := os.ReadFile(pidFile); err == nil && len(data) > 0 {
							break
						}
					}
					time.Sleep(100 * time.Millisecond)
					cancel()
				}()
			}
			var out, errb bytes.Buffer
			full := append(os.Environ(), env...)
			args := append(append([]string{"capture"}, tc.args...), "--", os.Args[0])
			code := RunEnv(ctx, args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
				Getenv: func(string) string { return "" }, Environ: func() []string { return full }})
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) || strings.Contains(errb.String(), "exited") {
				t.Errorf("stderr does not name the cause %q (and must not blame an exit):\n%s", tc.want, errb.String())
			}
			// On a busy machine the startup timeout may fire before the
			// server wrote its pid: then it was killed and reaped before
			// RunEnv returned, and there is no pid to look for.
			pidFile := strings.TrimPrefix(env[1], testserver.PidFileVar+"=")
			if data, err := os.ReadFile(pidFile); tc.interrupt || err == nil && len(data) > 0 {
				testserver.AssertGone(t, pid())
			} else {
				t.Logf("the server was stopped before it wrote its pid")
			}
		})
	}
}

func TestJSONLogLineOnStdoutIsNoise(t *testing.T) {
	t.Parallel()
	env, pid := pidServer(t, testserver.ModeJSONLog)
	out := filepath.Join(t.TempDir(), "s.json")
	r := runOK(t, env, "capture", "-o", out, "--", os.Args[0])
	if !strings.Contains(r.stderr, `not a JSON-RPC 2.0 message (it has no "jsonrpc": "2.0")`) || !strings.Contains(r.stderr, "log to stderr instead") ||
		!strings.Contains(r.stderr, "2 tools") {
		t.Errorf("want the stdout-noise warning and the capture of both tools:\n%s", r.stderr)
	}
	testserver.AssertGone(t, pid())
}

func TestBatchReplyIsNamed(t *testing.T) {
	t.Parallel()
	env, pid := pidServer(t, testserver.ModeBatchReply)
	out := filepath.Join(t.TempDir(), "s.json")
	r := runOK(t, env, "capture", "-o", out, "--protocol-version", "2025-06-18", "--", os.Args[0])
	if !strings.Contains(r.stderr, "tools/list page 1 inside a JSON-RPC batch") || !strings.Contains(r.stderr, "revision 2025-06-18 has no JSON-RPC batches") ||
		strings.Contains(r.stderr, "cache") || !strings.Contains(r.stderr, "2 tools") {
		t.Errorf("want the batch named with the revision:\n%s", r.stderr)
	}
	testserver.AssertGone(t, pid())
}

func TestRepairedJSONIsReported(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode string
		want []string
	}{
		{testserver.ModeDuplicateKey, []string{"duplicate-identity-key", `names \"name\" 2 times`, "/result/tools/0/name", "duplicate-json-key", "/result/tools/0/inputSchema/type"}},
		{testserver.ModeInvalidUTF8, []string{"invalid-utf8", "/result/tools/0/description", "not UTF-8"}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			env, pid := pidServer(t, tc.mode)
			r := run(t, env, "validate", "--format", "json", "--schema-dir", spectest.SchemaDir(t), "--protocol-version", "2025-06-18", "--", os.Args[0])
			if r.code != frontend.ExitFindings {
				t.Fatalf("exit %d, want %d: %s", r.code, frontend.ExitFindings, r.stderr)
			}
			wantIn(t, "report", r.stdout, tc.want...)
			testserver.AssertGone(t, pid())
		})
	}
}

func TestSnapshotWithDuplicateKeyIsRefused(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.json")
	data := `{"snapshotVersion":1,"protocolVersion":"2025-06-18","tools":[{"name":"` + testserver.DuplicateKeyFirst +
		`","inputSchema":{"type":"object"},"name":"` + testserver.DuplicateKeyLast + `"}]}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, nil, "diff", path, path)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, `duplicate key "name" at "/tools/0/name"`) {
		t.Errorf("exit %d, want %d and the key named: %s", r.code, frontend.ExitFailure, r.stderr)
	}
}
