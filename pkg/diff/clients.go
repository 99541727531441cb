package diff

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// clientCompat reports each tool of both sides that a configured client
// profile accepted in base and rejects in head. A new tool, and one that
// was rejected already, are the lint's (the client-* rules): the change is
// the loss of a client that worked.
func (d *differ) clientCompat() {
	if len(d.opts.Clients) == 0 {
		return
	}
	baseServer, baseTools, err := clients.ToolsOf(d.base)
	if err != nil {
		return // an undecodable tool is reported by the tool comparison
	}
	headServer, headTools, err := clients.ToolsOf(d.head)
	if err != nil {
		return
	}
	type key struct{ tool, profile string }
	inBase := map[string]bool{}
	for _, t := range baseTools {
		inBase[t.Name] = true
	}
	rejected := map[key]bool{}
	for _, v := range clients.Violations(baseServer, baseTools, d.opts.Clients) {
		if v.Tool != "" {
			rejected[key{v.Tool, v.Profile.Label()}] = true
		}
	}
	reported := map[key]bool{}
	for _, v := range clients.Violations(headServer, headTools, d.opts.Clients) {
		k := key{v.Tool, v.Profile.Label()}
		if v.Tool == "" || !inBase[v.Tool] || rejected[k] || reported[k] {
			continue
		}
		// One finding per tool and profile, at the first place it fails;
		// the lint lists every place. The profile is the value that
		// changed: it accepted the tool and now does not.
		reported[k] = true
		after, _ := json.Marshal(k.profile)
		d.out = append(d.out, finding.New(rules.ToolBecameClientIncompatible,
			finding.Subject{Kind: finding.KindTool, Name: v.Tool}, v.Pointer,
			fmt.Sprintf("tool %q is now rejected by %s: %s", v.Tool, v.Describe(), v.Detail),
			nil, after))
	}
}
