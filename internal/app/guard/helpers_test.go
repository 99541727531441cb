package guard

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain lets the tests re-execute this test binary as a stdio MCP test
// server.
func TestMain(m *testing.M) {
	testserver.MaybeRunFromEnv()
	os.Exit(m.Run())
}

// serverCommand is the test server of a mode, as a process.
func serverCommand(mode string) capture.Command {
	return capture.Command{Argv: []string{os.Args[0]}, Env: append(os.Environ(), testserver.EnvFor(mode))}
}

// lockOf captures a mode's server and locks it as .mcp.json's server of
// the mode's name.
func lockOf(t testing.TB, mode string) *lock.Lock {
	t.Helper()
	l := &lock.Lock{}
	l.Put(lock.Entry{Config: ".mcp.json", Name: mode, Transport: "stdio", Launch: mode, Snapshot: snapshotOf(t, serverCommand(mode))})
	return l
}

// snapshotOf captures a server and builds its snapshot.
func snapshotOf(t testing.TB, target capture.Target) *manifest.Manifest {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := capture.Run(ctx, target, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return capturetest.Build(t, c)
}

// tee keeps every line read through it.
type tee struct {
	r   io.ReadCloser
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.mu.Lock()
	t.buf.Write(p[:n])
	t.mu.Unlock()
	return n, err
}

func (t *tee) Close() error { return t.r.Close() }

// Lines are the complete lines read so far.
func (t *tee) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(t.buf.Bytes()))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// Bytes is everything read so far.
func (t *tee) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.buf.Bytes())
}

// guarded is a guard run in process, with a client's transport to it.
type guarded struct {
	transport *mcp.IOTransport
	received  *tee // what the client received, byte for byte
	stderr    *syncbuf.Buffer
	log       *syncbuf.Buffer
	done      chan error
	stdin     io.Closer
}

// startGuard runs the guard between a transport for a client and the
// mode's server, under l's only entry.
func startGuard(t testing.TB, l *lock.Lock, mode string, onChange Mode) *guarded {
	t.Helper()
	g := &guarded{stderr: &syncbuf.Buffer{}, log: &syncbuf.Buffer{}, done: make(chan error, 1)}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g.received = &tee{r: outR}
	g.transport = &mcp.IOTransport{Reader: g.received, Writer: inW, MaxLineLength: -1}
	g.stdin = inW
	e, err := Select(l, "")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Server:  serverCommand(mode),
		Session: NewSession(Options{Entry: e, All: l, Mode: onChange, Version: "test", Log: &Logger{Stderr: g.stderr, File: g.log}}),
		Stdin:   inR, Stdout: outW, Stderr: g.stderr,
	}
	go func() {
		err := Run(context.Background(), cfg)
		outW.Close()
		g.done <- err
	}()
	return g
}

// wait is the guard's end, bounded.
func (g *guarded) wait(t testing.TB) error {
	t.Helper()
	select {
	case err := <-g.done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("the guard did not end within a minute")
		return nil
	}
}

// direct is the mode's server with no guard: a transport to it, and what
// the client received.
func direct(t testing.TB, mode string) (*mcp.IOTransport, *tee, func()) {
	t.Helper()
	p, err := capture.StartProcess(serverCommand(mode), capture.Limits{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	received := &tee{r: io.NopCloser(p.Stdout())}
	return &mcp.IOTransport{Reader: received, Writer: p.Stdin(), MaxLineLength: -1}, received, func() { p.Stop() }
}

// connect connects a go-sdk client, with a channel of tools/list_changed.
func connect(t testing.TB, tr mcp.Transport) (*mcp.ClientSession, chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "guard-test-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, changed
}
