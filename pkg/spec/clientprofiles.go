package spec

import (
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// clientProfiles reports what the configured client profiles would
// reject, over the tools as listed (repeats included: a client receives
// them all).
func (k *checker) clientProfiles() {
	if len(k.clients) == 0 {
		return
	}
	var tools []clients.Tool
	for _, it := range k.items {
		if it.sec.kind != finding.KindTool || it.obj() == nil {
			continue
		}
		tools = append(tools, clients.Tool{Name: it.subj.Name, Value: it.obj()})
	}
	for _, f := range clients.Check(k.serverName, tools, k.clients) {
		f.Revision = k.rev.Name
		k.out = append(k.out, f)
	}
}
