package cost_test

import (
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func snapshot(tools string) *manifest.Manifest {
	m, err := manifest.FromCanonicalJSON([]byte(`{"snapshotVersion":1,"protocolVersion":"2025-11-25","handshake":"initialize",
		"serverInfo":{"name":"notes","version":"1.0.0"},"capabilities":{"tools":{}},
		"instructions":"Use these tools to keep the user's notes.","tools":` + tools + `}`))
	if err != nil {
		panic(err)
	}
	return m
}

// Count a surface, compare it with the next version, and hold it to a
// budget.
func Example() {
	base := snapshot(`[{"name":"get_note","description":"Read one note.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}]`)
	head := snapshot(`[{"name":"get_note","description":"Read one note.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},
		{"name":"search_notes","description":"Search every note by the words of its title and body; the best matches come first.","inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"Words to look for."}},"required":["query"]},"annotations":{"readOnlyHint":true}}]`)

	text, _ := cost.ToolText(head.Tools[0])
	fmt.Println("counted:", text)

	counter, err := cost.NewCounter(cost.Options{}) // o200k_base
	if err != nil {
		panic(err)
	}
	b, _ := counter.Compute(base)
	h, _ := counter.Compute(head)
	for _, t := range h.Tools {
		fmt.Printf("%-12s %3d tokens %5.1f%%\n", t.Name, t.Tokens, 100*t.Share)
	}
	fmt.Printf("%-12s %3d tokens %5.1f%%\n", "instructions", h.Instructions, 100*h.InstructionsShare)

	ch := cost.Compare(b, h)
	fmt.Printf("total %d -> %d (%+d, %s); largest mover %s %+d\n", ch.Before, ch.After, ch.Delta(), ch.SignedPercent(), ch.Movers[0].Name, ch.Movers[0].Delta())

	budget := cost.Budget{PerTool: 40, IncreasePercent: 50}
	for _, f := range append(budget.Check(h), budget.CheckIncrease(b, h)...) {
		fmt.Println(f.Level, f.Rule+":", f.Message)
	}
	// Output:
	// counted: {"name":"get_note","description":"Read one note.","inputSchema":{"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"}}
	// search_notes  54 tokens  56.2%
	// get_note      33 tokens  34.4%
	// instructions   9 tokens   9.4%
	// total 42 -> 96 (+54, +129%); largest mover search_notes +54
	// warning tool-context-budget-exceeded: tool "search_notes" costs 54 tokens (o200k_base), over the per-tool budget of 40 by 14
	// warning context-cost-increase-exceeded: the surface's cost grew by 54 tokens (+129%) to 96 per session (o200k_base), more than the allowed increase of 50%
}
