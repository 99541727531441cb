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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP is a server reached over streamable HTTP or, with SSE set, the
// legacy HTTP+SSE transport.
type HTTP struct {
	URL string
	// Headers are added to every request to the URL's origin (scheme,
	// host and port), and to no other. Values are never printed.
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

// headerTransport adds the user's headers to requests to the configured
// origin, and the MCP-Protocol-Version header once the session has
// negotiated one (the SDK sets it through a connection hook that a
// recording wrapper cannot forward).
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
	origin  origin
	guard   *redirectGuard

	mu      sync.Mutex
	version string
}

func (t *headerTransport) setVersion(v string) {
	t.mu.Lock()
	t.version = v
	t.mu.Unlock()
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// Redirects to another origin are refused by the redirect guard;
	// this refuses the other way a server can send the client elsewhere:
	// the legacy SSE transport posts to whatever endpoint it announces.
	if to := originOf(req.URL); to != t.origin {
		return nil, t.guard.refuse(&RedirectError{From: t.origin.String(), To: to.String(), Endpoint: true})
	}
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
	redirects := &redirectGuard{origin: originOf(u), next: client.CheckRedirect}
	client.CheckRedirect = redirects.check
	ht := &headerTransport{base: base, headers: h.Headers, origin: originOf(u), guard: redirects}
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
		t = &errorBodyTransport{Transport: &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: client, MaxRetries: -1,
			DisableStandaloneSSE: true, MaxEventSize: int(lim.MaxBytes)}, rec: rec}
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
		failure:   redirects.refused,
		shutdown:  func() {},
		stderr:    func() string { return "" },
		diags:     func() []Diagnostic { return nil },
	}, nil
}

// errorBodyTransport records the JSON-RPC error a streamable HTTP server
// sends as the body of an HTTP error status in answer to a handshake
// request. The SDK hands such an error to the caller as the request's
// write error, never as a message to read, so without this the server's
// refusal of server/discover (or of initialize) would look like no answer
// at all. The error is recorded as the response to the request it
// answered, re-encoded like every frame the HTTP target records. Other
// requests are left as the SDK reports them.
type errorBodyTransport struct {
	mcp.Transport
	rec *recorder
}

func (t *errorBodyTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &errorBodyConn{Connection: conn, rec: t.rec}, nil
}

// SupportsProtocolVersion forwards mcp.ProtocolVersionSupporter, as
// RecordingTransport does.
func (t *errorBodyTransport) SupportsProtocolVersion(v string) bool {
	return supportsVersion(t.Transport, v)
}

type errorBodyConn struct {
	mcp.Connection
	rec *recorder
}

func (c *errorBodyConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	req, ok := msg.(*jsonrpc.Request)
	if err == nil || !ok || !req.IsCall() || (req.Method != methodDiscover && req.Method != HandshakeInitialize) {
		return err
	}
	werr := answeredError(err)
	if werr == nil {
		return err
	}
	if data, encErr := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Error: werr}); encErr == nil {
		if _, lerr := c.rec.add(Received, data); lerr != nil {
			return lerr
		}
	}
	return err
}

// sdkRejection is how the SDK marks a request the transport did not
// deliver or whose answer was not a message (its jsonrpc2.ErrRejected, a
// *jsonrpc.Error too, unexported): never a server's answer.
var sdkRejection = jsonrpc.Error{Code: -32005, Message: "rejected by transport"}

// answeredError finds the server's JSON-RPC error in a write error of the
// streamable HTTP client: the first *jsonrpc.Error in the error tree that
// is not the SDK's own rejection marker; nil when there is none. The walk
// is bounded.
func answeredError(err error) *jsonrpc.Error {
	queue := []error{err}
	for n := 0; len(queue) > 0 && n < 64; n++ {
		e := queue[0]
		queue = queue[1:]
		if we, ok := e.(*jsonrpc.Error); ok && we != nil && (we.Code != sdkRejection.Code || we.Message != sdkRejection.Message) {
			return we
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			queue = append(u.Unwrap(), queue...)
		case interface{ Unwrap() error }:
			if next := u.Unwrap(); next != nil {
				queue = append([]error{next}, queue...)
			}
		}
	}
	return nil
}

// origin is a URL's scheme, host and port, the unit a browser trusts with
// credentials. The port is explicit even when it is the scheme's default.
type origin struct {
	scheme, host, port string
}

func originOf(u *url.URL) origin {
	o := origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if o.port == "" {
		switch o.scheme {
		case "http":
			o.port = "80"
		case "https":
			o.port = "443"
		}
	}
	return o
}

// String has no user info, path or query: nothing that may be a secret.
func (o origin) String() string {
	host := o.host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return o.scheme + "://" + host + ":" + o.port
}

// RedirectError is a server that sent the capture to another origin: by an
// HTTP redirect, or (Endpoint) by announcing its legacy SSE message
// endpoint there. The capture does not follow: the configured headers and
// the URL's query may carry credentials meant for the configured origin
// only.
type RedirectError struct {
	From, To string // origins, without user info, path or query
	Endpoint bool
}

func (e *RedirectError) Error() string {
	if e.Endpoint {
		return fmt.Sprintf("the server at %s announced its message endpoint on another origin, %s; a capture sends requests, with the configured headers, to the configured origin only, so it does not post there", e.From, e.To)
	}
	return fmt.Sprintf("the server at %s redirected to another origin, %s; a capture sends the configured headers and the URL's query to the configured origin only, so it does not follow: point the server URL at the final location", e.From, e.To)
}

// maxRedirects is net/http's own bound, lost when CheckRedirect is set.
const maxRedirects = 10

// redirectGuard refuses redirects that leave the configured origin and
// remembers the refusal, which the SDK reports only as a failed request.
type redirectGuard struct {
	origin origin
	next   func(*http.Request, []*http.Request) error

	mu  sync.Mutex
	err *RedirectError
}

func (g *redirectGuard) check(req *http.Request, via []*http.Request) error {
	if to := originOf(req.URL); to != g.origin {
		return g.refuse(&RedirectError{From: g.origin.String(), To: to.String()})
	}
	if g.next != nil {
		return g.next(req, via)
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// refuse records the first refusal and returns err.
func (g *redirectGuard) refuse(err *RedirectError) error {
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	return err
}

// refused is the session's failure: the refused redirect, if any.
func (g *redirectGuard) refused() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil {
		return nil
	}
	return g.err
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
