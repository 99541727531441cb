package cost

import (
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Budget is the limits a team sets on the cost (cost.budget in
// .mcp-surface.yaml). Zero fields set no limit; the zero Budget reports
// nothing.
type Budget struct {
	// Total is the most tokens the whole surface may cost.
	Total int
	// PerTool is the most tokens any one tool may cost.
	PerTool int
	// IncreaseTokens and IncreasePercent bound the growth of the total
	// from base to head; either one exceeded is reported. The percentage
	// is of base's total and is not judged when base costs nothing.
	IncreaseTokens  int
	IncreasePercent float64
	// Level is the level of the findings; "" keeps each rule's default
	// (warning). A severity override in the configuration applies after.
	Level rules.Level
}

var serverSubject = finding.Subject{Kind: finding.KindServer}

// Check reports the limits one surface exceeds: its total
// (context-budget-exceeded) and each tool over the per-tool budget
// (tool-context-budget-exceeded), largest first. It reads the state of
// the surface, not a change, so `validate`, `cost` and `check` can all
// report it.
func (b Budget) Check(t *Table) []finding.Finding {
	if t == nil {
		return nil
	}
	var out []finding.Finding
	if b.Total > 0 && t.Total > b.Total {
		out = append(out, b.finding(rules.ContextBudgetExceeded, serverSubject,
			fmt.Sprintf("the surface costs %s tokens per session (%s), over its budget of %s by %s",
				formatTokens(t.Total), t.Encoding, formatTokens(b.Total), formatTokens(t.Total-b.Total)),
			limitValue("tokens", t.Total, "budget", b.Total, t.Encoding)))
	}
	if b.PerTool > 0 {
		for _, x := range t.Tools {
			if x.Tokens <= b.PerTool {
				break // sorted largest first
			}
			out = append(out, b.finding(rules.ToolContextBudgetExceeded, finding.Subject{Kind: finding.KindTool, Name: x.Name},
				fmt.Sprintf("tool %q costs %s tokens (%s), over the per-tool budget of %s by %s",
					x.Name, formatTokens(x.Tokens), t.Encoding, formatTokens(b.PerTool), formatTokens(x.Tokens-b.PerTool)),
				limitValue("tokens", x.Tokens, "budget", b.PerTool, t.Encoding)))
		}
	}
	return out
}

// CheckIncrease reports a growth of the total from base to head beyond
// the allowed increase (context-cost-increase-exceeded). pkg/diff calls
// it with the tables it compares.
func (b Budget) CheckIncrease(base, head *Table) []finding.Finding {
	c := Compare(base, head)
	d := c.Delta()
	if d <= 0 {
		return nil
	}
	overTokens := b.IncreaseTokens > 0 && d > b.IncreaseTokens
	overPercent := b.IncreasePercent > 0 && c.Before > 0 && c.Percent() > b.IncreasePercent
	if !overTokens && !overPercent {
		return nil
	}
	var limit string
	switch {
	case overTokens && b.IncreasePercent > 0:
		limit = fmt.Sprintf("%s tokens or %s%%", formatTokens(b.IncreaseTokens), percent(b.IncreasePercent))
	case overTokens:
		limit = formatTokens(b.IncreaseTokens) + " tokens"
	default:
		limit = percent(b.IncreasePercent) + "%"
	}
	enc := DefaultEncoding
	if head != nil {
		enc = head.Encoding
	}
	msg := fmt.Sprintf("the surface's cost grew by %s tokens (%s) to %s per session (%s), more than the allowed increase of %s",
		formatTokens(d), c.SignedPercent(), formatTokens(c.After), enc, limit)
	before, _ := manifest.CanonicalizeValue(map[string]any{"total": c.Before})
	after := map[string]any{"total": c.After, "encoding": string(enc)}
	if b.IncreaseTokens > 0 {
		after["maxIncreaseTokens"] = b.IncreaseTokens
	}
	if b.IncreasePercent > 0 {
		after["maxIncreasePercent"] = b.IncreasePercent
	}
	a, _ := manifest.CanonicalizeValue(after)
	f := finding.New(rules.ContextCostIncreaseExceeded, serverSubject, "", msg, before, a)
	if b.Level != "" {
		f.Level = b.Level
	}
	return []finding.Finding{f}
}

func (b Budget) finding(rule string, subj finding.Subject, msg string, after []byte) finding.Finding {
	f := finding.New(rule, subj, "", msg, nil, after)
	if b.Level != "" {
		f.Level = b.Level
	}
	return f
}

func limitValue(k1 string, v1 int, k2 string, v2 int, enc Encoding) []byte {
	v, _ := manifest.CanonicalizeValue(map[string]any{k1: v1, k2: v2, "encoding": string(enc)})
	return v
}
