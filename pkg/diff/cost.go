package diff

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// CostOptions turn on the comparison of the context cost (pkg/cost).
type CostOptions struct {
	// Encoding to count in; "" is cost.DefaultEncoding, and so is a name
	// cost.ParseEncoding refuses (the configuration refuses it first).
	Encoding cost.Encoding
	// Budget's increase limits are judged on the change
	// (context-cost-increase-exceeded). Its total and per-tool limits are
	// the state of one surface, not a change, and are left to
	// Budget.Check, so that Diff(m, m) stays empty.
	Budget cost.Budget
}

// costMovers is how many of the largest movers a context-cost-changed
// finding names.
const costMovers = 5

// cost reports a change of the context cost's total, with its largest
// movers, and an increase beyond the budget. A change that moves tokens
// between tools but keeps the total is not reported: every session pays
// the same.
func (d *differ) cost() {
	o := d.opts.Cost
	if o == nil {
		return
	}
	enc, err := cost.ParseEncoding(string(o.Encoding))
	if err != nil {
		enc = cost.DefaultEncoding
	}
	counter, err := cost.NewCounter(cost.Options{Encoding: enc})
	if err != nil {
		return // the encodings are embedded: only a broken build fails here
	}
	base, err1 := counter.Compute(d.base)
	head, err2 := counter.Compute(d.head)
	if err1 != nil || err2 != nil {
		return // only a tool that is not an object, which no snapshot holds
	}
	c := cost.Compare(base, head)
	if c.Delta() == 0 {
		return
	}
	movers := c.Movers[:min(len(c.Movers), costMovers)]
	bv := map[string]any{"encoding": string(enc), "total": c.Before}
	hv := map[string]any{"encoding": string(enc), "total": c.After}
	bt, ht := map[string]any{}, map[string]any{}
	var names []string
	for _, m := range movers {
		label := "instructions"
		if m.Kind == cost.MoverTool {
			label = m.Name
			if m.Before > 0 {
				bt[m.Name] = m.Before
			}
			if m.After > 0 {
				ht[m.Name] = m.After
			}
		} else {
			bv["instructions"] = m.Before
			hv["instructions"] = m.After
		}
		note := ""
		switch {
		case m.Before == 0:
			note = " (new)"
		case m.After == 0:
			note = " (removed)"
		}
		names = append(names, fmt.Sprintf("%s %+d%s", label, m.Delta(), note))
	}
	if len(bt) > 0 {
		bv["tools"] = bt
	}
	if len(ht) > 0 {
		hv["tools"] = ht
	}
	before, _ := manifest.CanonicalizeValue(bv)
	after, _ := manifest.CanonicalizeValue(hv)
	msg := fmt.Sprintf("context cost changed from %d to %d tokens per session (%+d, %s, %s)",
		c.Before, c.After, c.Delta(), c.SignedPercent(), enc)
	if len(names) > 0 {
		msg += "; largest: " + strings.Join(names, ", ")
	}
	d.emit(rules.ContextCostChanged, serverSubject, "", msg, before, after)
	d.out = append(d.out, o.Budget.CheckIncrease(base, head)...)
}
