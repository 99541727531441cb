package capture

import (
	"fmt"
	"strings"
)

// MaxFailureMessage bounds the server's error message a ListFailure keeps.
const MaxFailureMessage = 300

// ListFailure is an advertised list whose request answered with a
// JSON-RPC error that does not say the method was never implemented: the
// server has the list but could not produce it (its backend unreachable,
// a page it could not serve). What the list holds is then unknown, which
// is not the same as empty.
type ListFailure struct {
	Method string
	// Page is the page (from 1) whose request failed.
	Page int
	Code int64
	// Message is the error's message as the server wrote it, bounded
	// (MaxFailureMessage) but not escaped: escape it before printing.
	Message string
}

// String describes the failure in one line; the message is quoted.
func (f ListFailure) String() string {
	return fmt.Sprintf("%s page %d answered with error %d %q", f.Method, f.Page, f.Code, f.Message)
}

// ListFailures are the lists of the capture that failed, in the order
// they were read. A first page answered with -32601 Method not found is
// not one: the capability was never implemented, which a snapshot
// records as such (failedMethods). The same answer to a later page is
// one: the list exists and broke part-way.
func (c *Capture) ListFailures() []ListFailure {
	var out []ListFailure
	for _, d := range c.Diagnostics {
		if d.Code != DiagListError || d.Method == "" {
			continue
		}
		if d.RPCCode == CodeMethodNotFound && d.Page <= 1 {
			continue
		}
		out = append(out, ListFailure{Method: d.Method, Page: max(d.Page, 1), Code: d.RPCCode, Message: c.failureMessage(d)})
	}
	return out
}

// failureMessage is the server's own message of a list-error: from the
// error answer it diagnoses, else from the diagnostic's text ("METHOD
// page N answered with error CODE: MESSAGE"); bounded.
func (c *Capture) failureMessage(d Diagnostic) string {
	msg := d.Message
	if _, rest, ok := strings.Cut(msg, ": "); ok {
		msg = rest
	}
	for _, ex := range c.Exchanges {
		if ex.ResponseFrame == d.Frame && ex.Error != nil {
			msg = ex.Error.Message
			break
		}
	}
	return strings.ToValidUTF8(truncate(msg, MaxFailureMessage), "\uFFFD")
}

// IncompleteError is a capture one of whose advertised lists failed (see
// ListFailures): its snapshot would show the list as empty, and a
// comparison would take every item of it for removed. It names what
// failed and how to fix it, not how to ask for a partial snapshot
// anyway: a command line says so with a flag, a Go program with an
// option.
type IncompleteError struct {
	Failures []ListFailure
}

func (e *IncompleteError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = f.String()
	}
	return fmt.Sprintf("the capture is incomplete: %s; what the list holds is unknown, not empty, so the capture does not stand for the server's surface: fix what the list depends on (the server's backend, its credentials or configuration) and capture again",
		strings.Join(parts, "; "))
}
