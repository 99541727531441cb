package guard

import (
	"bytes"
	"io"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
)

// maxStderrLine is the longest line of the server's stderr held before it
// is written out (a longer one is written in pieces).
const maxStderrLine = 64 << 10

// escapedLines passes the server's stderr on line by line, each escaped
// as every line of server text the guard prints is: control and hidden
// characters shown, not acted on by the terminal, the log viewer or a CI
// runner, so that the server cannot rewrite the guard's own lines.
type escapedLines struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (e *escapedLines) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			room := maxStderrLine - len(e.buf)
			if len(p) < room {
				e.buf = append(e.buf, p...)
				return n, nil
			}
			e.buf = append(e.buf, p[:room]...)
			p = p[room:]
		} else {
			e.buf = append(e.buf, p[:i]...)
			p = p[i+1:]
		}
		if err := e.line(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Flush writes what is left of a last line without its end.
func (e *escapedLines) Flush() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.buf) > 0 {
		_ = e.line()
	}
}

func (e *escapedLines) line() error {
	_, err := io.WriteString(e.w, frontend.LogText(string(e.buf))+"\n")
	e.buf = e.buf[:0]
	return err
}
