package guard

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HTTPConfig is one run of the guard as a local reverse proxy in front of
// a streamable HTTP server.
type HTTPConfig struct {
	// Upstream is the server's MCP endpoint; every request the proxy
	// takes, whatever its path, goes to it.
	Upstream string
	// Listener is where the proxy listens (a loopback address: the guard
	// is for the client on this machine).
	Listener net.Listener
	// Options make each MCP session's Session (one per Mcp-Session-Id).
	Options Options
	// MaxBytes bounds one message, either way (0: DefaultMaxBytes).
	MaxBytes int64
	// Client sends the requests upstream (nil: a client with no timeout:
	// a server's event stream lasts as long as its session).
	Client *http.Client
}

// sessionHeader is the header that names an MCP session.
const sessionHeader = "Mcp-Session-Id"

// httpProxy carries the traffic of every session.
type httpProxy struct {
	cfg      HTTPConfig
	limit    int64
	mu       sync.Mutex
	sessions map[string]*Session
	ended    map[string]error // sessions a change ended (ModeFail)
	failed   error            // the first of them, for the exit status
}

// RunHTTP serves the proxy until ctx is done, and returns nil, or
// ErrChanged (wrapped) when a change ended a session under ModeFail
// (the proxy goes on serving the others; that session is ended upstream
// and refused from then on).
func RunHTTP(ctx context.Context, cfg HTTPConfig) error {
	p := &httpProxy{cfg: cfg, limit: cfg.MaxBytes, sessions: map[string]*Session{}, ended: map[string]error{}}
	if p.limit <= 0 {
		p.limit = DefaultMaxBytes
	}
	if p.cfg.Client == nil {
		p.cfg.Client = &http.Client{}
	}
	// The handlers' requests, upstream ones included, end with base: a
	// stop ends the event streams a session keeps open, which a graceful
	// shutdown alone would wait for.
	base, endRequests := context.WithCancel(context.Background())
	defer endRequests()
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(cfg.Listener) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	endRequests()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(sctx) != nil {
		_ = srv.Close()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// The sessions the guard carried end upstream too, as a client that
	// goes away ends its own.
	for id := range p.sessions {
		if id != "" {
			p.deleteUpstream(sctx, id)
		}
	}
	return p.failed
}

// maxSessions bounds the MCP sessions the proxy keeps state for.
const maxSessions = 1024

// deleteUpstream ends the upstream session id (best effort).
func (p *httpProxy) deleteUpstream(ctx context.Context, id string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, p.cfg.Upstream, nil)
	if err != nil {
		return
	}
	req.Header.Set(sessionHeader, id)
	if resp, err := p.cfg.Client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// session returns the Session of an MCP session id: the one kept for it,
// or a new one (kept is false) that is kept once the server's answer
// names it as its session. Requests with no session id share one Session
// (a server that gives none is followed as one session), until an answer
// names a session: that Session becomes the named one's.
func (p *httpProxy) session(id string) (s *Session, kept bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ended[id]; err != nil && id != "" {
		return nil, false, err
	}
	if s := p.sessions[id]; s != nil {
		return s, true, nil
	}
	s = NewSession(p.cfg.Options)
	if id == "" {
		p.sessions[""] = s
		return s, true, nil
	}
	return s, false, nil
}

// keep keeps the Session of the server's session id, up to maxSessions
// (past that a session gets fresh state each request, as one the server
// gives no id does).
func (p *httpProxy) keep(id string, s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessions[""] == s {
		// The requests with no session id start afresh.
		delete(p.sessions, "")
	}
	if _, had := p.sessions[id]; had || len(p.sessions) < maxSessions {
		p.sessions[id] = s
	}
}

func (p *httpProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	s, kept, err := p.session(id)
	if err != nil {
		// Not the reason itself: it may name what the server served.
		http.Error(w, fmt.Sprintf("mcp-surface guard: this session was ended (--on-change fail): %v; review it with `%s`", ErrChanged, ReviewCommand), http.StatusNotFound)
		return
	}
	var body []byte
	if r.Body != nil {
		body, err = io.ReadAll(io.LimitReader(r.Body, p.limit+1))
		if err != nil {
			http.Error(w, "mcp-surface guard: reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if int64(len(body)) > p.limit {
			http.Error(w, (&TooLongError{From: "client", Limit: p.limit}).Error(), http.StatusRequestEntityTooLarge)
			return
		}
	}
	if r.Method == http.MethodPost && len(bytes.TrimSpace(body)) > 0 {
		out := s.FromClient(body)
		if len(out.Answers) > 0 {
			p.answerAlone(w, body, out)
			return
		}
		body = out.Forward
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, p.cfg.Upstream, bytes.NewReader(body))
	if err != nil {
		http.Error(w, "mcp-surface guard: "+err.Error(), http.StatusBadGateway)
		return
	}
	copyHeaders(req.Header, r.Header)
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		http.Error(w, "mcp-surface guard: the server: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get(sessionHeader); sid != "" && id == "" {
		// The handshake's answer names the session.
		p.keep(sid, s)
		id = sid
	} else if id != "" && !kept && resp.StatusCode/100 == 2 && r.Method != http.MethodDelete {
		// A session the server knows and the guard did not carry from its
		// start (the guard was restarted): its state from now on.
		p.keep(id, s)
	}
	if r.Method == http.MethodDelete {
		p.mu.Lock()
		delete(p.sessions, id)
		p.mu.Unlock()
	}
	copyHeaders(w.Header(), resp.Header)
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case ct == "application/json" && resp.StatusCode == http.StatusOK:
		p.json(w, resp, s, id)
	case ct == "text/event-stream":
		p.events(w, resp, s, id)
	default:
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}
}

// answerAlone answers a request the guard refuses itself. In a batch
// that also holds other messages, those are not forwarded either: each
// request of it is answered with an error that says so (an answer over
// HTTP is one body).
func (p *httpProxy) answerAlone(w http.ResponseWriter, body []byte, out Out) {
	answers := out.Answers
	if out.Forward != nil {
		if elems, err := arrayElements(out.Forward, span{0, len(out.Forward)}); err == nil {
			for _, e := range elems {
				if h, ok := readHeader(out.Forward[e.Start:e.End]); ok && h.Method != "" && len(h.ID) > 0 {
					answers = append(answers, errorAnswer(h.ID, "mcp-surface guard: not sent: its batch held a call to a blocked item; send it alone", "", ""))
				}
			}
		}
	}
	var resp []byte
	if isBatch(body) {
		resp = batchOf(answers)
	} else {
		resp = answers[0]
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(resp)))
	_, _ = w.Write(resp)
}

// json passes a JSON answer through the session.
func (p *httpProxy) json(w http.ResponseWriter, resp *http.Response, s *Session, id string) {
	data, err := io.ReadAll(io.LimitReader(resp.Body, p.limit+1))
	if err != nil || int64(len(data)) > p.limit {
		if err == nil {
			err = &TooLongError{From: "server", Limit: p.limit}
		}
		http.Error(w, "mcp-surface guard: "+err.Error(), http.StatusBadGateway)
		return
	}
	out := s.FromServer(bytes.TrimRight(data, "\r\n"))
	if out.Forward == nil {
		// Dropped (a second answer to a request): nothing for the client.
		w.Header().Del("Content-Type")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if out.Forward != nil && !bytes.Equal(out.Forward, bytes.TrimRight(data, "\r\n")) {
		data = out.Forward
	}
	// Ended before the client reads the answer, so that its next request
	// finds the session ended.
	p.end(id, out.End)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(data)
}

// events passes an event stream through the session, event by event;
// an event whose message is unchanged is written as it came.
func (p *httpProxy) events(w http.ResponseWriter, resp *http.Response, s *Session, id string) {
	w.Header().Del("Content-Length")
	w.WriteHeader(resp.StatusCode)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	flush()
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	var event, data []byte
	for {
		line, err := readLine(r, p.limit)
		if err != nil {
			var tl *TooLongError
			if errors.As(err, &tl) {
				tl.From = "server"
				p.cfg.Options.Log.Log(Decision{Decision: DecisionUnreadable, Mode: p.cfg.Options.Mode, Message: tl.Error()})
			}
			return
		}
		event = append(event, line...)
		if int64(len(event)) > p.limit {
			return
		}
		text := strings.TrimRight(string(line), "\r\n")
		if v, ok := strings.CutPrefix(text, "data:"); ok {
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, strings.TrimPrefix(v, " ")...)
			continue
		}
		if text != "" {
			continue
		}
		// The blank line ends the event.
		out := event
		if data != nil {
			o := s.FromServer(data)
			switch {
			case o.Forward == nil:
				out = nil
			case !bytes.Equal(o.Forward, data):
				out = rewriteData(event, o.Forward)
			}
			if o.End != nil {
				p.end(id, o.End)
				_, _ = w.Write(out)
				flush()
				return
			}
		}
		if out != nil {
			if _, err := w.Write(out); err != nil {
				return
			}
			flush()
		}
		event, data = event[:0], nil
	}
}

// rewriteData is an event with its data lines replaced by one holding
// msg (a JSON message is one line); its other fields (id, event) kept.
func rewriteData(event, msg []byte) []byte {
	var out []byte
	wrote := false
	for _, line := range strings.SplitAfter(string(event), "\n") {
		if strings.HasPrefix(line, "data:") {
			if !wrote {
				out = append(append(append(out, "data: "...), msg...), '\n')
				wrote = true
			}
			continue
		}
		out = append(out, line...)
	}
	return out
}

// end ends a session a change ended: refused from now on, and ended
// upstream.
func (p *httpProxy) end(id string, err error) {
	if err == nil {
		return
	}
	p.mu.Lock()
	if p.failed == nil {
		p.failed = err
	}
	if id != "" {
		p.ended[id] = err
		delete(p.sessions, id)
	}
	p.mu.Unlock()
	if id != "" {
		// The upstream session is ended too (the answer in flight is
		// ours already).
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.deleteUpstream(ctx, id)
	}
}

// hopHeaders are not passed on by a proxy (RFC 9110, 7.6.1).
var hopHeaders = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Authenticate": true, "Proxy-Authorization": true,
	"Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Host": true, "Content-Length": true,
}

func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		if hopHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			dst.Add(k, v)
		}
	}
}

// ListenLoopback listens on addr, which must be a loopback address: the
// guard serves the client on this machine, not the network.
func ListenLoopback(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %w (give HOST:PORT, e.g. 127.0.0.1:8931)", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--listen %q: give a loopback address (127.0.0.1, ::1 or localhost): the guard is for a client on this machine", addr)
	}
	return net.Listen("tcp", addr)
}
