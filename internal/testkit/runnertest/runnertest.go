package runnertest

import (
	"strings"
	"testing"
)

// Commands parses output as the Actions runner reads a log: a line ends
// at \n or \r; a line whose text starts with "::" (after spaces) is a
// workflow command, and "##[" starts one anywhere, unless commands are
// stopped by ::stop-commands::TOKEN until ::TOKEN::. It returns the
// commands it would obey.
func Commands(out string) []string {
	var cmds []string
	stopped := ""
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimLeft(line, " ")
		if stopped != "" {
			if t == "::"+stopped+"::" {
				stopped = ""
			}
			continue
		}
		if tok, ok := strings.CutPrefix(t, "::stop-commands::"); ok {
			stopped = tok
		}
		if strings.HasPrefix(t, "::") || strings.Contains(t, "##[") {
			cmds = append(cmds, t)
		}
	}
	return cmds
}

// AssertNothingForged fails t when output holds a command the server
// wrote or a byte that starts a terminal escape. what names the output.
func AssertNothingForged(t testing.TB, what, out string) {
	t.Helper()
	for _, c := range Commands(out) {
		if Forged(c) {
			t.Errorf("%s: the runner would obey a command the server wrote: %q", what, c)
		}
	}
	// ESC, BEL and the C1 CSI: what starts or ends a terminal escape.
	if i := strings.IndexFunc(out, func(r rune) bool { return r == 0x1b || r == 0x07 || r == 0x9b }); i >= 0 {
		t.Errorf("%s: a terminal escape byte reached the output at %d: %q", what, i, out[max(0, i-40):min(len(out), i+40)])
	}
}

// Forged reports whether a command line the runner obeys is the server's:
// we never write "##[", and the test servers' commands carry "forged" at
// the start of their data. Server text in the properties or later in the
// data of our own annotation is only shown.
func Forged(c string) bool {
	if strings.Contains(c, "##[") {
		return true
	}
	rest, ok := strings.CutPrefix(c, "::")
	if !ok {
		return false
	}
	head, data, ok := strings.Cut(rest, "::")
	name, _, _ := strings.Cut(head, " ")
	return ok && (strings.Contains(name, "forged") || strings.HasPrefix(data, "forged"))
}
