package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/outfiletest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// mainEnv makes the re-executed test binary run Main, as the real binary
// does, signals included.
const mainEnv = "MCP_SURFACE_TEST_MAIN"

// runCtx is run with a context, bounded by a deadline far above what the
// run needs: a run that ignores its context fails the test instead of
// hanging it.
func runCtx(t *testing.T, ctx context.Context, env []string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := RunEnv(ctx, args, testEnv(env, &out, &errb))
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("%v ignored its context", args)
		return result{}
	}
}

// TestCaptureToANullDevice: as root, a rename over /dev/null would replace
// the machine's null device. A device made in a temporary directory is
// tried first; /dev/null itself only when that one survived.
func TestCaptureToANullDevice(t *testing.T) {
	t.Parallel()
	null := outfiletest.NullDevice(t)
	dir := filepath.Dir(null)
	env := serverEnvFor(testserver.ModeToolsOnly)
	r := runOK(t, env, captureArgs("-o", null, "--frames", null)...)
	if !outfiletest.IsCharDevice(t, null) || !slices.Equal(outfiletest.Names(t, dir), []string{"null"}) {
		t.Fatalf("the device did not survive: %v", outfiletest.Names(t, dir))
	}
	r = run(t, env, captureArgs("-o", "/dev/null")...)
	if r.code != frontend.ExitOK || !strings.Contains(r.stderr, "wrote /dev/null") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	outfiletest.IsCharDevice(t, "/dev/null")
}

func TestCaptureToAFIFO(t *testing.T) {
	t.Parallel()
	fifo, got := outfiletest.FIFO(t)
	captureOK(t, testserver.ModeToolsOnly, "-o", fifo)
	m, err := manifest.FromCanonicalJSON(<-got)
	if err != nil || len(m.Tools) == 0 {
		t.Fatalf("the reader got no snapshot: %v", err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", fi.Mode())
	}
}

func TestCaptureToStdoutDash(t *testing.T) {
	t.Parallel()
	r := captureOK(t, testserver.ModeToolsOnly, "-o", "-")
	if _, err := manifest.FromCanonicalJSON([]byte(r.stdout)); err != nil || strings.Contains(r.stderr, "wrote") {
		t.Errorf("stdout is not the snapshot (%v); stderr: %s", err, r.stderr)
	}
}

// TestUnwritableOutputsFailBeforeTheServerStarts: the server command would
// leave a marker; none may appear, and the error names the path and the fix.
func TestUnwritableOutputsFailBeforeTheServerStarts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	server := []string{"--shell", "--", "touch " + marker}
	missing := filepath.Join(dir, "missing", "out.json")
	want := "cannot write " + missing + ": directory " + filepath.Join(dir, "missing") + " does not exist; create it first or choose another path"
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"capture", "-o", missing}, "-o"},
		{[]string{"capture", "--frames", missing}, "--frames"},
		{[]string{"snapshot", "-o", missing}, "-o"},
		{[]string{"validate", "--output", "sarif=" + missing}, "--output sarif=" + missing},
		{[]string{"check", "--baseline", "none", "--output", "json=" + missing}, "--output json=" + missing},
		{[]string{"probe", "--call", "echo={}", "--frames", missing}, "--frames"},
	} {
		r := run(t, nil, append(c.args, server...)...)
		wantMsg := "mcp-surface " + c.args[0] + ": " + c.flag + ": " + want + "\n"
		if r.code != frontend.ExitFailure || r.stderr != wantMsg {
			t.Errorf("%v: exit %d\n%s", c.args, r.code, cmp.Diff(wantMsg, r.stderr))
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%v started the server", c.args)
		}
	}
	if got := outfiletest.Names(t, dir); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

// snapshotAndFIFO is snapshotFile in a new directory, and a FIFO beside
// the snapshot; it skips the test where no FIFO can be made.
func snapshotAndFIFO(t *testing.T) (snapshot, fifo string) {
	t.Helper()
	dir := t.TempDir()
	snapshot, fifo = snapshotFile(t, dir, testserver.ModeToolsOnly), filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	return snapshot, fifo
}

func TestAFIFOSnapshotStopsWithTheContext(t *testing.T) {
	head, fifo := snapshotAndFIFO(t)
	for _, args := range [][]string{{"diff", fifo, head}, {"validate", fifo}, {"diff", "--config", fifo, head, head}} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		r := runCtx(t, ctx, nil, args...)
		cancel()
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "waiting for a writer to "+fifo+": context deadline exceeded") {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
}

// TestSignalsStopABlockedRead sends a real SIGINT to the real program
// (the re-executed test binary running Main), blocked reading a FIFO that
// a writer holds open and never writes to.
func TestSignalsStopABlockedRead(t *testing.T) {
	head, fifo := snapshotAndFIFO(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "diff", fifo, head)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The program's open of the FIFO is what lets ours succeed: from then
	// on its signal handler is in place and it waits in read.
	var w *os.File
	for w == nil {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		switch {
		case err == nil:
			w = f
		case !errors.Is(err, syscall.ENXIO):
			t.Fatal(err)
		case ctx.Err() != nil:
			t.Fatal("the program never opened the FIFO")
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
	defer w.Close()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("SIGINT did not stop the program: %s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != frontend.ExitFailure {
		t.Fatalf("got %v, want exit %d", err, frontend.ExitFailure)
	}
	// The signal may come while the program's open is still returning
	// (its wait for a writer ends) or once it reads: both are the FIFO.
	got := stderr.String()
	reading := "mcp-surface diff: base: reading " + fifo + ": interrupted by SIGINT\n"
	opening := "mcp-surface diff: base: waiting for a writer to " + fifo + ": interrupted by SIGINT\n"
	if want := "mcp-surface: SIGINT: stopping; send it again to exit at once\n"; !strings.HasPrefix(got, want) ||
		(!strings.HasSuffix(got, reading) && !strings.HasSuffix(got, opening)) {
		t.Errorf("stderr:\n%s", got)
	}
}

func TestSnapshotInputsAreBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	head := snapshotFile(t, dir, testserver.ModeToolsOnly)
	r := run(t, []string{frontend.MaxSnapshotEnv + "=1048576"}, "diff", "/dev/zero", head)
	want := "mcp-surface diff: base: /dev/zero is larger than 1 MiB, the limit for a snapshot file; raise it with " + frontend.MaxSnapshotEnv + "=BYTES (the default is 256 MiB)\n"
	if r.code != frontend.ExitFailure || r.stderr != want {
		t.Errorf("exit %d\n%s", r.code, cmp.Diff(want, r.stderr))
	}
	huge := filepath.Join(dir, "huge.json")
	f, _ := os.Create(huge)
	f.Truncate(manifest.DefaultMaxFileBytes + 1)
	f.Close()
	r = run(t, nil, "validate", huge)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, huge+" is larger than 256 MiB, the limit for a snapshot file; raise it with") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	r = run(t, []string{frontend.MaxSnapshotEnv + "=lots"}, "diff", head, head)
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, frontend.MaxSnapshotEnv+`="lots": give a positive number of bytes`) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}

func TestARepeatedConfigMistakePrintsACount(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	head := snapshotFile(t, dir, testserver.ModeToolsOnly)
	var b strings.Builder
	b.WriteString("version: 1\nacknowledged:\n")
	for range 5000 {
		b.WriteString("  - rule: tool-removed\n    reason: gone\n    bogus: 1\n")
	}
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte(b.String()), 0o644)
	r := run(t, nil, "diff", "--config", cfg, head, head)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != frontend.ExitFailure || len(lines) != 21 || lines[20] != "… and 4,980 more like this" {
		t.Errorf("exit %d, %d lines, last %q", r.code, len(lines), lines[len(lines)-1])
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	head := snapshotFile(t, dir, testserver.ModeToolsOnly)
	for _, args := range [][]string{
		{"validate", head, "--format", "json", "--schema-dir", spectest.SchemaDir(t)},
		{"diff", head, "--format", "json", head},
		{"diff", head, head, "--format=json", "--fail-on", "none"},
		{"cost", head, "--format", "json"},
	} {
		r := run(t, nil, args...)
		if r.code != frontend.ExitOK || !strings.HasPrefix(r.stdout, "{") {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %s", args, r.code, r.stdout, r.stderr)
		}
	}
	// "--" ends the flags: what follows is an argument, and for the
	// commands that run a server, the server's command line, untouched.
	r := run(t, nil, "diff", "--", head, "--format")
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "--format") {
		t.Errorf("diff -- BASE --format: exit %d: %s", r.code, r.stderr)
	}
}

func TestParseFlagsInterspersed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args       []string
		format     string
		quiet      bool
		positional []string
	}{
		{[]string{"a", "--format", "json", "b"}, "json", false, []string{"a", "b"}},
		{[]string{"--quiet", "a", "-format=sarif"}, "sarif", true, []string{"a"}},
		{[]string{"a", "--", "--format", "json"}, "text", false, []string{"a", "--format", "json"}},
		{[]string{"--format", "--", "a", "--quiet"}, "--", true, []string{"a"}},
		{[]string{"-", "--quiet", "--", "-"}, "text", true, []string{"-", "-"}},
		{nil, "text", false, nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		format := fs.String("format", "text", "")
		quiet := fs.Bool("quiet", false, "")
		if err := parseFlags(fs, c.args); err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if *format != c.format || *quiet != c.quiet || !slices.Equal(fs.Args(), c.positional) {
			t.Errorf("%q: format %q quiet %v args %q, want %q %v %q", c.args, *format, *quiet, fs.Args(), c.format, c.quiet, c.positional)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := parseFlags(fs, []string{"a", "--nope"}); err == nil || err.Error() != "unknown flag -nope; run `t -h` for the flags" {
		t.Errorf("an unknown flag after an argument: %v", err)
	}
}

func TestTheServerCommandKeepsItsFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	r := run(t, nil, "capture", "--startup-timeout", "5s", "--shell", "--", "printf '%s ' \"$0\" --format json > "+out)
	if r.code != frontend.ExitFailure {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(out); !strings.Contains(string(got), "--format json") {
		t.Errorf("the server command saw %q", got)
	}
}

// A second signal exits at once, and takes the servers still running
// with it: here one that never answers its handshake and outlives a
// closed stdin, interrupted twice while the first interrupt's orderly
// shutdown still waits out its grace.
func TestASecondSignalLeavesNoServer(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The server's mode goes in --env: in the program's own environment
	// it would make the program the server.
	cmd := exec.CommandContext(ctx, os.Args[0], "capture", "--shutdown-grace", "5s",
		"--env", testserver.EnvFor(testserver.ModeHang), "--env", testserver.PidFileVar+"="+pidFile, "--", os.Args[0])
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for pid == 0 {
		if ctx.Err() != nil {
			t.Fatal("the server never started")
		}
		time.Sleep(10 * time.Millisecond)
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	for _, sig := range []os.Signal{os.Interrupt, os.Interrupt} {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != frontend.ExitInterrupted {
		t.Fatalf("got %v, want exit %d\n%s", err, frontend.ExitInterrupted, stderr.String())
	}
	// SIGKILL is delivered asynchronously, and the dead server waits to be
	// reaped by whoever inherits it: poll until it is gone.
	for syscall.Kill(pid, 0) != syscall.ESRCH {
		if ctx.Err() != nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server pid %d outlived the program's exit", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
