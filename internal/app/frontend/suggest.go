package frontend

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
)

// DidYouMean is " (did you mean "x"?)" for the candidate closest to s
// (case aside) within a few edits, or a candidate s is a prefix of; ""
// when none is close. Commands, flags and server names say it the same
// way.
func DidYouMean(s string, candidates []string) string {
	best, bestD := "", -1
	ls := []rune(strings.ToLower(s))
	for _, c := range candidates {
		d := textdiff.Levenshtein(ls, []rune(strings.ToLower(c)))
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= max(2, len(ls)/4) && bestD < len(ls) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	if len(ls) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), string(ls)) {
				return fmt.Sprintf(" (did you mean %q?)", c)
			}
		}
	}
	return ""
}
