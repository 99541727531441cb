package frontend

import (
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// maxLogLine bounds one printed line of text that may hold server output.
const maxLogLine = report.MaxText

// LogText is text for stderr or stdout that may hold what a server wrote
// (an error with its stderr tail, a diagnostic, a name): every line goes
// through report.LogLine, the escaper of the report's own log lines, so
// that no server byte can start a workflow command (::error::,
// ::add-mask::, ::stop-commands::, ##[...]) or a terminal escape. Our line
// breaks are kept; a server's bare \r is shown as \r, never a new line.
func LogText(s string) string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = report.LogLine(strings.TrimSuffix(l, "\r"), maxLogLine)
	}
	return strings.Join(lines, "\n")
}
