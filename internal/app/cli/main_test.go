package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// TestMain lets tests re-execute this test binary as a stdio MCP test
// server: run(t, ..., "--", serverCmd("full")...) .
func TestMain(m *testing.M) {
	// A server that Main (below) starts through capture's exec shim: the
	// shim execs it as a subreaper, and it comes back here as the server.
	if os.Getenv(mainEnv) != "" && len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		_ = capture.AdoptOrphans()
	}
	testserver.MaybeRunFromEnv()
	if os.Getenv(mainEnv) != "" {
		os.Exit(Main())
	}
	os.Exit(m.Run())
}

// result of one in-process run of the CLI.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the CLI in-process with the given extra environment entries.
func run(t *testing.T, env []string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := RunEnv(context.Background(), args, testEnv(env, &out, &errb))
	return result{code, out.String(), errb.String()}
}

// runOK is run for a run that must succeed: any other exit fails the
// test at once.
func runOK(t *testing.T, env []string, args ...string) result {
	t.Helper()
	r := run(t, env, args...)
	if r.code != frontend.ExitOK {
		t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// testEnv is the test process's environment with the given extra entries
// (the last of a name wins), no input, and the streams given.
func testEnv(env []string, stdout, stderr *bytes.Buffer) *Env {
	full := append(os.Environ(), env...)
	return &Env{
		Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr,
		Getenv: func(k string) string {
			for i := len(full) - 1; i >= 0; i-- {
				if name, v, ok := strings.Cut(full[i], "="); ok && name == k {
					return v
				}
			}
			return ""
		},
		Environ: func() []string { return full },
	}
}

// wantIn fails the test for each of wants that got (what the test names
// what) lacks.
func wantIn(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

// serverEnvFor is the environment entry that turns the re-executed test
// binary into the test server of the given mode.
func serverEnvFor(mode string) []string { return []string{testserver.EnvFor(mode)} }

// serverCmd is the command line of the re-executed test binary.
func serverCmd() []string { return []string{os.Args[0]} }

// captureArgs is the command line that captures the re-executed test
// binary's server with the given capture flags.
func captureArgs(flags ...string) []string {
	return append(append([]string{"capture"}, flags...), append([]string{"--"}, serverCmd()...)...)
}

// snapshotFile captures the test server of the given mode into
// mcp-surface.json in dir and returns the file's path.
func snapshotFile(t *testing.T, dir, mode string) string {
	t.Helper()
	path := filepath.Join(dir, "mcp-surface.json")
	captureOK(t, mode, "-o", path)
	return path
}

// captureOK captures the test server of the given mode with the given
// capture flags and fails the test unless the capture succeeds.
func captureOK(t *testing.T, mode string, flags ...string) result {
	t.Helper()
	return runOK(t, serverEnvFor(mode), captureArgs(flags...)...)
}
