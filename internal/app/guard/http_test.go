package guard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpGuard serves a mode over streamable HTTP, locks it, and runs the
// guard in front of it; it returns the guard's endpoint.
func httpGuard(t *testing.T, mode string, onChange Mode, log *syncbuf.Buffer) (endpoint string, stop func() error) {
	endpoint, _, stop = httpGuardUpstream(t, mode, onChange, log, false)
	return endpoint, stop
}

// httpGuardUpstream is httpGuard that also returns the server's own URL.
// With jsonResponse the server answers POSTs with JSON bodies, not event
// streams.
func httpGuardUpstream(t *testing.T, mode string, onChange Mode, log *syncbuf.Buffer, jsonResponse bool) (endpoint, server string, stop func() error) {
	t.Helper()
	return httpGuardWrapped(t, mode, onChange, log, jsonResponse, nil)
}

// httpGuardWrapped is httpGuardUpstream with the server's handler wrapped
// (nil: as it is).
func httpGuardWrapped(t *testing.T, mode string, onChange Mode, log *syncbuf.Buffer, jsonResponse bool, wrap func(http.Handler) http.Handler) (endpoint, server string, stop func() error) {
	t.Helper()
	srv, err := testserver.New(mode)
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
	var hh http.Handler = h
	if wrap != nil {
		hh = wrap(h)
	}
	upstream := httptest.NewServer(hh)
	l := &lock.Lock{}
	l.Put(lock.Entry{Config: ".vscode/mcp.json", Name: mode, Transport: "http", Snapshot: snapshotOf(t, capture.HTTP{URL: upstream.URL})})
	endpoint, stopGuard := startHTTPGuard(t, upstream.URL, Options{Entry: &l.Entries[0], All: l, Mode: onChange, Log: &Logger{File: log}})
	return endpoint, upstream.URL, func() error {
		err := stopGuard()
		upstream.Close()
		return err
	}
}

// startHTTPGuard runs the guard on a loopback port in front of upstream;
// stop ends it and returns what it returned.
func startHTTPGuard(t *testing.T, upstream string, o Options) (endpoint string, stop func() error) {
	t.Helper()
	ln, err := ListenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- RunHTTP(ctx, HTTPConfig{Upstream: upstream, Listener: ln, Options: o}) }()
	return "http://" + ln.Addr().String(), func() error {
		cancel()
		return <-done
	}
}

// TestGuardHTTP: the guard in front of a streamable HTTP server: results
// as direct under a current lock, and a rug pull mid-session blocked.
func TestGuardHTTP(t *testing.T) {
	var log syncbuf.Buffer
	endpoint, stop := httpGuard(t, testserver.ModeRugPull, ModeBlock, &log)
	cs, changed := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint})
	if d := toolNames(t, cs); len(d) != 4 || d["read_file"] != testserver.ReadFileDescription {
		t.Fatalf("before the change: %v", d)
	}
	if cs.InitializeResult().Instructions != testserver.RugPullInstructions {
		t.Errorf("instructions %q", cs.InitializeResult().Instructions)
	}
	pull(t, cs, changed, testserver.RugPullTrigger)
	d := toolNames(t, cs)
	if _, ok := d["read_file"]; ok || len(d) != 3 {
		t.Errorf("after the rug pull the client is shown %v", d)
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "x"}})
	if err == nil || !strings.Contains(err.Error(), `tool "read_file"`) || strings.Contains(err.Error(), "id_rsa") {
		t.Errorf("a call of the blocked tool gave %v", err)
	}
	cs.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), `"decision":"blocked"`) || !strings.Contains(log.String(), `"decision":"refused"`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestGuardHTTPIsTransparent: a go-sdk client through the guard to a
// streamable HTTP server whose lock is current gets the results it gets
// directly.
func TestGuardHTTPIsTransparent(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		t.Run(map[bool]string{false: "event streams", true: "JSON answers"}[jsonResponse], func(t *testing.T) {
			httpTransparent(t, jsonResponse)
		})
	}
}

func httpTransparent(t *testing.T, jsonResponse bool) {
	var log syncbuf.Buffer
	endpoint, server, stop := httpGuardUpstream(t, testserver.ModeFull, ModeBlock, &log, jsonResponse)
	cs, _ := connect(t, &mcp.StreamableClientTransport{Endpoint: server})
	want := session(t, cs)
	cs.Close()
	cs, _ = connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint})
	got := session(t, cs)
	cs.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("results through the guard differ:\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(log.String(), `"decision":"checked"`) || strings.Contains(log.String(), `"change":`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// TestGuardHTTPFail: under fail, the listing after the change is an
// error, the session is ended, and the guard reports ErrChanged.
func TestGuardHTTPFail(t *testing.T) {
	var log syncbuf.Buffer
	endpoint, stop := httpGuard(t, testserver.ModeRugPull, ModeFail, &log)
	cs, changed := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint})
	toolNames(t, cs)
	pull(t, cs, changed, testserver.RugPullTrigger)
	if _, err := cs.ListTools(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "session ends") {
		t.Errorf("the listing after the change gave %v", err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "x"}}); err == nil {
		t.Error("the ended session still serves calls")
	}
	cs.Close()
	if err := stop(); !errors.Is(err, ErrChanged) {
		t.Errorf("the guard ended with %v, want ErrChanged", err)
	}
}

// TestGuardListenLoopback: the guard listens on this machine only.
func TestGuardListenLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:80", "example.com:80", "nonsense"} {
		if ln, err := ListenLoopback(addr); err == nil {
			ln.Close()
			t.Errorf("%s accepted", addr)
		}
	}
}

// TestGuardHTTPStop: stopping the guard while a client keeps its session
// (and its event stream) open returns, and ends the session upstream; a
// request naming a session the server does not know is not kept.
func TestGuardHTTPStop(t *testing.T) {
	var log syncbuf.Buffer
	var mu sync.Mutex
	deleted := map[string]bool{}
	endpoint, _, stop := httpGuardWrapped(t, testserver.ModeRugPull, ModeBlock, &log, false, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodDelete {
				mu.Lock()
				deleted[r.Header.Get(sessionHeader)] = true
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	})
	cs, _ := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint})
	defer cs.Close()
	toolNames(t, cs)
	// A made-up session id: the server refuses it, and the guard keeps
	// nothing for it.
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set(sessionHeader, "made-up")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the guard did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if !deleted[cs.ID()] || deleted["made-up"] {
		t.Errorf("sessions ended upstream: %v, want %q", deleted, cs.ID())
	}
}

// TestGuardHTTPStateless: a server that gives no session id is followed
// as one session: a new tool one request listed (harmless, so passed) is
// called in the next, and a call of a tool nothing listed and the lock
// lacks is still refused.
func TestGuardHTTPStateless(t *testing.T) {
	srv, err := testserver.New(testserver.ModeRugPull)
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer upstream.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := snapshotOf(t, capture.HTTP{URL: upstream.URL})
	// The lock lacks search_files: to the guard it is a new tool.
	m.Tools = slices.DeleteFunc(slices.Clone(m.Tools), func(it manifest.Item) bool { return it.ID == "search_files" })
	l := &lock.Lock{}
	l.Put(lock.Entry{Config: ".vscode/mcp.json", Name: "stateless", Transport: "http", Snapshot: m})
	endpoint, stop := startHTTPGuard(t, upstream.URL, Options{Entry: &l.Entries[0], All: l})
	defer stop()
	cs, _ := connect(t, &mcp.StreamableClientTransport{Endpoint: endpoint})
	defer cs.Close()
	if d := toolNames(t, cs); len(d) != 4 {
		t.Fatalf("tools %v", d)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "x"}}); err != nil {
		t.Errorf("the listed new tool: %v", err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "not in the lock") {
		t.Errorf("an unlisted tool the lock lacks: %v", err)
	}
}
