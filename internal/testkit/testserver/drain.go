package testserver

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// The go-sdk server shuts its session down as soon as stdin reports EOF, and
// drops responses it has not written yet. A client that writes its requests
// and closes stdin at once (`printf ... | testserver full`) would then get
// nothing. The SDK modes therefore hold back stdin's EOF until every request
// read so far has been answered (or drainTimeout has passed).

const drainTimeout = 5 * time.Second

// inflight tracks the ids of requests read but not yet answered.
type inflight struct {
	mu      sync.Mutex
	pending map[string]bool
}

func newInflight() *inflight { return &inflight{pending: map[string]bool{}} }

// observe records one JSON-RPC line: a request (id and method) adds its id
// when incoming, a response (id, no method) removes it when outgoing.
func (f *inflight) observe(line []byte, incoming bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case incoming && m.Method != "":
		f.pending[string(m.ID)] = true
	case !incoming && m.Method == "":
		delete(f.pending, string(m.ID))
	}
}

func (f *inflight) idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.pending) == 0
}

// lineSplitter feeds complete lines of a byte stream to a callback.
type lineSplitter struct {
	buf    []byte
	onLine func([]byte)
}

func (s *lineSplitter) feed(p []byte) {
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return
		}
		s.onLine(s.buf[:i])
		s.buf = s.buf[i+1:]
	}
}

type drainingReader struct {
	r     io.Reader
	f     *inflight
	lines lineSplitter
}

func (d *drainingReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.lines.feed(p[:n])
	if err == io.EOF {
		if len(bytes.TrimSpace(d.lines.buf)) > 0 {
			d.lines.feed([]byte{'\n'}) // a last line without newline
		}
		deadline := time.Now().Add(drainTimeout)
		for !d.f.idle() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return n, err
}

type trackingWriter struct {
	w     io.Writer
	mu    sync.Mutex
	lines lineSplitter
}

func (t *trackingWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.mu.Lock()
	t.lines.feed(p[:n])
	t.mu.Unlock()
	return n, err
}

func (t *trackingWriter) Close() error { return nil }

// drainingStdio wraps stdin and stdout as described above.
func drainingStdio(stdin io.Reader, stdout io.Writer) (io.ReadCloser, io.WriteCloser) {
	f := newInflight()
	r := &drainingReader{r: stdin, f: f}
	r.lines.onLine = func(l []byte) { f.observe(l, true) }
	w := &trackingWriter{w: stdout}
	w.lines.onLine = func(l []byte) { f.observe(l, false) }
	return io.NopCloser(r), w
}
