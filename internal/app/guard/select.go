package guard

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
)

// Select finds the lock entry a guard serves: the one whose configuration
// and name, joined by ':', are server exactly (names and paths may hold
// ':' themselves, so the argument is never split), or the only entry when
// server is "". The error lists the entries to choose from.
func Select(l *lock.Lock, server string) (*lock.Entry, error) {
	if server == "" {
		switch len(l.Entries) {
		case 1:
			return &l.Entries[0], nil
		case 0:
			return nil, fmt.Errorf("the lock has no entry: lock the server first with `mcp-surface lock`")
		}
		return nil, fmt.Errorf("the lock has %d entries: name one with --server (%s)", len(l.Entries), entryList(l))
	}
	for i := range l.Entries {
		if e := &l.Entries[i]; e.Config+":"+e.Name == server {
			return e, nil
		}
	}
	if len(l.Entries) == 0 {
		return nil, fmt.Errorf("no entry %q: the lock has none; lock the server first with `mcp-surface lock`", server)
	}
	return nil, fmt.Errorf("no entry %q; the lock has %s", server, entryList(l))
}

// entryList names every entry as --server takes it.
func entryList(l *lock.Lock) string {
	names := make([]string, len(l.Entries))
	for i := range l.Entries {
		names[i] = fmt.Sprintf("%q", l.Entries[i].Config+":"+l.Entries[i].Name)
	}
	return strings.Join(names, ", ")
}
