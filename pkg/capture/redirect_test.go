package capture_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// recordingServer is a real MCP server that records every request it gets.
type recordingServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*http.Request
}

func newRecordingServer(t *testing.T, sse bool) *recordingServer {
	t.Helper()
	h, err := testserver.Handler(testserver.ModeToolsOnly, sse)
	if err != nil {
		t.Fatal(err)
	}
	rs := &recordingServer{}
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		rs.reqs = append(rs.reqs, r.Clone(context.Background()))
		rs.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(rs.Close)
	return rs
}

func (rs *recordingServer) requests() []*http.Request {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]*http.Request(nil), rs.reqs...)
}

// redirector answers every request with a 307 to base plus the request's
// own path and query, as a moved service would.
func redirector(t *testing.T, base string) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, base+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	return ts
}

const (
	redirectSecret = "Bearer redirect-secret"
	querySecret    = "token=query-secret"
)

// A redirect to another port, or another host, is refused: the second
// server gets neither the configured headers nor the URL's query, because
// it gets no request at all, and the error names both origins.
func TestCrossOriginRedirectIsRefused(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		name := "streamable"
		if sse {
			name = "sse"
		}
		t.Run(name, func(t *testing.T) {
			final := newRecordingServer(t, sse)
			fu, _ := url.Parse(final.URL)
			for _, target := range []string{
				final.URL,                       // another port
				"http://localhost:" + fu.Port(), // another host and port
			} {
				front := redirector(t, target)
				c, err := capture.Run(context.Background(), capture.HTTP{
					URL:     front.URL + "/mcp?" + querySecret,
					SSE:     sse,
					Headers: http.Header{"Authorization": {redirectSecret}, "X-Api-Key": {"key-secret"}},
				}, opts("2025-11-25"))
				var re *capture.RedirectError
				if !errors.As(err, &re) {
					t.Fatalf("redirect to %s: error %v, want a *capture.RedirectError", target, err)
				}
				msg := err.Error()
				tu, _ := url.Parse(target)
				for _, want := range []string{strings.TrimPrefix(front.URL, "http://"), tu.Host, "point the server URL at the final location"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not name %q", msg, want)
					}
				}
				for _, secret := range []string{"redirect-secret", "key-secret", "query-secret", "/mcp"} {
					if strings.Contains(msg, secret) {
						t.Errorf("error %q shows %q", msg, secret)
					}
				}
				if c == nil {
					t.Errorf("no partial capture returned")
				}
			}
			for _, r := range final.requests() {
				if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" || r.URL.RawQuery != "" {
					t.Errorf("the other origin received %s %s with Authorization %q, X-Api-Key %q", r.Method, r.URL, r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
				}
			}
			if n := len(final.requests()); n != 0 {
				t.Errorf("the other origin received %d request(s), want none", n)
			}
		})
	}
}

// A redirect within the configured origin is followed, with the headers.
func TestSameOriginRedirectIsFollowed(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		h, err := testserver.Handler(testserver.ModeToolsOnly, sse)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var auth []string
		mux := http.NewServeMux()
		mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
		})
		mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			auth = append(auth, r.Header.Get("Authorization"))
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
		ts := httptest.NewServer(mux)
		c, err := capture.Run(context.Background(), capture.HTTP{URL: ts.URL + "/old", SSE: sse,
			Headers: http.Header{"Authorization": {redirectSecret}}}, opts("2025-11-25"))
		ts.Close()
		if err != nil {
			t.Fatalf("sse=%v: %v", sse, err)
		}
		if pagesPerList(c)[capture.MethodToolsList] == 0 {
			t.Errorf("sse=%v: no tools read", sse)
		}
		mu.Lock()
		if len(auth) == 0 || auth[0] != redirectSecret {
			t.Errorf("sse=%v: Authorization after the redirect: %q", sse, auth)
		}
		mu.Unlock()
	}
}

// A legacy SSE server that announces its message endpoint on another
// origin is refused the same way: nothing is posted there.
func TestSSEEndpointOnAnotherOriginIsRefused(t *testing.T) {
	t.Parallel()
	other := newRecordingServer(t, true)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("event: endpoint\ndata: " + other.URL + "/messages?sessionid=1\n\n"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(front.Close)
	_, err := capture.Run(context.Background(), capture.HTTP{URL: front.URL + "/sse?" + querySecret, SSE: true,
		Headers: http.Header{"Authorization": {redirectSecret}}}, opts("2025-11-25"))
	var re *capture.RedirectError
	if !errors.As(err, &re) || !re.Endpoint || !strings.Contains(err.Error(), strings.TrimPrefix(other.URL, "http://")) {
		t.Fatalf("error %v, want a *capture.RedirectError for the endpoint naming %s", err, other.URL)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q shows a secret", err)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other origin received %d request(s), want none", n)
	}
}
