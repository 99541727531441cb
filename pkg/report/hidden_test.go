package report_test

import (
	"testing"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/internal/testkit/runetest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// One definition of a hidden character: on every code point, the escapers
// make visible exactly what the detectors of the lint and the diff report
// (textscan.HiddenRunes, on the code point alone), apart from the line
// breaks and tabs that one-line output escapes as layout.
func TestEscaperAgreesWithDetector(t *testing.T) {
	for r, detected := range runetest.Detected(textscan.HiddenRunes) {
		s := string(r)
		layout := r == '\n' || r == '\r' || r == '\t'
		if escaped := textscan.Visible(s, textscan.Escapes) != s; escaped != (detected || layout) {
			t.Errorf("%U: Visible escapes it = %v, the detector reports it = %v", r, escaped, detected)
		}
		if kept := textscan.Visible(s, textscan.EscapesKeepLines) == s; kept == detected && r != '\r' {
			t.Errorf("%U: Visible(keepLines) keeps it = %v, the detector reports it = %v", r, kept, detected)
		}
		if r >= utf8.RuneSelf {
			if escaped := string(report.EscapeJSONHidden([]byte(s))) != s; escaped != detected {
				t.Errorf("%U: EscapeJSONHidden escapes it = %v, the detector reports it = %v", r, escaped, detected)
			}
		}
	}
}
