package capture

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
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
	cmd   *exec.Cmd
	grace time.Duration
	// stdin is closed by the SDK when the session ends, or by stop; the
	// descendants are tracked just before, whoever closes it.
	stdin     io.WriteCloser
	closeOnce sync.Once
	tracked   *tracked
	stderr    *ringBuffer
	// exited is closed when the leader has been reaped; waitErr is its
	// status. The output pipes may stay open longer: anything the server
	// started can hold them.
	exited  chan struct{}
	waitErr error
	// outputs are our read ends of the server's stdout and stderr; ioDone
	// is closed when both readers have stopped.
	outputs []*os.File
	ioDone  chan struct{}
	// pw feeds the SDK what readStdout accepts.
	pw    *io.PipeWriter
	adopt *adoption

	mu       sync.Mutex
	diags    []Diagnostic
	fatal    error // invalid JSON on stdout
	readDone chan struct{}
}

func (c Command) open(ctx context.Context, rec *recorder, lim Limits) (*session, error) {
	if len(c.Argv) == 0 {
		return nil, errors.New("no server command given: pass it after --, e.g. `mcp-surface capture -- node server.js`")
	}
	pr, pw := io.Pipe()
	rec.rawIncoming = true
	sc, err := c.start(lim, pw, nil, func(sc *stdioConn, stdout *os.File) { sc.readStdout(stdout, pw, rec) })
	if err != nil {
		return nil, err
	}
	return &session{
		transport: &mcp.IOTransport{Reader: pr, Writer: stdinWriter{sc}, MaxLineLength: -1},
		failure:   sc.failure,
		shutdown:  sc.stop,
		stderr:    sc.stderr.String,
		diags:     sc.diagnostics,
	}, nil
}

// start starts c in a process group of its own, through the exec shim,
// registered with the watchdog and among the live servers, with its
// stdout and stderr on pipes of our own; the stdioConn it returns ends it
// (stop). The server's stderr is kept in the connection's tail and also
// copied to stderr when that is not nil; read consumes its stdout to the
// end, feeding pw, and must close sc.readDone when it returns.
func (c Command) start(lim Limits, pw *io.PipeWriter, stderr io.Writer, read func(sc *stdioConn, stdout *os.File)) (*stdioConn, error) {
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
	viaShim(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Our own pipes rather than StdoutPipe and StderrPipe: Wait would
	// close those as soon as the leader exits, losing what is still
	// buffered, and reading them to EOF first (the only other choice) never
	// ends while a process that escaped the group holds them. With our
	// own, shutdown decides how long to wait.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stderrPipe, stderrW, err := os.Pipe()
	if err != nil {
		stdout.Close()
		stdoutW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	// Before the start: a server may orphan a helper at once.
	adopt := beginAdoption()
	err = cmd.Start()
	// The child has its copies; ours would keep the pipes open forever.
	stdoutW.Close()
	stderrW.Close()
	if err != nil {
		stdout.Close()
		stderrPipe.Close()
		endAdoption(adopt)
		return nil, fmt.Errorf("starting %s: %w", c.Describe(), err)
	}
	adopt.started(cmd.Process.Pid)
	// Before the Wait below can reap it: the pid is the server's still.
	watchStart(cmd.Process.Pid)
	liveAdd(cmd)
	sc := &stdioConn{cmd: cmd, adopt: adopt, pw: pw, grace: lim.ShutdownGrace, stdin: stdin, stderr: &ringBuffer{n: lim.StderrTail},
		exited: make(chan struct{}), outputs: []*os.File{stdout, stderrPipe},
		ioDone: make(chan struct{}), readDone: make(chan struct{})}
	errDone := make(chan struct{})
	var errOut io.Writer = sc.stderr
	if stderr != nil {
		errOut = io.MultiWriter(sc.stderr, stderr)
	}
	go func() {
		_, _ = io.Copy(errOut, stderrPipe)
		close(errDone)
	}()
	go read(sc, stdout)
	go func() {
		<-sc.readDone
		<-errDone
		close(sc.ioDone)
	}()
	go func() {
		sc.waitErr = cmd.Wait()
		liveRemove(cmd)
		close(sc.exited)
	}()
	return sc, nil
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
		var facts lineFacts
		var ferr error = errNotObject
		if trimmed[0] == '{' {
			facts, ferr = inspectLine(trimmed)
		}
		if ferr != nil {
			// A batch, or a line nested deeper than the scanner goes.
			facts = lineFacts{jsonrpc2: isJSONRPC(trimmed)}
		}
		if !facts.jsonrpc2 {
			sc.noise(trimmed, lineNo, `a JSON line that is not a JSON-RPC 2.0 message (it has no "jsonrpc": "2.0")`)
			return nil
		}
		var slim []byte
		if method, ok := rec.listAnswerTo(facts.id); ok && len(trimmed) > slimAbove {
			slim, _ = slimListAnswer(trimmed, facts, method)
		}
		// Budget already charged by readLine; record without charging
		// again. The frame is the line itself: readLine's buffer is
		// never reused.
		rec.mu.Lock()
		seq := len(rec.frames)
		rec.frames = append(rec.frames, Frame{Seq: seq, Dir: Received, Data: trimmed[:len(trimmed):len(trimmed)]})
		cb := rec.onReceive
		rec.mu.Unlock()
		if slim != nil {
			rec.markSlimmed(seq)
		}
		if cb != nil {
			cb(trimmed)
		}
		if slim == nil {
			slim = withNewline(line, trimmed)
		}
		if _, err := pw.Write(slim); err != nil {
			return err
		}
		return nil
	default:
		sc.noise(trimmed, lineNo, "a line that is not JSON")
		return nil
	}
}

var errNotObject = errors.New("not a JSON object")

// withNewline is trimmed, a part of line, followed by a newline, for the
// SDK's reader: a longer view of line when the byte after trimmed is a
// newline (the usual case), else a copy.
func withNewline(line, trimmed []byte) []byte {
	end := cap(line) - cap(trimmed) + len(trimmed)
	if end < len(line) && line[end] == '\n' {
		return trimmed[:len(trimmed)+1]
	}
	return append(trimmed[:len(trimmed):len(trimmed)], '\n')
}

// isJSONRPC reports whether a JSON line is a JSON-RPC 2.0 message (or a
// batch of them): "jsonrpc": "2.0" is the one member a structured log line
// never has, while method, id, error and result are common in request
// logs. Anything else would make the SDK end the session.
func isJSONRPC(line []byte) bool {
	type tagged struct {
		Version *string `json:"jsonrpc"`
	}
	ok := func(t tagged) bool { return t.Version != nil && *t.Version == "2.0" }
	if line[0] == '{' {
		var t tagged
		return json.Unmarshal(line, &t) == nil && ok(t)
	}
	var batch []tagged
	if json.Unmarshal(line, &batch) != nil || len(batch) == 0 {
		return false
	}
	for _, t := range batch {
		if !ok(t) {
			return false
		}
	}
	return true
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
	case <-sc.exited:
	case <-time.After(200 * time.Millisecond):
		// Still running: not (yet) a crash.
		return nil
	}
	// Let the readers take in what the server wrote before it exited.
	select {
	case <-sc.ioDone:
	case <-time.After(200 * time.Millisecond):
	}
	if sc.waitErr != nil {
		return &ServerError{Reason: "exited: " + sc.waitErr.Error(), Stderr: sc.stderr.String()}
	}
	return &ServerError{Reason: "exited with status 0 before answering", Stderr: sc.stderr.String(), cleanExit: true}
}

// killedExit bounds the wait for processes already sent SIGKILL to exit.
const killedExit = 10 * time.Second

// stop ends the process: close stdin and wait for a clean exit, then
// SIGTERM, then SIGKILL to the whole process group, and reap. Descendants
// that left the group (a helper started in a session of its own) are
// killed too, when they can be found, and named in a diagnostic: they would
// otherwise outlive the capture, and hold its pipes open.
func (sc *stdioConn) stop() {
	sc.closeStdin()
	tracked := sc.tracked
	defer tracked.release()
	if !waitFor(sc.exited, sc.grace) {
		signalGroup(sc.cmd, sigTerm)
		waitFor(sc.exited, sc.grace)
	}
	// Children left in the group (even if the leader exited) are killed.
	signalGroup(sc.cmd, sigKill)
	<-sc.exited
	escaped := tracked.killEscaped(sc.cmd.Process.Pid)
	// Only an escaped process can hold the output pipes now. Bound the
	// wait, then look for whoever holds them, and finally close our ends.
	if !waitFor(sc.ioDone, sc.grace) {
		escaped = append(escaped, tracked.killPipeHolders(sc.outputs)...)
		if !waitFor(sc.ioDone, sc.grace) {
			for _, f := range sc.outputs {
				_ = f.Close()
			}
			// A reader may be blocked handing a line to the SDK instead.
			sc.pw.CloseWithError(errStoppedReading)
			<-sc.ioDone
			sc.addDiag(Diagnostic{Code: DiagEscapedProcesses,
				Message: "the server's stdout or stderr stayed open after it exited; a process it started still holds them and could not be found or killed; stopped reading them"})
		}
	}
	// The group and the tracked processes were sent SIGKILL, which they
	// cannot refuse: waiting for them waits for the kernel, not for their
	// cooperation, so the bound is not the (short) shutdown grace but
	// killedExit, which only a process stuck in an uninterruptible wait
	// reaches. On a loaded machine a large process takes well over the
	// grace to be torn down.
	waitGroupGone(sc.cmd, max(sc.grace, killedExit))
	tracked.reap(max(sc.grace, killedExit))
	watchEnd(sc.cmd.Process.Pid)
	for _, f := range sc.outputs {
		_ = f.Close()
	}
	if len(escaped) > 0 {
		slices.Sort(escaped)
		escaped = slices.Compact(escaped)
		sc.addDiag(Diagnostic{Code: DiagEscapedProcesses,
			Message: fmt.Sprintf("the server left %d process(es) running outside its process group (pid %s); they were killed at shutdown; a server should stop what it starts when its stdin closes",
				len(escaped), joinInts(escaped))})
	}
	if pids := tracked.unownedPids(); len(pids) > 0 {
		sc.addDiag(Diagnostic{Code: DiagEscapedProcesses,
			Message: fmt.Sprintf("%d orphaned process(es) (pid %s) appeared while this and other captures ran; which server started them is not known, so they are killed when the run ends (ReapStrays), not by this capture",
				len(pids), joinInts(pids))})
	}
}

// closeStdin closes the server's stdin once. The descendants are found
// first: a server that exits on EOF orphans its children, and an orphan can
// no longer be traced to it.
func (sc *stdioConn) closeStdin() {
	sc.closeOnce.Do(func() {
		sc.tracked = trackDescendants(sc.cmd.Process.Pid, sc.adopt)
		_ = sc.stdin.Close()
	})
}

// stdinWriter is the server's stdin as the SDK sees it.
type stdinWriter struct{ sc *stdioConn }

func (w stdinWriter) Write(p []byte) (int, error) { return w.sc.stdin.Write(p) }

func (w stdinWriter) Close() error {
	w.sc.closeStdin()
	return nil
}

func (sc *stdioConn) addDiag(d Diagnostic) {
	sc.mu.Lock()
	sc.diags = append(sc.diags, d)
	sc.mu.Unlock()
}

var errStoppedReading = errors.New("stopped reading the server's output at shutdown")

// waitFor reports whether ch closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
