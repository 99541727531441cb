package frontend

import "testing"

func TestLogText(t *testing.T) {
	for in, want := range map[string]string{
		"plain\n  indented":               "plain\n  indented",
		"::error::x\n  ::add-mask::y":     `\u003a:error::x` + "\n" + `  \u003a:add-mask::y`,
		"a\r::error::x":                   `a\r::error::x`,
		"crlf\r\nnext\n":                  "crlf\nnext",
		"\x1b[31mred\x1b]8;;u\x07 ##[set": `\e[31mred\e]8;;u\u0007 ##\[set`,
	} {
		if got := LogText(in); got != want {
			t.Errorf("LogText(%q) = %q, want %q", in, got, want)
		}
	}
}
