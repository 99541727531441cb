package report

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// TextDiff is textdiff.Diff: a compact, raw (unescaped) diff of two texts.
func TextDiff(a, b string) string { return textdiff.Diff(a, b) }

// IsLineDiff is textdiff.IsLineDiff.
func IsLineDiff(a, b string) bool { return textdiff.IsLineDiff(a, b) }

// proseFinding reports whether a finding's before/after are model-visible
// text worth a text diff: descriptions, titles, instructions, or any
// finding tagged llm (the text-* detectors hold a span, not the text).
func proseFinding(f finding.Finding) bool {
	for _, w := range []string{"description", "instructions", "title"} {
		if strings.Contains(f.Rule, w) {
			return true
		}
	}
	return slices.Contains(f.Tags, "llm") && !strings.HasPrefix(f.Rule, "text-")
}

// textStrings returns before and after as strings when both are JSON
// strings (an absent side counts as "").
func textStrings(f finding.Finding) (before, after string, ok bool) {
	if f.Before == nil && f.After == nil {
		return "", "", false
	}
	for _, x := range []struct {
		raw json.RawMessage
		dst *string
	}{{f.Before, &before}, {f.After, &after}} {
		if x.raw == nil {
			continue
		}
		if err := json.Unmarshal(x.raw, x.dst); err != nil {
			return "", "", false
		}
	}
	return before, after, true
}

// FindingTextDiff is the text diff of a prose finding's before and after,
// "" when the finding is not about text or nothing changed.
func FindingTextDiff(f finding.Finding) string {
	if !proseFinding(f) || f.Before == nil || f.After == nil {
		return ""
	}
	a, b, ok := textStrings(f)
	if !ok {
		return ""
	}
	return TextDiff(a, b)
}
