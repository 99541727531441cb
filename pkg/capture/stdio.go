package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Command is a stdio server: a process whose stdin and stdout carry
// newline-delimited JSON-RPC.
type Command struct {
	// Argv is the program and its arguments. No shell is involved unless
	// Shell is set, in which case Argv is joined with spaces and run by
	// /bin/sh -c.
	Argv  []string
	Shell bool
	// Env is the complete environment of the process ("K=V"). The CLI
	// builds it; nil means an empty environment.
	Env []string
	// Dir is the working directory ("" for the current one).
	Dir string
	// GracePeriod is how long shutdown waits after closing stdin, and
	// again after SIGTERM, before escalating (default 500ms).
	GracePeriod time.Duration
}

// Describe returns the command line.
func (c Command) Describe() string {
	if c.Shell {
		return "sh -c " + strings.Join(c.Argv, " ")
	}
	return strings.Join(c.Argv, " ")
}

func (c Command) kind() string { return "stdio" }

// ringBuffer keeps the last n bytes written to it.
type ringBuffer struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func (r *ringBuffer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if len(r.buf) > r.n {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-r.n:]...)
	}
	return len(p), nil
}

func (r *ringBuffer) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf)
}

type stdioConn struct {
	cmd     *exec.Cmd
	grace   time.Duration
	stderr  *ringBuffer
	done    chan struct{} // closed when the process has been reaped
	waitErr error

	mu       sync.Mutex
	diags    []Diagnostic
	fatal    error // invalid JSON on stdout
	readDone chan struct{}
}

func (c Command) open(ctx context.Context, rec *recorder, lim Limits) (*session, error) {
	if len(c.Argv) == 0 {
		return nil, errors.New("no server command given: pass it after --, e.g. `mcp-surface capture -- node server.js`")
	}
	var cmd *exec.Cmd
	if c.Shell {
		cmd = exec.Command("/bin/sh", "-c", strings.Join(c.Argv, " "))
	} else {
		cmd = exec.Command(c.Argv[0], c.Argv[1:]...)
	}
	cmd.Env = c.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Dir = c.Dir
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.Describe(), err)
	}
	grace := c.GracePeriod
	if grace <= 0 {
		grace = 500 * time.Millisecond
	}
	sc := &stdioConn{cmd: cmd, grace: grace, stderr: &ringBuffer{n: lim.StderrTail},
		done: make(chan struct{}), readDone: make(chan struct{})}
	errDone := make(chan struct{})
	go func() {
		_, _ = io.Copy(sc.stderr, stderrPipe)
		close(errDone)
	}()
	pr, pw := io.Pipe()
	rec.rawIncoming = true
	go sc.readStdout(stdout, pw, rec)
	go func() {
		// Wait closes the pipes after the process exits; wait for our
		// readers first so that no output is lost.
		<-sc.readDone
		<-errDone
		sc.waitErr = cmd.Wait()
		close(sc.done)
	}()
	return &session{
		transport: &mcp.IOTransport{Reader: pr, Writer: stdin, MaxLineLength: -1},
		failure:   sc.failure,
		shutdown: func() {
			_ = stdin.Close()
			sc.stop()
		},
		stderr: sc.stderr.String,
		diags:  sc.diagnostics,
	}, nil
}

// readStdout splits the server's stdout into lines. A line that is a
// JSON-RPC message is recorded byte for byte and forwarded to the SDK. A
// line that is not JSON at all (a server logging to stdout) is reported
// and dropped. A line that looks like JSON but does not parse is fatal: a
// client cannot recover from it, so the session stops at once instead of
// waiting for a timeout.
func (sc *stdioConn) readStdout(stdout io.Reader, pw *io.PipeWriter, rec *recorder) {
	defer close(sc.readDone)
	br := bufio.NewReaderSize(stdout, 64<<10)
	lineNo := 0
	for {
		line, err := readLine(br, rec)
		if len(line) > 0 {
			lineNo++
			if ferr := sc.handleLine(line, lineNo, pw, rec); ferr != nil {
				pw.CloseWithError(ferr)
				_, _ = io.Copy(io.Discard, stdout)
				return
			}
		}
		if err != nil {
			if err == io.EOF {
				pw.Close()
			} else {
				pw.CloseWithError(err)
				// Keep draining so the server never blocks on a full pipe.
				_, _ = io.Copy(io.Discard, stdout)
			}
			return
		}
	}
}

// readLine reads one line, charging its bytes to the budget as they come,
// so a never-ending line cannot exhaust memory.
func readLine(br *bufio.Reader, rec *recorder) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if cerr := rec.charge(len(chunk)); cerr != nil {
			return nil, cerr
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

func (sc *stdioConn) handleLine(line []byte, lineNo int, pw *io.PipeWriter, rec *recorder) error {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	switch trimmed[0] {
	case '{', '[':
		if !json.Valid(trimmed) {
			err := fmt.Errorf("server sent invalid JSON on stdout (line %d): %s", lineNo, truncate(string(trimmed), 300))
			sc.mu.Lock()
			sc.fatal = err
			sc.mu.Unlock()
			return err
		}
		if trimmed[0] == '{' && !looksLikeJSONRPC(trimmed) {
			sc.noise(trimmed, lineNo, "a JSON line that is not a JSON-RPC message")
			return nil
		}
		// Budget already charged by readLine; record without charging again.
		rec.mu.Lock()
		cp := append([]byte(nil), trimmed...)
		rec.frames = append(rec.frames, Frame{Seq: len(rec.frames), Dir: Received, Data: cp})
		cb := rec.onReceive
		rec.mu.Unlock()
		if cb != nil {
			cb(cp)
		}
		if _, err := pw.Write(append(cp, '\n')); err != nil {
			return err
		}
		return nil
	default:
		sc.noise(trimmed, lineNo, "a line that is not JSON")
		return nil
	}
}

// looksLikeJSONRPC reports whether an object has any JSON-RPC member; a
// structured log line ({"level":"info",...}) has none.
func looksLikeJSONRPC(obj []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return false
	}
	for _, k := range []string{"jsonrpc", "id", "method", "result", "error"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

const maxNoiseDiagnostics = 50

func (sc *stdioConn) noise(line []byte, lineNo int, what string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	n := 0
	for _, d := range sc.diags {
		if d.Code == DiagStdoutNoise {
			n++
		}
	}
	if n >= maxNoiseDiagnostics {
		return
	}
	sc.diags = append(sc.diags, Diagnostic{
		Code:    DiagStdoutNoise,
		Message: fmt.Sprintf("the server wrote %s to stdout (line %d); stdout must carry only JSON-RPC messages, log to stderr instead", what, lineNo),
		Detail:  truncate(string(line), 500),
	})
}

func (sc *stdioConn) diagnostics() []Diagnostic {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return append([]Diagnostic(nil), sc.diags...)
}

// failure explains why the session broke, if the server is to blame.
func (sc *stdioConn) failure() error {
	sc.mu.Lock()
	fatal := sc.fatal
	sc.mu.Unlock()
	if fatal != nil {
		return &ServerError{Reason: fatal.Error(), Stderr: sc.stderr.String()}
	}
	select {
	case <-sc.done:
	case <-time.After(200 * time.Millisecond):
		// Still running: not (yet) a crash.
		return nil
	}
	reason := "exited"
	if sc.waitErr != nil {
		reason = "exited: " + sc.waitErr.Error()
	} else {
		reason = "exited with status 0 before answering"
	}
	return &ServerError{Reason: reason, Stderr: sc.stderr.String()}
}

// stop ends the process: stdin is already closed; wait for a clean exit,
// then SIGTERM, then SIGKILL to the whole process group, and reap.
func (sc *stdioConn) stop() {
	select {
	case <-sc.done:
	case <-time.After(sc.grace):
		signalGroup(sc.cmd, sigTerm)
		select {
		case <-sc.done:
		case <-time.After(sc.grace):
		}
	}
	// Children left in the group (even if the leader exited) are killed.
	signalGroup(sc.cmd, sigKill)
	<-sc.done
	waitGroupGone(sc.cmd, sc.grace)
}
