package frontend

import (
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestLogText(t *testing.T) {
	tabletest.Map(t, "LogText", LogText, map[string]string{
		"plain\n  indented":               "plain\n  indented",
		"::error::x\n  ::add-mask::y":     `\u003a:error::x` + "\n" + `  \u003a:add-mask::y`,
		"a\r::error::x":                   `a\r::error::x`,
		"crlf\r\nnext\n":                  "crlf\nnext",
		"\x1b[31mred\x1b]8;;u\x07 ##[set": `\e[31mred\e]8;;u\u0007 ##\[set`,
	})
}
