package check

import (
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// profiles are the client profiles of the configuration and of
// Options.Clients, each once.
func (o *Options) profiles(fromConfig []clients.Profile) []clients.Profile {
	if len(o.Clients) == 0 {
		return fromConfig
	}
	out := append([]clients.Profile(nil), fromConfig...)
	seen := map[string]bool{}
	for _, p := range out {
		seen[p.Label()] = true
	}
	for _, p := range o.Clients {
		if !seen[p.Label()] {
			seen[p.Label()] = true
			out = append(out, p)
		}
	}
	return out
}

// lintOptions are the configuration's lint options with the client
// profiles of Options.Clients added.
func (o *Options) lintOptions() spec.LintOptions {
	lo := o.Config.LintOptions()
	lo.Clients = o.profiles(lo.Clients)
	return lo
}

// diffOptions are the configuration's diff options at Options.Now with
// the client profiles of Options.Clients added.
func (o *Options) diffOptions() diff.Options {
	do := o.Config.DiffOptions(o.Now)
	do.Clients = o.profiles(do.Clients)
	return do
}
