package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RecordingTransport wraps any mcp.Transport and records every JSON-RPC
// frame in both directions, in order.
//
// Outgoing frames are recorded before they are written, so a response can
// never precede its request. Incoming frames are recorded as the SDK
// decoded them, re-encoded: the "result" member is the server's exact
// bytes (the SDK keeps it as raw JSON); only the envelope is re-written.
// The stdio target records incoming lines before the SDK sees them, byte
// for byte, and tells the recorder not to record them twice.
//
// It forwards mcp.ProtocolVersionSupporter, so wrapping a transport never
// changes what is negotiated. The SDK's other optional connection hook
// (sessionUpdated, which the streamable HTTP client uses to send the
// MCP-Protocol-Version header) is unexported and cannot be forwarded; the
// HTTP target restores the header itself from the recorded handshake.
type RecordingTransport struct {
	Transport mcp.Transport
	rec       *recorder
	// connectCtx, when set, replaces the context given to Connect: the SDK
	// passes the handshake's context, but HTTP transports tie the life of
	// the whole connection to it, and the handshake deadline must not end
	// the session.
	connectCtx context.Context
}

// NewRecordingTransport wraps t. Frames are available from Frames.
func NewRecordingTransport(t mcp.Transport) *RecordingTransport {
	return &RecordingTransport{Transport: t, rec: newRecorder(0)}
}

// Frames returns a copy of the frames recorded so far.
func (t *RecordingTransport) Frames() []Frame { return t.rec.snapshot() }

// Connect implements mcp.Transport.
func (t *RecordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.connectCtx != nil {
		ctx = t.connectCtx
	}
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{inner: conn, rec: t.rec}, nil
}

// SupportsProtocolVersion forwards mcp.ProtocolVersionSupporter; a wrapped
// transport that does not implement it supports every version, as the SDK
// assumes.
func (t *RecordingTransport) SupportsProtocolVersion(v string) bool {
	return supportsVersion(t.Transport, v)
}

// supportsVersion is whether the wrapped transport t supports protocol
// version v: its answer when it is an mcp.ProtocolVersionSupporter, else
// yes.
func supportsVersion(t mcp.Transport, v string) bool {
	if s, ok := t.(mcp.ProtocolVersionSupporter); ok {
		return s.SupportsProtocolVersion(v)
	}
	return true
}

var _ mcp.ProtocolVersionSupporter = (*RecordingTransport)(nil)

// recorder holds the frames of one session and enforces the byte budget.
type recorder struct {
	mu       sync.Mutex
	frames   []Frame
	received int64
	maxBytes int64 // 0: unbounded
	limitErr error
	// rawIncoming: incoming frames are recorded by the stdio line reader.
	rawIncoming bool
	// onReceive is called (outside the lock) with each incoming frame.
	onReceive func(data []byte)
	// lists maps the raw id of each list request not yet answered to its
	// method, and slimmed holds the Seq of each list answer the SDK was
	// handed without its items (stdio only: see slim.go).
	lists   map[string]string
	slimmed map[int]bool
	// slimLists: list answers larger than slimAbove are handed to the
	// SDK without their items. Only capture.Run sets it: a user of
	// RecordingTransport gets the SDK's results whole.
	slimLists bool
}

func newRecorder(maxBytes int64) *recorder { return &recorder{maxBytes: maxBytes} }

// add appends a frame, which then owns data, and returns its Seq; for
// incoming frames it charges the byte budget and returns the limit error
// once the budget is exceeded.
func (r *recorder) add(dir Direction, data []byte) (int, error) {
	r.mu.Lock()
	if dir == Received {
		r.received += int64(len(data))
		if r.maxBytes > 0 && r.received > r.maxBytes {
			if r.limitErr == nil {
				r.limitErr = &LimitError{Limit: LimitTotalBytes, Value: fmt.Sprintf("%d bytes", r.maxBytes),
					Detail: "the server's answers exceeded it"}
			}
			err := r.limitErr
			r.mu.Unlock()
			return 0, err
		}
	}
	seq := len(r.frames)
	r.frames = append(r.frames, Frame{Seq: seq, Dir: dir, Data: data})
	cb := r.onReceive
	r.mu.Unlock()
	if dir == Received && cb != nil {
		cb(data)
	}
	return seq, nil
}

// charge counts bytes that are not frames (stdout noise) against the budget.
func (r *recorder) charge(n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.received += int64(n)
	if r.maxBytes > 0 && r.received > r.maxBytes {
		if r.limitErr == nil {
			r.limitErr = &LimitError{Limit: LimitTotalBytes, Value: fmt.Sprintf("%d bytes", r.maxBytes),
				Detail: "the server's output exceeded it"}
		}
		return r.limitErr
	}
	return nil
}

func (r *recorder) limit() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limitErr
}

func (r *recorder) snapshot() []Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Frame, len(r.frames))
	copy(out, r.frames)
	return out
}

// forget drops the recorder's hold on the data of its first n frames,
// which a capture handed back by Run already holds: a deferred shutdown
// keeps the recorder alive, and must not keep what the caller has dropped.
// Their Seq numbers stay taken.
func (r *recorder) forget(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range min(n, len(r.frames)) {
		r.frames[i].Data = nil
	}
}

// expectList registers a list request by the id it was sent with.
func (r *recorder) expectList(frame []byte, method string) {
	e, ok := parseEnvelope(frame)
	if !ok || len(e.ID) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lists == nil {
		r.lists = map[string]string{}
	}
	r.lists[string(bytes.TrimSpace(e.ID))] = method
}

func (r *recorder) markSlimmed(seq int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.slimmed == nil {
		r.slimmed = map[int]bool{}
	}
	r.slimmed[seq] = true
}

// wasSlimmed reports whether the SDK was handed the frame without its items.
func (r *recorder) wasSlimmed(seq int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.slimmed[seq]
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.frames)
}

type recordingConn struct {
	inner mcp.Connection
	rec   *recorder
}

func (c *recordingConn) SessionID() string { return c.inner.SessionID() }
func (c *recordingConn) Close() error      { return c.inner.Close() }

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.inner.Read(ctx)
	if err != nil {
		if lerr := c.rec.limit(); lerr != nil {
			return nil, lerr
		}
		return nil, err
	}
	if !c.rec.rawIncoming {
		data, encErr := jsonrpc.EncodeMessage(msg)
		if encErr != nil {
			return nil, fmt.Errorf("recording a received frame: %w", encErr)
		}
		seq, err := c.rec.add(Received, data)
		if err != nil {
			_ = c.inner.Close()
			return nil, err
		}
		c.slim(msg, seq)
	}
	return msg, nil
}

// slim empties the item array of a list answer the transport decoded,
// once it is recorded, as the stdio reader does before the SDK sees a
// line (see slim.go): the SDK's typed decode then skips the items, which
// the capture decodes one at a time. The transport has still read and
// decoded the whole message.
func (c *recordingConn) slim(msg jsonrpc.Message, seq int) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) <= slimAbove {
		return
	}
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return
	}
	method, ok := c.rec.listAnswerTo(id)
	if !ok {
		return
	}
	if slim, ok := slimResult(resp.Result, method); ok {
		resp.Result = slim
		c.rec.markSlimmed(seq)
	}
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("recording a sent frame: %w", err)
	}
	_, _ = c.rec.add(Sent, data)
	if req, ok := msg.(*jsonrpc.Request); ok && c.rec.slimLists && req.IsCall() && ItemsKey[req.Method] != "" {
		c.rec.expectList(data, req.Method)
	}
	return c.inner.Write(ctx, msg)
}

// exchanges pairs requests sent by the client with the responses received,
// in request order. Requests from the server and notifications are not
// exchanges. A response inside a batch (a JSON array, which only revision
// 2025-03-26 allows) is paired like any other, with the batch's frame as
// its ResponseFrame and Batched set.
func exchanges(frames []Frame) []Exchange {
	var out []Exchange
	pending := map[string]int{}
	pair := func(f Frame, data []byte, batched bool) {
		e, ok := parseEnvelope(data)
		if !ok {
			return
		}
		id := string(e.ID)
		switch {
		case f.Dir == Sent && e.Method != nil && id != "" && id != "null":
			pending[id] = len(out)
			out = append(out, Exchange{Method: *e.Method, Params: e.Params, RequestFrame: f.Seq, ResponseFrame: -1})
		case f.Dir == Received && e.Method == nil && id != "":
			i, ok := pending[id]
			if !ok {
				return
			}
			delete(pending, id)
			out[i].ResponseFrame = f.Seq
			out[i].Result = e.Result
			out[i].Error = e.Error
			out[i].Batched = batched
		}
	}
	for _, f := range frames {
		if f.Dir == Received && len(f.Data) > 0 && f.Data[0] == '[' {
			var batch []json.RawMessage
			if json.Unmarshal(f.Data, &batch) == nil {
				for _, m := range batch {
					pair(f, m, true)
				}
			}
			continue
		}
		pair(f, f.Data, false)
	}
	return out
}

// shareFrames points the results and parameters of exchanges at the bytes
// of the frames they were read from, instead of the copies decoding made:
// a capture near its byte budget would otherwise hold every result twice.
// frames is a run of consecutive frames, as recorded.
func shareFrames(exs []Exchange, frames []Frame) {
	if len(frames) == 0 {
		return
	}
	first := frames[0].Seq
	within := func(seq int, raw json.RawMessage) json.RawMessage {
		i := seq - first
		if len(raw) == 0 || i < 0 || i >= len(frames) || frames[i].Seq != seq {
			return raw
		}
		// Where the bytes occur does not matter, only that they are the
		// same: a decoded RawMessage is the value's bytes, unchanged.
		data := frames[i].Data
		if at := bytes.Index(data, raw); at >= 0 {
			return data[at : at+len(raw) : at+len(raw)]
		}
		return raw
	}
	for i := range exs {
		exs[i].Result = within(exs[i].ResponseFrame, exs[i].Result)
		exs[i].Params = within(exs[i].RequestFrame, exs[i].Params)
	}
}
