package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcp-surface-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binPath = filepath.Join(dir, "mcp-surface")
	build := exec.Command("go", "build", "-o", binPath, "..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcp-surface:", err)
		os.Exit(2)
	}
	serversMissing = installServers()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serversMissing says why the reference servers cannot run ("" when they
// can); requireNode turns it into a skip or a failure.
var serversMissing string

// npmTimeout bounds the one `npm ci` a test run may do.
const npmTimeout = 5 * time.Minute

// referenceServers are the packages the tests start.
var referenceServers = []string{"server-everything", "server-filesystem", "server-memory"}

// installServers makes the pinned reference servers available: when they
// are not installed and npm is on PATH, it runs the install command that
// the e2e README documents, once, so that the repository's test command
// works on a fresh clone. It returns why they cannot run, or "".
func installServers() string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not on PATH (install Node.js 20 or later with npm)"
	}
	if serversInstalled() {
		return ""
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "the reference servers are not installed and npm is not on PATH: install npm, or run `npm ci --prefix e2e`"
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", "e2e", "--no-audit", "--no-fund")
	cmd.Dir = ".."
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("no result after %s", npmTimeout)
	}
	if err == nil && !serversInstalled() {
		err = fmt.Errorf("it succeeded, but %s is still missing", filepath.Join("node_modules", "@modelcontextprotocol"))
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: `npm ci --prefix e2e --no-audit --no-fund` failed: %v\n%s\n", err, out.Bytes())
		return fmt.Sprintf("installing the reference servers failed (`npm ci --prefix e2e`: %v; its output is above)", err)
	}
	fmt.Fprintf(os.Stderr, "e2e: installed the reference servers with `npm ci --prefix e2e` in %s\n", time.Since(start).Round(time.Second))
	return ""
}

func serversInstalled() bool {
	for _, name := range referenceServers {
		if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", name, "package.json")); err != nil {
			return false
		}
	}
	return true
}

// requireNode skips (or, with MCP_SURFACE_E2E=required, fails) when Node.js
// or the pinned packages are missing and could not be installed.
func requireNode(t *testing.T) {
	t.Helper()
	missing := serversMissing
	if missing == "" {
		return
	}
	if os.Getenv("MCP_SURFACE_E2E") == "required" {
		t.Fatalf("end-to-end tests are required here but cannot run: %s", missing)
	}
	t.Skipf("skipping end-to-end test: %s", missing)
}

func serverPath(name string) string {
	abs, _ := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", name, "dist", "index.js"))
	return abs
}

type run struct {
	code           int
	stdout, stderr string
}

func mcpSurface(t *testing.T, args ...string) run {
	t.Helper()
	return runBinary(t, "", nil, args...)
}

// runBinary runs the built binary in dir ("" for the test's directory)
// with env (nil for this process's), bounded to two minutes; an exit
// status is a result, a binary that could not run is fatal.
func runBinary(t *testing.T, dir string, env []string, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running mcp-surface: %v", err)
	}
	return run{code, out.String(), errb.String()}
}

func captureTo(t *testing.T, version string, args ...string) *manifest.Manifest {
	t.Helper()
	out := filepath.Join(t.TempDir(), "snap.json")
	full := append([]string{"capture", "-o", out, "--protocol-version", version}, args...)
	r := mcpSurface(t, full...)
	if r.code != 0 {
		t.Fatalf("capture exit %d:\n%s", r.code, r.stderr)
	}
	m, err := manifest.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type counts struct{ tools, prompts, resources, templates int }

func countsOf(m *manifest.Manifest) counts {
	return counts{len(m.Tools), len(m.Prompts), len(m.Resources), len(m.ResourceTemplates)}
}

func TestReferenceServersOverStdio(t *testing.T) {
	t.Parallel()
	requireNode(t)
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")
	fsRoot := t.TempDir()
	servers := []struct {
		name string
		args []string
		want counts
		// negotiated revision for a request of 2026-07-28 (none of them
		// implements server/discover yet: they fall back to initialize)
	}{
		{"server-everything", []string{"--", "node", serverPath("server-everything"), "stdio"}, counts{13, 4, 7, 2}},
		{"server-filesystem", []string{"--", "node", serverPath("server-filesystem"), fsRoot}, counts{14, 0, 0, 0}},
		{"server-memory", []string{"--env", "MEMORY_FILE_PATH=" + memFile, "--", "node", serverPath("server-memory")}, counts{9, 0, 1, 0}},
	}
	for _, s := range servers {
		for _, v := range capture.Revisions {
			t.Run(s.name+"/"+v, func(t *testing.T) {
				t.Parallel()
				m := captureTo(t, v, s.args...)
				if got := countsOf(m); got != s.want {
					t.Errorf("counts %+v, want %+v", got, s.want)
				}
				wantRev := v
				if v == "2026-07-28" {
					wantRev = "2025-11-25"
				}
				if m.ProtocolVersion != wantRev || m.Handshake != capture.HandshakeInitialize {
					t.Errorf("negotiated %s via %s, want %s via initialize", m.ProtocolVersion, m.Handshake, wantRev)
				}
			})
		}
	}
}

// The same server captured twice, and over every transport, gives the same
// snapshot bytes.
func TestEverythingTransportsAgree(t *testing.T) {
	t.Parallel()
	requireNode(t)
	stdio := captureTo(t, "2025-11-25", "--", "node", serverPath("server-everything"), "stdio")
	again := captureTo(t, "2025-11-25", "--", "node", serverPath("server-everything"), "stdio")
	if stdio.Fingerprints.Manifest != again.Fingerprints.Manifest {
		t.Fatalf("two stdio captures differ")
	}
	for _, mode := range []string{"streamableHttp", "sse"} {
		t.Run(mode, func(t *testing.T) {
			port := startHTTPServer(t, mode)
			var m *manifest.Manifest
			if mode == "sse" {
				m = captureTo(t, "2025-11-25", "--sse", "--url", fmt.Sprintf("http://127.0.0.1:%d/sse", port))
			} else {
				m = captureTo(t, "2025-11-25", "--url", fmt.Sprintf("http://127.0.0.1:%d/mcp", port), "--header", "X-Test: 1")
			}
			if countsOf(m) != countsOf(stdio) {
				t.Errorf("%s counts %+v, stdio %+v", mode, countsOf(m), countsOf(stdio))
			}
			if m.Fingerprints.Manifest != stdio.Fingerprints.Manifest {
				for _, it := range m.Tools {
					if b, ok := stdio.Find(manifest.ListTools, it.ID); !ok || string(b.Raw) != string(it.Raw) {
						t.Logf("tool %s differs", it.ID)
					}
				}
				t.Errorf("%s snapshot differs from the stdio snapshot", mode)
			}
		})
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startHTTPServer runs server-everything over HTTP on a free loopback port
// and waits until it says it listens.
func startHTTPServer(t *testing.T, mode string) int {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command("node", serverPath("server-everything"), mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if !once && strings.Contains(sc.Text(), fmt.Sprint(port)) {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("server-everything %s did not start on port %d", mode, port)
	}
	return port
}

func TestSnapshotCheckOnReferenceServer(t *testing.T) {
	t.Parallel()
	requireNode(t)
	path := filepath.Join(t.TempDir(), "mcp-surface.json")
	srv := []string{"--", "node", serverPath("server-filesystem"), t.TempDir()}
	if r := mcpSurface(t, append([]string{"snapshot", "-o", path}, srv...)...); r.code != 0 {
		t.Fatalf("snapshot: exit %d: %s", r.code, r.stderr)
	}
	if r := mcpSurface(t, append([]string{"snapshot", "--check", "-o", path}, srv...)...); r.code != 0 {
		t.Fatalf("check: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	other := []string{"--", "node", serverPath("server-memory")}
	r := mcpSurface(t, append([]string{"snapshot", "--check", "--env", "MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "m.jsonl"), "-o", path}, other...)...)
	// The verdict first, then the diff engine's findings, one line each.
	if r.code != 1 || !strings.Contains(r.stdout, "tools break existing clients: "+path+" is out of date\n") || !strings.Contains(r.stdout, "[tool-removed]") {
		t.Fatalf("check against another server: exit %d: %s", r.code, r.stdout)
	}
}

var _ = runtime.GOOS
