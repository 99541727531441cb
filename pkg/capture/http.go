package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP is a server reached over streamable HTTP or, with SSE set, the
// legacy HTTP+SSE transport.
type HTTP struct {
	URL string
	// Headers are added to every request. Values are never printed.
	Headers http.Header
	SSE     bool
	// Client is the HTTP client to use (nil: a new one with no timeout of
	// its own; requests are bounded by the capture's limits).
	Client *http.Client
}

// Describe returns the URL without user info, query or fragment, which may
// carry secrets.
func (h HTTP) Describe() string {
	u, err := url.Parse(h.URL)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	s := u.String()
	if h.SSE {
		return s + " (sse)"
	}
	return s
}

func (h HTTP) kind() string {
	if h.SSE {
		return "sse"
	}
	return "http"
}

// headerTransport adds the user's headers, and the MCP-Protocol-Version
// header once the session has negotiated one (the SDK sets it through a
// connection hook that a recording wrapper cannot forward).
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header

	mu      sync.Mutex
	version string
}

func (t *headerTransport) setVersion(v string) {
	t.mu.Lock()
	t.version = v
	t.mu.Unlock()
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.headers {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	t.mu.Lock()
	v := t.version
	t.mu.Unlock()
	if v != "" && req.Header.Get("Mcp-Protocol-Version") == "" {
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	return t.base.RoundTrip(req)
}

func (h HTTP) open(ctx context.Context, rec *recorder, lim Limits) (*session, error) {
	u, err := url.Parse(h.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server URL %q is not an http(s) URL", h.Describe())
	}
	base := http.DefaultTransport
	client := &http.Client{}
	if h.Client != nil {
		c := *h.Client
		client = &c
		if c.Transport != nil {
			base = c.Transport
		}
	}
	ht := &headerTransport{base: base, headers: h.Headers}
	client.Transport = ht
	// Learn the negotiated version from the handshake's result.
	rec.onReceive = func(data []byte) {
		var r struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(data, &r) == nil && r.Result.ProtocolVersion != "" {
			ht.setVersion(r.Result.ProtocolVersion)
		}
	}
	var t mcp.Transport
	if h.SSE {
		t = &mcp.SSEClientTransport{Endpoint: h.URL, HTTPClient: client, MaxEventSize: int(lim.MaxBytes)}
	} else {
		t = &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: client, MaxRetries: -1,
			DisableStandaloneSSE: true, MaxEventSize: int(lim.MaxBytes)}
	}
	// Pairs of (secret, replacement) for error text.
	var secrets []string
	if u.RawQuery != "" {
		secrets = append(secrets, u.RawQuery, "[query removed]")
	}
	if u.User != nil {
		secrets = append(secrets, u.User.String(), "[user removed]")
	}
	for _, vs := range h.Headers {
		for _, v := range vs {
			if v != "" {
				secrets = append(secrets, v, "[header value removed]")
			}
		}
	}
	redact := strings.NewReplacer(secrets...).Replace
	return &session{
		redact:    func(s string) string { return redact(strings.ReplaceAll(s, h.URL, h.Describe())) },
		transport: t,
		failure:   func() error { return nil },
		shutdown:  func() {},
		stderr:    func() string { return "" },
		diags:     func() []Diagnostic { return nil },
	}, nil
}

// InProcess captures an *mcp.Server running in this process, for Go users'
// own tests: `capture.Run(ctx, capture.InProcess{Server: s}, opts)`.
type InProcess struct {
	Server *mcp.Server
}

// Describe names the target.
func (InProcess) Describe() string { return "in-process server" }

func (InProcess) kind() string { return "inprocess" }

func (p InProcess) open(ctx context.Context, rec *recorder, lim Limits) (*session, error) {
	if p.Server == nil {
		return nil, errors.New("in-process target has no server")
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := p.Server.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting the in-process server: %w", err)
	}
	return &session{
		transport: ct,
		failure:   func() error { return nil },
		shutdown:  func() { _ = ss.Close() },
		stderr:    func() string { return "" },
		diags:     func() []Diagnostic { return nil },
	}, nil
}
