package diff

import (
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// levelFits reports whether a finding's level and severity are its rule's,
// or, for a schema change, what its witness search made of them (see
// prove): raised to error with a witness, lowered to warning without one,
// a pattern proven compatible lowered to a note.
func levelFits(f finding.Finding, r rules.Rule) bool {
	if f.Level == r.Level && f.Severity == r.Severity {
		return f.Witness == nil || f.Level == rules.LevelError
	}
	switch {
	case f.Witness != nil:
		return f.Level == rules.LevelError && f.Severity == rules.SeverityBreaking
	case r.Severity == rules.SeverityBreaking:
		return f.Level == rules.LevelWarning && f.Severity == rules.SeverityRisky
	case r.ID == rules.InputPatternChanged || r.ID == rules.OutputPatternChanged:
		return f.Level == rules.LevelNote && f.Severity == rules.SeverityMinor
	}
	return false
}
