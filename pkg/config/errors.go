package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a mistake in the file, with its line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Errors is every mistake found in one file.
type Errors []*Error

// The bounds on what Errors prints: one mistake repeated through a large
// file (a generated list, say) would otherwise print a line per entry.
const (
	maxSameMessage = 20  // lines for one message, then a count
	maxErrorLines  = 200 // lines in all, then a count
)

// Error prints each mistake with its line, at most maxSameMessage times
// for one message ("… and N more like this") and maxErrorLines in all.
func (es Errors) Error() string {
	count := map[string]int{}
	for _, e := range es {
		count[e.Msg]++
	}
	shown := map[string]int{}
	summarized := map[string]bool{}
	var lines []string
	hidden := 0
	for _, e := range es {
		switch {
		case shown[e.Msg] >= maxSameMessage:
			if !summarized[e.Msg] {
				hidden++
			}
			continue
		case len(lines) >= maxErrorLines:
			hidden++
			continue
		}
		shown[e.Msg]++
		lines = append(lines, e.Error())
		if shown[e.Msg] == maxSameMessage && count[e.Msg] > maxSameMessage {
			lines = append(lines, fmt.Sprintf("… and %s more like this", thousands(count[e.Msg]-maxSameMessage)))
			summarized[e.Msg] = true
		}
	}
	if hidden > 0 {
		lines = append(lines, fmt.Sprintf("… and %s more", thousands(hidden)))
	}
	return strings.Join(lines, "\n")
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
