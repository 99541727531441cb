package capture

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Limits bound everything a capture reads from a server. Zero values take
// the defaults of DefaultLimits.
type Limits struct {
	// StartupTimeout bounds launch plus handshake (LimitStartupTimeout).
	StartupTimeout time.Duration
	// RequestTimeout bounds each request after the handshake
	// (LimitRequestTimeout).
	RequestTimeout time.Duration
	// MaxBytes bounds the total bytes received from the server
	// (LimitTotalBytes).
	MaxBytes int64
	// MaxPages bounds the pages read per list (LimitPageCount).
	MaxPages int
	// StderrTail is how much of a stdio server's stderr is kept.
	StderrTail int
	// ShutdownGrace is how long a stdio server is given to exit after its
	// stdin closes, and again after SIGTERM, before the next step (default
	// 100ms). Once the server is gone it also bounds, twice at most, the
	// wait for its stdout and stderr to close (a process it started may
	// hold them). Most servers exit on EOF at once and never use it.
	ShutdownGrace time.Duration
}

// DefaultLimits are the limits used for zero fields.
var DefaultLimits = Limits{
	StartupTimeout: 30 * time.Second,
	RequestTimeout: 30 * time.Second,
	MaxBytes:       64 << 20,
	MaxPages:       1000,
	StderrTail:     64 << 10,
	ShutdownGrace:  100 * time.Millisecond,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	d.StartupTimeout = positiveOr(l.StartupTimeout, d.StartupTimeout)
	d.RequestTimeout = positiveOr(l.RequestTimeout, d.RequestTimeout)
	d.MaxBytes = positiveOr(l.MaxBytes, d.MaxBytes)
	d.MaxPages = positiveOr(l.MaxPages, d.MaxPages)
	d.StderrTail = positiveOr(l.StderrTail, d.StderrTail)
	d.ShutdownGrace = positiveOr(l.ShutdownGrace, d.ShutdownGrace)
	return d
}

// positiveOr is v when it is set (positive), else def.
func positiveOr[T ~int | ~int64](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// The limits a LimitError names. Each of the first four is a field of
// Limits; a repeated cursor cannot be raised.
const (
	LimitStartupTimeout = "startup timeout"
	LimitRequestTimeout = "request timeout"
	LimitTotalBytes     = "total bytes"
	LimitPageCount      = "page count"
	LimitRepeatedCursor = "repeated cursor"
)

// LimitError is a bound that a server hit. It names the limit and its
// value, not how to raise it: a command line says so with a flag, an
// action with an input, a Go program with a field of Limits.
type LimitError struct {
	Limit  string // one of the Limit* constants
	Value  string // the limit's value, e.g. "30s"
	Method string // the request in flight, if any
	Detail string
}

func (e *LimitError) Error() string {
	var b strings.Builder
	if e.Method != "" {
		b.WriteString(e.Method + ": ")
	}
	if e.Detail != "" {
		b.WriteString(e.Detail + ": ")
	}
	fmt.Fprintf(&b, "%s limit of %s reached", e.Limit, e.Value)
	return b.String()
}

// ErrRepeatedCursor is wrapped by the error for a list whose cursor repeats.
var ErrRepeatedCursor = errors.New("cursor repeats")

// ServerError is a server that failed: it exited, closed its output, or
// answered with something that cannot be read. It carries the end of the
// server's stderr so that the failure can be understood without rerunning.
// Reason and Stderr hold the server's bytes as it wrote them (escape
// sequences, workflow commands, a bare \r): whatever prints the error
// escapes each line first, as the command line does with report.LogLine.
type ServerError struct {
	During string // "handshake", "tools/list", ...
	Reason string // "exited with status 3", "sent invalid JSON on stdout: ..."
	Stderr string // tail of stderr
	Err    error
	// cleanExit: the server exited with status 0, which it also does when
	// the client gives up and closes its stdin.
	cleanExit bool
}

func (e *ServerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "server failed during %s: %s", e.During, e.Reason)
	if e.Err != nil && !strings.Contains(e.Reason, e.Err.Error()) {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		lines := strings.Split(s, "\n")
		if len(lines) > 20 {
			lines = append([]string{"..."}, lines[len(lines)-20:]...)
		}
		b.WriteString("\nserver stderr (last lines):\n  ")
		b.WriteString(strings.Join(lines, "\n  "))
	}
	return b.String()
}

func (e *ServerError) Unwrap() error { return e.Err }

// truncate bounds a detail string for messages.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes in all)", len(s))
}
