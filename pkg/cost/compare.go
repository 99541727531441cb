package cost

import (
	"cmp"
	"slices"
	"strings"
)

// Mover kinds.
const (
	MoverTool         = "tool"
	MoverInstructions = "instructions"
)

// Mover is one part of the surface whose cost changed.
type Mover struct {
	// Kind is MoverTool or MoverInstructions.
	Kind string `json:"kind"`
	// Name is the tool's name ("" for the instructions).
	Name string `json:"name"`
	// Before and After are its tokens; 0 where it does not exist.
	Before int `json:"before"`
	After  int `json:"after"`
}

// Delta is After - Before.
func (m Mover) Delta() int { return m.After - m.Before }

// Change is the difference between two tables.
type Change struct {
	Before, After int // totals
	// Movers are the parts whose cost changed, the largest change first
	// (by absolute tokens), ties by kind and name.
	Movers []Mover
}

// Delta is After - Before.
func (c Change) Delta() int { return c.After - c.Before }

// Percent is the change relative to Before, in percent; 0 when Before is
// 0 (a change from nothing has no meaningful ratio).
func (c Change) Percent() float64 {
	if c.Before == 0 {
		return 0
	}
	return 100 * float64(c.Delta()) / float64(c.Before)
}

// Compare returns the change from base to head. nil tables count as
// empty. The tables should be counted in the same encoding.
func Compare(base, head *Table) Change {
	var c Change
	bt := map[string]int{}
	if base != nil {
		c.Before = base.Total
		for _, t := range base.Tools {
			bt[t.Name] = t.Tokens
		}
		if base.Instructions != 0 {
			c.Movers = append(c.Movers, Mover{Kind: MoverInstructions, Before: base.Instructions})
		}
	}
	if head != nil {
		c.After = head.Total
		if head.Instructions != 0 {
			if len(c.Movers) == 1 {
				c.Movers[0].After = head.Instructions
			} else {
				c.Movers = append(c.Movers, Mover{Kind: MoverInstructions, After: head.Instructions})
			}
		}
		for _, t := range head.Tools {
			b, ok := bt[t.Name]
			delete(bt, t.Name)
			if !ok || b != t.Tokens {
				c.Movers = append(c.Movers, Mover{Kind: MoverTool, Name: t.Name, Before: b, After: t.Tokens})
			}
		}
	}
	for name, b := range bt { // removed tools; the sort below orders them
		c.Movers = append(c.Movers, Mover{Kind: MoverTool, Name: name, Before: b})
	}
	c.Movers = slices.DeleteFunc(c.Movers, func(m Mover) bool { return m.Delta() == 0 })
	slices.SortFunc(c.Movers, func(a, b Mover) int {
		return cmp.Or(cmp.Compare(abs(b.Delta()), abs(a.Delta())),
			cmp.Compare(b.Delta(), a.Delta()),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
	})
	return c
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
