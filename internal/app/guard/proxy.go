package guard

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// DefaultMaxBytes bounds one message when Config.MaxBytes is 0: the bound
// a capture puts on everything it reads from a server.
var DefaultMaxBytes = capture.DefaultLimits.MaxBytes

// Config is one run of the stdio guard.
type Config struct {
	// Server is the server's command, its environment and directory.
	Server capture.Command
	// Session judges the traffic.
	Session *Session
	// MaxBytes bounds one message, either way (0: DefaultMaxBytes).
	MaxBytes int64
	// Grace is how long the server is given to exit once its stdin is
	// closed, and again after SIGTERM (0: the capture's default).
	Grace time.Duration
	// Stdin and Stdout are the client's side; Stderr gets the server's
	// stderr, line by line, each escaped (the guard's decisions go to the
	// Session's Logger).
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// TooLongError is a message longer than the bound.
type TooLongError struct {
	From  string // "client" or "server"
	Limit int64
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("a message from the %s is longer than %d bytes: the guard holds one message at a time and refuses longer ones (raise --max-bytes if the server's listings are that large)", e.From, e.Limit)
}

// StartError is a server that could not be started.
type StartError struct{ Err error }

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Run starts the server and carries the session between the client
// (Stdin, Stdout) and it, through the Session, until the client closes its
// side and the server has exited, the server ends, the session is ended
// (ErrChanged under ModeFail) or ctx is done; then it stops the server
// and everything it started. It returns nil for a session that ended
// normally (the client closed, the server exited cleanly, or ctx was
// cancelled: a stop asked for), ErrChanged (wrapped) for a session ended
// by a change, a *StartError when the server did not start, a
// *TooLongError for a message over the bound.
func Run(ctx context.Context, cfg Config) error {
	limit := cfg.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	serverStderr := &escapedLines{w: cfg.Stderr}
	if cfg.Stderr == nil {
		serverStderr.w = io.Discard
	}
	p, err := capture.StartProcess(cfg.Server, capture.Limits{ShutdownGrace: cfg.Grace}, serverStderr)
	if err != nil {
		return &StartError{err}
	}
	defer serverStderr.Flush()
	client := &lockedWriter{w: cfg.Stdout}
	server := p.Stdin()

	ended := make(chan error, 3) // the first reason to stop
	endWith := func(err error) {
		select {
		case ended <- err:
		default:
		}
	}
	clientDone := make(chan struct{})
	serverDone := make(chan struct{})
	var stopping sync.Once
	closeServerStdin := func() { stopping.Do(func() { _ = server.Close() }) }

	// Server to client. It reads to the end whatever happens, so that the
	// server never blocks on a full pipe and Stop sees the pipe close.
	go func() {
		defer close(serverDone)
		r := bufio.NewReaderSize(p.Stdout(), 64<<10)
		dead := false
		for {
			line, err := readLine(r, limit)
			if err != nil {
				var tl *TooLongError
				if errors.As(err, &tl) {
					tl.From = "server"
					endWith(tl)
					dead = true
					_, _ = io.Copy(io.Discard, r)
				}
				return
			}
			if dead {
				continue
			}
			msg, eol := splitEOL(line)
			if len(bytes.TrimSpace(msg)) == 0 {
				_, _ = client.Write(line)
				continue
			}
			out := cfg.Session.FromServer(msg)
			if out.Forward != nil {
				if _, err := client.Write(withEOL(line, msg, out.Forward, eol)); err != nil {
					endWith(nil) // the client went away
					dead = true
				}
			}
			if out.End != nil {
				endWith(out.End)
				dead = true
			}
		}
	}()

	// Client to server.
	go func() {
		defer close(clientDone)
		r := bufio.NewReaderSize(cfg.Stdin, 64<<10)
		for {
			line, err := readLine(r, limit)
			if err != nil {
				var tl *TooLongError
				if errors.As(err, &tl) {
					tl.From = "client"
					endWith(tl)
				}
				// End of the client's input: the session is over; the
				// server is asked to exit as a client asks it.
				closeServerStdin()
				return
			}
			msg, eol := splitEOL(line)
			if len(bytes.TrimSpace(msg)) == 0 {
				_, _ = server.Write(line)
				continue
			}
			out := cfg.Session.FromClient(msg)
			for _, a := range out.Answers {
				if _, err := client.Write(append(a, '\n')); err != nil {
					endWith(nil)
					return
				}
			}
			if out.Forward != nil {
				if _, err := server.Write(withEOL(line, msg, out.Forward, eol)); err != nil {
					// The server closed its stdin: it is ending; its
					// stdout's end says when.
					closeServerStdin()
					return
				}
			}
			if out.End != nil {
				endWith(out.End)
				return
			}
		}
	}()

	grace := cfg.Grace
	if grace <= 0 {
		grace = capture.DefaultLimits.ShutdownGrace
	}
	// within waits for c at most d: a server that ignores the end of its
	// input, or closes its output and stays, is stopped all the same.
	within := func(c <-chan struct{}, d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-c:
			return true
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	var result error
	select {
	case result = <-ended:
	case <-clientDone:
		// The client closed its side (or the session was ended from it).
		// The server, its stdin closed, is given drainGrace to answer what
		// is in flight and close its output before it is stopped.
		select {
		case result = <-ended:
		default:
			within(serverDone, drainGraces*grace)
			select {
			case result = <-ended:
			default:
			}
		}
	case <-serverDone:
		// The server closed its stdout: it ended (or will).
		select {
		case result = <-ended:
		default:
		}
		if result == nil && within(p.Exited(), drainGraces*grace) {
			if werr := p.ExitErr(); werr != nil {
				select {
				case <-clientDone:
					// The client had closed: how the server exits is its
					// own business.
				default:
					result = fmt.Errorf("the server exited (%v) while the client was connected", werr)
				}
			}
		}
	case <-ctx.Done():
	}
	closeServerStdin()
	p.Stop()
	<-serverDone
	return result
}

// drainGraces is how many shutdown graces a server is given, once the
// client closed its side, to answer what is in flight and close its
// output, or once it closed its output, to exit; then it is stopped
// (which gives it its grace again before SIGTERM).
const drainGraces = 10

// readLine reads one line (with its end), failing with a *TooLongError
// once it passes limit: never more than limit bytes are held.
func readLine(r *bufio.Reader, limit int64) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if int64(len(line)+len(chunk)) > limit+2 { // the line end is not the message
			return nil, &TooLongError{Limit: limit}
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(line) > 0 && err == io.EOF {
			return line, nil
		}
		return line, err
	}
}

// splitEOL splits a line into the message and its line end.
func splitEOL(line []byte) (msg, eol []byte) {
	msg = bytes.TrimRight(line, "\r\n")
	return msg, line[len(msg):]
}

// withEOL is what to write for a message: the line as read when the
// message is unchanged, else the new message with the line's end (a
// newline at least).
func withEOL(line, msg, out, eol []byte) []byte {
	if bytes.Equal(out, msg) {
		return line
	}
	if len(eol) == 0 {
		eol = []byte{'\n'}
	}
	return append(out[:len(out):len(out)], eol...)
}

// lockedWriter writes whole chunks one at a time: the client's stdout
// gets the server's messages and the guard's own answers from two
// goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
