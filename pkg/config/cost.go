package config

// The context cost: cost:, its encoding and its budgets.

import (
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Cost configures the context cost (cost:).
type Cost struct {
	// Set is true when the file has a cost: key. Comparisons report the
	// change of the context cost (context-cost-changed) either way.
	Set bool
	// Encoding counts tokens: one of Encodings; "" is pkg/cost's default.
	Encoding string
	// Budget holds the limits of cost.budget; the zero Budget sets none.
	Budget Budget
}

// Budget is cost.budget: the fields of cost.Budget, in the same order
// (pkg/check converts one into the other).
type Budget struct {
	// Total is the most tokens the whole surface may cost.
	Total int
	// PerTool is the most tokens any one tool may cost.
	PerTool int
	// IncreaseTokens and IncreasePercent bound the growth of the total
	// from base to head.
	IncreaseTokens  int
	IncreasePercent float64
	// Level is the level of the findings; "" keeps each rule's default.
	Level rules.Level
}

// Encodings are the token encodings cost.encoding names, the default
// first: pkg/cost's (pkg/check's tests hold them equal).
var Encodings = []string{"o200k_base", "cl100k_base"}

func (p *parser) cost(n *yaml.Node) Cost {
	c := Cost{Set: true}
	p.mapping(n, "cost", p.costKeys(&c))
	return c
}

func (p *parser) costKeys(c *Cost) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"encoding": func(v *yaml.Node) {
			s, ok := p.str(v, "cost.encoding")
			if !ok {
				return
			}
			if !slices.Contains(Encodings, s) {
				p.errf(v, "unknown cost.encoding %q: use o200k_base (the default) or cl100k_base%s", s, didYouMean(s, Encodings))
				return
			}
			c.Encoding = s
		},
		"budget": func(v *yaml.Node) { p.mapping(v, "cost.budget", p.budgetKeys(&c.Budget)) },
	}
}

// percentage is how cost.budget.increase writes a percentage (the
// schema's pattern is the same).
var percentage = lazyre.New(`^([1-9][0-9]*(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)%$`)

// budgetLevels are the levels cost.budget.level accepts.
var budgetLevels = []string{"error", "warning", "note", "info", "breaking", "risky"}

func (p *parser) budgetKeys(b *Budget) map[string]func(*yaml.Node) {
	tokens := func(dst *int, what string) func(*yaml.Node) {
		return setIf(p, dst, what, (*parser).integer, func(i int) bool { return i >= 1 }, "must be a positive number of tokens")
	}
	return map[string]func(*yaml.Node){
		"total":   tokens(&b.Total, "cost.budget.total"),
		"perTool": tokens(&b.PerTool, "cost.budget.perTool"),
		"increase": func(v *yaml.Node) {
			s, ok := p.scalar(v, "cost.budget.increase")
			if !ok {
				return
			}
			if v.Tag == "!!str" {
				f, err := strconv.ParseFloat(s[:max(0, len(s)-1)], 64)
				if !percentage().MatchString(s) || err != nil || f <= 0 {
					p.errf(v, "cost.budget.increase: %q is not a positive percentage", s)
					return
				}
				b.IncreasePercent = f
				return
			}
			if v.Tag != "!!int" {
				p.errf(v, "cost.budget.increase must be a number of tokens (500) or a percentage (10%%), not %q", s)
				return
			}
			tokens(&b.IncreaseTokens, "cost.budget.increase")(v)
		},
		"level": func(v *yaml.Node) {
			s, ok := p.scalar(v, "cost.budget.level")
			if !ok {
				return
			}
			l, err := rules.ParseLevel(s)
			if err != nil || l == "" {
				p.errf(v, "unknown cost.budget.level %q: use error, warning, note or info (a rule is turned off under severity:)%s", s, didYouMean(s, budgetLevels))
				return
			}
			b.Level = l
		},
	}
}
