package check

import (
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/policy"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// The configuration (pkg/config) parses into its own plain types; this
// file maps them onto each stage's options, kubeconform-style, so that
// the configuration depends on no stage.

// configClients resolves the configuration's clients: into profiles. An
// unknown profile is an error at its line (config.Errors). A nil Config
// has none.
func configClients(c *config.Config) ([]clients.Profile, error) {
	if c == nil {
		return nil, nil
	}
	var out []clients.Profile
	for _, r := range c.Clients {
		p, err := clients.Parse(r.Profile)
		if err != nil {
			return nil, c.Err(r.Line, err.Error())
		}
		out = append(out, p)
	}
	return out, nil
}

// CheckConfig reports what the stages find wrong in a configuration that
// parsed: the values whose vocabulary is a stage's data (the client
// profiles), each at its line. Load a file with it (or call it before
// Run) so that a mistake fails at once.
func CheckConfig(c *config.Config) error {
	_, err := configClients(c)
	return err
}

// CostOptions are the counting options of the configuration (a nil
// Config counts with the defaults).
func CostOptions(c *config.Config) cost.Options {
	if c == nil {
		return cost.Options{}
	}
	return cost.Options{Encoding: cost.Encoding(c.Cost.Encoding)}
}

// CostBudget is the configuration's cost.budget (none for a nil Config).
func CostBudget(c *config.Config) cost.Budget {
	if c == nil {
		return cost.Budget{}
	}
	return cost.Budget(c.Cost.Budget)
}

// captureProbes are a server's probes as the capture takes them.
func captureProbes(ps []config.Probe) []capture.Probe {
	var out []capture.Probe
	for _, p := range ps {
		out = append(out, capture.Probe(p))
	}
	return out
}

// policy is the configuration bound to Options.Now.
func (o *Options) policy() *policy.Policy { return policy.New(o.Config, o.Now) }

// configProfiles are the configuration's client profiles; one that does
// not resolve (a Config that did not go through CheckConfig) is logged
// and left out.
func (o *Options) configProfiles() []clients.Profile {
	ps, err := configClients(o.Config)
	if err != nil && o.Log != nil {
		o.Log("client profiles of the configuration not checked: %v", err)
	}
	return ps
}

// profiles are the client profiles of the configuration and of
// Options.Clients, each once.
func (o *Options) profiles() []clients.Profile {
	fromConfig := o.configProfiles()
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

// lintOptions map the configuration onto the lint's options: the text
// patterns under text: reach the lint of validate and check exactly as
// they reach the diff, with the client profiles of the configuration and
// of Options.Clients.
func (o *Options) lintOptions() spec.LintOptions {
	lo := spec.LintOptions{Clients: o.profiles()}
	if c := o.Config; c != nil {
		lo.InjectionPatterns = c.Text.InjectionPatterns
		lo.SensitivePatterns = c.Text.SensitivePatterns
		lo.NoDefaultPatterns = c.Text.NoDefaultPatterns
	}
	return lo
}

// diffOptions map the configuration onto the diff engine's options, with
// the policy bound to Options.Now and the client profiles of the
// configuration and of Options.Clients.
func (o *Options) diffOptions() diff.Options {
	// The context cost is compared by default (context-cost-changed is a
	// note; turn it off under severity: like any rule); cost: chooses the
	// encoding and the budgets.
	do := diff.Options{Now: o.Now, Cost: &diff.CostOptions{}, Clients: o.profiles()}
	c := o.Config
	if c == nil {
		return do
	}
	do.Policy = o.policy()
	do.Lifecycle = diff.Lifecycle{
		DeprecatedMetaKey:  c.Lifecycle.DeprecatedMetaKey,
		SunsetMetaKey:      c.Lifecycle.SunsetMetaKey,
		DescriptionMarkers: c.Lifecycle.DescriptionMarkers,
	}
	do.ReservedMetaPrefixes = c.ReservedMetaPrefixes
	do.RenameThreshold = c.Rename.Threshold
	if c.Rename.Disabled {
		do.RenameThreshold = -1
	}
	do.Text = diff.TextOptions(c.Text)
	do.Cost = &diff.CostOptions{Encoding: cost.Encoding(c.Cost.Encoding), Budget: cost.Budget(c.Cost.Budget)}
	return do
}
