package config

import (
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/diff"
)

// DiffOptions maps the configuration onto the diff engine's options, with
// the policy bound to now. A nil Config gives the defaults.
func (c *Config) DiffOptions(now time.Time) diff.Options {
	// The context cost is compared by default (context-cost-changed is a
	// note; turn it off under severity: like any rule); cost: chooses the
	// encoding and the budgets.
	o := diff.Options{Now: now, Cost: &diff.CostOptions{}}
	if c == nil {
		return o
	}
	o.Policy = c.Policy(now)
	o.Lifecycle = diff.Lifecycle{
		DeprecatedMetaKey:  c.Lifecycle.DeprecatedMetaKey,
		SunsetMetaKey:      c.Lifecycle.SunsetMetaKey,
		DescriptionMarkers: c.Lifecycle.DescriptionMarkers,
	}
	o.ReservedMetaPrefixes = c.ReservedMetaPrefixes
	o.Clients = c.Clients
	o.RenameThreshold = c.Rename.Threshold
	if c.Rename.Disabled {
		o.RenameThreshold = -1
	}
	o.Text = c.Text
	o.Cost = &diff.CostOptions{Encoding: c.Cost.Encoding, Budget: c.Cost.Budget}
	return o
}
