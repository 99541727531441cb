package capture_test

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// buildServer builds cmd/testserver: one program that serves the same
// mode over stdio and over streamable HTTP.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "testserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../../internal/testkit/testserver/cmd/testserver").CombinedOutput(); err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}
	return bin
}

// The one binary over stdio and over streamable HTTP.
func TestOneBinaryOverStdioAndHTTP(t *testing.T) {
	t.Parallel()
	bin := buildServer(t)
	t.Run("stateless HTTP: identical snapshots", func(t *testing.T) {
		t.Parallel()
		snapshotsAreIdentical(t, bin)
	})
	t.Run("stateful HTTP: the discover answer is kept", func(t *testing.T) {
		t.Parallel()
		discoverAnswerKept(t, bin)
	})
}

// serveHTTP starts the binary over HTTP on loopback and returns its URL;
// the process is stopped when the test ends.
func serveHTTP(t *testing.T, bin, mode string, stateless bool) string {
	t.Helper()
	args := []string{"-http", "127.0.0.1:0"}
	if stateless {
		args = append(args, "-stateless")
	}
	cmd := exec.Command(bin, append(args, mode)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, testserver.EnvVar+"=") })
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case u := <-line:
		if !strings.HasPrefix(u, "http://") {
			t.Fatalf("the test server printed %q, not its URL", u)
		}
		return u
	case <-time.After(20 * time.Second):
		t.Fatal("the test server did not print its URL in 20s")
	}
	return ""
}

// captureBoth captures mode of the one binary over stdio and over HTTP,
// at the newest revision (server/discover first).
func captureBoth(t *testing.T, bin, mode string, stateless bool) (stdioC, httpC *capture.Capture) {
	t.Helper()
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, testserver.EnvVar+"=") })
	stdioC = mustRun(t, capture.Command{Argv: []string{bin, mode}, Env: env}, opts(""))
	httpC = mustRun(t, capture.HTTP{URL: serveHTTP(t, bin, mode, stateless)}, opts(""))
	return stdioC, httpC
}

// The same server over stdio and over (stateless) streamable HTTP gives
// the same snapshot byte for byte, and its diff has no finding.
func snapshotsAreIdentical(t *testing.T, bin string) {
	sc, hc := captureBoth(t, bin, testserver.ModeFull, true)
	for _, c := range []*capture.Capture{sc, hc} {
		if c.Handshake != capture.HandshakeDiscover || c.ProtocolVersion != capture.LatestRevision {
			t.Errorf("%s: handshake %s at %s, want server/discover at %s", c.Transport, c.Handshake, c.ProtocolVersion, capture.LatestRevision)
		}
	}
	sm, hm := capturetest.Build(t, sc), capturetest.Build(t, hc)
	if len(sm.SupportedVersions) < 2 {
		t.Fatalf("the server listed %v; the test needs several revisions", sm.SupportedVersions)
	}
	if d := cmp.Diff(string(capturetest.Encode(t, sm)), string(capturetest.Encode(t, hm))); d != "" {
		t.Errorf("HTTP snapshot differs from the stdio one (-stdio +http):\n%s", d)
	}
	for _, pair := range [][2]*manifest.Manifest{{sm, hm}, {hm, sm}} {
		if fs := diff.Diff(pair[0], pair[1], diff.Options{}).Findings; len(fs) != 0 {
			t.Errorf("diff of the two snapshots: %d findings, first %s: %s", len(fs), fs[0].Rule, fs[0].Message)
		}
	}
}

// A stateful streamable HTTP server cannot serve 2026-07-28: it answers
// server/discover with the older revisions it serves, and the session goes
// on with initialize. The answer is kept, and nothing says it was refused.
func discoverAnswerKept(t *testing.T, bin string) {
	sc, hc := captureBoth(t, bin, testserver.ModeFull, false)
	if hc.Handshake != capture.HandshakeInitialize || hc.ProtocolVersion != "2025-11-25" {
		t.Fatalf("handshake %s at %s, want initialize at 2025-11-25 (the newest a stateful server serves)", hc.Handshake, hc.ProtocolVersion)
	}
	sm, hm := capturetest.Build(t, sc), capturetest.Build(t, hc)
	want := []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	if !slices.Equal(hm.SupportedVersions, want) {
		t.Errorf("HTTP snapshot's supportedVersions = %v, want the four the server listed, %v", hm.SupportedVersions, want)
	}
	if !slices.Equal(hc.SupportedVersions(), want) {
		t.Errorf("capture's SupportedVersions = %v", hc.SupportedVersions())
	}
	for _, d := range hc.Diagnostics {
		if strings.Contains(d.Message, "did not accept") {
			t.Errorf("diagnostic says the answered discover was refused: %s", d.Message)
		}
		if d.Code == capture.DiagHandshakeFallback && !strings.Contains(d.Message, `only revisions before 2026-07-28 ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")`) {
			t.Errorf("fallback diagnostic does not name the listed revisions: %s", d.Message)
		}
	}
	// The surface is the same; only the revisions the transport serves differ.
	for name, same := range map[string]bool{
		"serverInfo":   string(sm.ServerInfo) == string(hm.ServerInfo),
		"capabilities": string(sm.Capabilities) == string(hm.Capabilities),
		"instructions": string(sm.Instructions) == string(hm.Instructions),
		"items": cmp.Equal(sm.Fingerprints.Tools, hm.Fingerprints.Tools) && cmp.Equal(sm.Fingerprints.Prompts, hm.Fingerprints.Prompts) &&
			cmp.Equal(sm.Fingerprints.Resources, hm.Fingerprints.Resources) && cmp.Equal(sm.Fingerprints.ResourceTemplates, hm.Fingerprints.ResourceTemplates),
	} {
		if !same {
			t.Errorf("%s differ between stdio and stateful HTTP", name)
		}
	}
	// What the diff reports is 2026-07-28 alone, the one revision the
	// stateful transport does not serve.
	for _, f := range diff.Diff(sm, hm, diff.Options{}).Findings {
		if !strings.HasPrefix(f.Rule, "protocol-version-") && !strings.HasPrefix(f.Rule, "server-version-") {
			t.Errorf("unexpected finding %s: %s", f.Rule, f.Message)
		}
		if strings.HasPrefix(f.Rule, "protocol-version-no-longer") && !strings.Contains(f.Message, "2026-07-28") {
			t.Errorf("a revision the HTTP server lists is reported withdrawn: %s", f.Message)
		}
	}
}

// A raw server that refuses server/discover is still said to refuse it.
func TestRefusedDiscoverIsSaidToBeRefused(t *testing.T) {
	t.Parallel()
	c := mustRun(t, stdio(t, testserver.ModePagedRaw), opts(""))
	if m := capturetest.Build(t, c); m.SupportedVersions != nil || c.Discovered() != nil {
		t.Errorf("a refused discover left supportedVersions %v, discovered %s", m.SupportedVersions, c.Discovered())
	}
	found := slices.ContainsFunc(c.Diagnostics, func(d capture.Diagnostic) bool {
		return d.Code == capture.DiagHandshakeFallback && strings.Contains(d.Message, "did not accept server/discover") && strings.Contains(d.Message, "-32601")
	})
	if !found {
		t.Errorf("no fallback diagnostic naming the refusal: %+v", c.Diagnostics)
	}
}

// A streamable HTTP server that refuses server/discover with an HTTP error
// status is said to refuse it when the body is a JSON-RPC error (which the
// SDK hands over as a write error, not as a message), and not to answer it
// when the body is anything else.
func TestDiscoverRefusedInAnHTTPErrorBody(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, contentType, body, want string
		frame                         bool
	}{
		{"json-rpc error", "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
			"the server did not accept server/discover; the session fell back to initialize (error -32601: Method not found)", true},
		{"plain text", "text/plain", "404 page not found",
			"the server did not answer server/discover with a JSON-RPC response; the session fell back to initialize", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, err := testserver.Handler(testserver.ModeToolsOnly, false)
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
				if r.Method == http.MethodPost && strings.Contains(string(body), `"server/discover"`) {
					w.Header().Set("Content-Type", c.contentType)
					w.WriteHeader(http.StatusBadRequest)
					_, _ = io.WriteString(w, c.body)
					return
				}
				r.Body = io.NopCloser(bytes.NewReader(body))
				h.ServeHTTP(w, r)
			}))
			defer ts.Close()
			got := mustRun(t, capture.HTTP{URL: ts.URL}, opts(""))
			if got.Handshake != capture.HandshakeInitialize || got.Discovered() != nil {
				t.Errorf("handshake %s, discovered %s", got.Handshake, got.Discovered())
			}
			if !slices.ContainsFunc(got.Diagnostics, func(d capture.Diagnostic) bool { return d.Message == c.want }) {
				t.Errorf("diagnostics %+v, want %q", got.Diagnostics, c.want)
			}
			recorded := slices.ContainsFunc(got.Exchanges, func(e capture.Exchange) bool {
				return e.Method == "server/discover" && e.Error != nil && e.Error.Code == capture.CodeMethodNotFound && e.ResponseFrame > e.RequestFrame
			})
			if recorded != c.frame {
				t.Errorf("discover's error recorded as its response: %v, want %v", recorded, c.frame)
			}
		})
	}
}
