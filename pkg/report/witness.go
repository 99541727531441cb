package report

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// maxWitnessInline bounds a witness shown inline (a table cell, a log
// line, a SARIF message); the details and the JSON report carry it whole.
const maxWitnessInline = 200

// WitnessSentence is what a finding's witness proves, in words, or "" when
// it has none: for an input schema, a call; for an output schema, a
// result ("This call was accepted before and is rejected now").
func WitnessSentence(f finding.Finding) string {
	w := f.Witness
	if w == nil || len(w.Value) == 0 {
		return ""
	}
	noun := "call"
	if r, ok := rules.Lookup(f.Rule); (ok && r.Direction == "output") || strings.HasPrefix(f.Pointer, "/outputSchema") {
		noun = "result"
	}
	verb, past := "accepted", "rejected"
	if noun == "result" {
		verb, past = "allowed", "not allowed"
	}
	when := ""
	if w.Formats != "" {
		when = " (while format is only an annotation)"
	}
	if w.Accepts == finding.SideBase {
		return "This " + noun + " was " + verb + " before and is " + past + " now" + when
	}
	return "This " + noun + " is " + verb + " now and was " + past + " before" + when
}

// WitnessLine is the witness's value on one line, bounded to max bytes
// (not escaped: the caller escapes for where it prints).
func WitnessLine(f finding.Finding, max int) string {
	if f.Witness == nil {
		return ""
	}
	return textscan.Clip(compactJSON(f.Witness.Value), max, "…")
}

func compactJSON(v json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return string(v)
	}
	return buf.String()
}
