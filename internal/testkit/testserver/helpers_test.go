package testserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) {
	testserver.MaybeRunFromEnv()
	os.Exit(m.Run())
}

// rawConn speaks newline-delimited JSON-RPC to a server, byte for byte.
type rawConn struct {
	t     testing.TB
	w     io.WriteCloser
	lines chan string
}

func newRawConn(t testing.TB, w io.WriteCloser, r io.Reader) *rawConn {
	c := &rawConn{t: t, w: w, lines: make(chan string, 16)}
	go func() {
		defer close(c.lines)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				c.lines <- strings.TrimRight(line, "\n")
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *rawConn) send(msg string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, msg+"\n"); err != nil {
		c.t.Fatalf("writing %s: %v", msg, err)
	}
}

// request sends a request with the given id, method and params (JSON text,
// may be empty).
func (c *rawConn) request(id int, method, params string) {
	c.t.Helper()
	if params == "" {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method))
	} else {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	}
}

// readLine returns the next stdout line, failing the test after timeout.
func (c *rawConn) readLine(timeout time.Duration) string {
	c.t.Helper()
	line, ok := c.tryReadLine(timeout)
	if !ok {
		c.t.Fatalf("no line from server within %v", timeout)
	}
	return line
}

// tryReadLine returns the next line, or false on timeout or EOF.
func (c *rawConn) tryReadLine(timeout time.Duration) (string, bool) {
	select {
	case line, ok := <-c.lines:
		return line, ok
	case <-time.After(timeout):
		return "", false
	}
}

type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// response reads the next line and decodes it as a JSON-RPC response.
func (c *rawConn) response() rpcResponse {
	c.t.Helper()
	line := c.readLine(10 * time.Second)
	var r rpcResponse
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		c.t.Fatalf("response is not JSON: %v\n%.300s", err, line)
	}
	return r
}

// result reads a response, checks it is a success for id, and returns it.
func (c *rawConn) result(id int) json.RawMessage {
	c.t.Helper()
	r := c.response()
	if r.Error != nil {
		c.t.Fatalf("request %d: error %d %s", id, r.Error.Code, r.Error.Message)
	}
	if string(r.ID) != fmt.Sprint(id) {
		c.t.Fatalf("response id = %s, want %d", r.ID, id)
	}
	return r.Result
}

const initializeParams = `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-test","version":"0"}}`

// handshake performs initialize + notifications/initialized and returns the
// initialize result.
func (c *rawConn) handshake() json.RawMessage {
	c.t.Helper()
	c.request(1, "initialize", initializeParams)
	res := c.result(1)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// toolPages asks tools/list page after page, from request id first on,
// until a page has no nextCursor, and returns every page's result as
// sent.
func (c *rawConn) toolPages(first int) []json.RawMessage {
	c.t.Helper()
	var pages []json.RawMessage
	cursor := ""
	for id := first; ; id++ {
		params := "{}"
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		c.request(id, "tools/list", params)
		res := c.result(id)
		pages = append(pages, res)
		var r struct {
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &r); err != nil {
			c.t.Fatal(err)
		}
		if r.NextCursor == "" {
			return pages
		}
		cursor = r.NextCursor
	}
}

// inProcess runs RunStdio(mode) in a goroutine over pipes.
type inProcess struct {
	*rawConn
	stdinR  *io.PipeReader
	stdoutR *io.PipeReader
	stderr  *syncbuf.Buffer
	cancel  context.CancelFunc
	done    chan error
}

func startInProcess(t *testing.T, mode string) *inProcess {
	t.Helper()
	p, stdinW := runInProcess(t, mode)
	p.rawConn = newRawConn(t, stdinW, p.stdoutR)
	return p
}

// listingTools is startInProcess after the handshake, with the first
// tools/list page asked for (request 2).
func listingTools(t *testing.T, mode string) *inProcess {
	t.Helper()
	p := startInProcess(t, mode)
	p.handshake()
	p.request(2, "tools/list", "{}")
	return p
}

// runInProcess starts RunStdio(mode) in a goroutine over pipes and
// returns it with the writing end of its stdin; the test's cleanup
// cancels it, closes the pipes and waits for it to return.
func runInProcess(t *testing.T, mode string) (*inProcess, *io.PipeWriter) {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &inProcess{stdinR: stdinR, stdoutR: stdoutR, stderr: &syncbuf.Buffer{}, cancel: cancel, done: make(chan error, 1)}
	go func() {
		err := testserver.RunStdio(ctx, mode, stdinR, stdoutW, p.stderr)
		stdoutW.Close()
		p.done <- err
	}()
	t.Cleanup(func() {
		cancel()
		stdinW.Close()
		stdinR.Close()
		stdoutR.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Errorf("RunStdio(%s) did not return after cancel", mode)
		}
	})
	return p, stdinW
}

// wait waits for RunStdio to return.
func (p *inProcess) wait(t *testing.T, timeout time.Duration) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // keep it for Cleanup
		return err
	case <-time.After(timeout):
		t.Fatalf("RunStdio did not return within %v", timeout)
		return nil
	}
}

// endsOnEOF closes the server's stdin and checks that RunStdio returns
// nil.
func (p *inProcess) endsOnEOF(t *testing.T) {
	t.Helper()
	p.w.Close()
	if err := p.wait(t, 5*time.Second); err != nil {
		t.Errorf("RunStdio after EOF = %v, want nil", err)
	}
}

// sdkClientPipes connects a go-sdk client to an in-process server over pipes.
func sdkClientPipes(t *testing.T, mode string, maxLine int) (*mcp.ClientSession, *inProcess) {
	t.Helper()
	cs, p, err := connectSDKPipes(t, mode, maxLine)
	if err != nil {
		t.Fatalf("Connect(%s): %v", mode, err)
	}
	return cs, p
}

// connectSDKPipes is sdkClientPipes returning the Connect error.
func connectSDKPipes(t *testing.T, mode string, maxLine int) (*mcp.ClientSession, *inProcess, error) {
	t.Helper()
	p, stdinW := runInProcess(t, mode)
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil)
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	cs, err := client.Connect(cctx, &mcp.IOTransport{Reader: p.stdoutR, Writer: stdinW, MaxLineLength: maxLine}, nil)
	// Before the server's cleanup: cleanups run last first.
	t.Cleanup(func() {
		if cs != nil {
			cs.Close()
		}
	})
	return cs, p, err
}
