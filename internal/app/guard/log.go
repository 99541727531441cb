package guard

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
)

// Decision is one thing the guard decided, as the log file holds it (one
// JSON object per line). Name and Message hold server text as served;
// the stderr line escapes them.
type Decision struct {
	// Decision is one of the Decision* constants.
	Decision string `json:"decision"`
	// Mode is the --on-change mode the decision was taken under.
	Mode Mode `json:"mode"`
	// Server is the lock entry's key (CONFIG › NAME).
	Server string `json:"server"`
	// Method is the JSON-RPC method of the message decided on.
	Method string `json:"method"`
	// Kind and Name are the item's subject kind (tool, prompt, resource,
	// resource-template; server for the instructions) and identity.
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`
	// Change is changed or new for an item that is not the locked one.
	Change string `json:"change,omitempty"`
	// Rules are the rules the comparison reported for the item, ranked.
	Rules []string `json:"rules,omitempty"`
	// Message says it in one line, as stderr does.
	Message string `json:"message"`
	// Items counts the items of a checked page; Unchanged those that are
	// the locked ones.
	Items     *int `json:"items,omitempty"`
	Unchanged *int `json:"unchanged,omitempty"`
}

// The decisions.
const (
	// DecisionChecked: a listing page was compared with the lock (one per
	// page, with its counts).
	DecisionChecked = "checked"
	// DecisionPassed: a changed or new item the ranking calls harmless
	// was passed to the client.
	DecisionPassed = "passed"
	// DecisionBlocked: a risky or breaking change was left out of what
	// the client receives (--on-change block).
	DecisionBlocked = "blocked"
	// DecisionWarned: a risky or breaking change was passed to the client
	// (--on-change warn).
	DecisionWarned = "warned"
	// DecisionFailed: a risky or breaking change ended the session
	// (--on-change fail).
	DecisionFailed = "failed"
	// DecisionRefused: a call to a blocked item was answered by the
	// guard with an error, not forwarded.
	DecisionRefused = "refused"
	// DecisionUnreadable: a listing could not be read to be checked.
	DecisionUnreadable = "unreadable"
)

// Logger writes each decision as a line on stderr and, when File is set,
// as a JSON line to it. Safe for concurrent use.
type Logger struct {
	Stderr io.Writer
	File   io.Writer
	mu     sync.Mutex
	err    error
}

// Log records d.
func (l *Logger) Log(d Decision) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Stderr != nil {
		_, _ = io.WriteString(l.Stderr, "mcp-surface guard: "+frontend.LogText(d.Message)+"\n")
	}
	if l.File != nil && l.err == nil {
		b, err := json.Marshal(d)
		if err == nil {
			_, err = l.File.Write(append(b, '\n'))
		}
		l.err = err
	}
}

// Err is the first error writing the log file.
func (l *Logger) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
