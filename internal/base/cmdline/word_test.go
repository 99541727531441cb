package cmdline

import (
	"slices"
	"testing"
)

func TestJoinQuotesOnlyWhatTheShellWouldRead(t *testing.T) {
	words := []string{"mcp-surface", "snapshot", "-o", "a b.json", "--", "node", "it's", ""}
	line := Join(words)
	if want := `mcp-surface snapshot -o 'a b.json' -- node 'it'\''s' ''`; line != want {
		t.Errorf("Join = %s, want %s", line, want)
	}
	if back, err := Split(line); err != nil || !slices.Equal(back, words) {
		t.Errorf("Split(Join) = %q, %v", back, err)
	}
}
