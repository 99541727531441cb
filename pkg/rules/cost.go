package rules

// Context cost (pkg/cost): what the surface costs the model in tokens on
// every session. Not in the rule catalog's sections, which compare items;
// the cost is a property of the whole surface, so its change is a server
// finding (direction meta, like the instructions it partly counts), and
// the budgets are policy a team sets, with a level rather than a severity.

const costHelp = `

**What is counted.** Per tool, the compact JSON ‵{"name","description","inputSchema"}‵ that
clients send to model APIs, plus the server's ‵instructions‵, in the encoding named by
‵cost.encoding‵ in ‵.mcp-surface.yaml‵ (‵o200k_base‵ by default, or ‵cl100k_base‵). Client
wrappers add their own overhead (the provider's envelope, prefixed tool names), so the count
is the server's share of each session's context. ‵mcp-surface cost‵ prints the table per tool.`

const (
	ContextCostChanged          = "context-cost-changed"
	ContextBudgetExceeded       = "context-budget-exceeded"
	ToolContextBudgetExceeded   = "tool-context-budget-exceeded"
	ContextCostIncreaseExceeded = "context-cost-increase-exceeded"
)

func costRules() []Rule {
	return []Rule{
		surfaceChange(ContextCostChanged, SeverityPatch, "meta", "llm,cost",
			"The tokens the surface puts into every session's context changed",
			`Every tool definition and the server's instructions are put into the model's context on
every session, whether a tool is used or not. A richer description or a larger schema makes
every conversation of every user pay for it: the context left for the work shrinks, and so
does the number of servers a host can load at once. Nothing breaks, so this is a note; it
makes the cost visible where it changes.

Reported when the comparison counts the cost: with a ‵cost:‵ key in ‵.mcp-surface.yaml‵
(‵cost: {}‵ is enough). A change that only moves tokens between tools, keeping the total,
is not reported. ‵before‵ and ‵after‵ hold the totals and the tokens of the largest movers (at most five
tools, or the instructions); the message gives the change in tokens and percent.

**What to do.** Nothing, if the change is worth it. Otherwise shorten what grew: long
descriptions repeat what a schema says, per-property descriptions restate their names, and
large enums or deeply nested schemas cost on every session. To hold the line, set a budget
(‵cost.budget‵).`+costHelp),
		{
			ID:      ContextBudgetExceeded,
			Kind:    KindLint,
			Level:   LevelWarning,
			Tags:    []string{"cost"},
			Summary: "The surface costs more tokens than its configured budget",
			Help: helpText(`The total of every tool definition and the instructions exceeds
‵cost.budget.total‵ in ‵.mcp-surface.yaml‵. The finding's level is ‵cost.budget.level‵
(warning by default), or this rule's ‵severity:‵ override.

**What to do.** Shorten the largest tools (‵mcp-surface cost‵ lists them, largest first),
split the server, or raise the budget in review.` + costHelp),
		},
		{
			ID:      ToolContextBudgetExceeded,
			Kind:    KindLint,
			Level:   LevelWarning,
			Tags:    []string{"cost"},
			Summary: "A tool's definition costs more tokens than the per-tool budget",
			Help: helpText(`One tool's counted definition exceeds ‵cost.budget.perTool‵ in
‵.mcp-surface.yaml‵; each such tool is reported. The finding's level is ‵cost.budget.level‵
(warning by default), or this rule's ‵severity:‵ override.

**What to do.** Shorten the tool's description and the descriptions inside its schema,
move rarely used options into a separate tool, or raise the budget in review.` + costHelp),
		},
		{
			ID:      ContextCostIncreaseExceeded,
			Kind:    KindLint,
			Level:   LevelWarning,
			Tags:    []string{"cost"},
			Summary: "A change raises the surface's token cost by more than the allowed increase",
			Help: helpText(`The total grew from base to head by more than ‵cost.budget.increase‵ in
‵.mcp-surface.yaml‵: a number of tokens (‵500‵) or a percentage of base's total (‵"10%"‵;
not judged when base costs nothing). Reported by the comparison of two snapshots, beside
‵context-cost-changed‵. The finding's level is ‵cost.budget.level‵ (warning by default), or
this rule's ‵severity:‵ override.

**What to do.** Check that the growth is worth what every session pays for it, then shorten
it or acknowledge the finding with a reason.` + costHelp),
		},
	}
}
