package check

import (
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// WithProbes is s with more required methods (before its own), more
// probes (after its own) and the secrets substituted into them. A probe
// whose ID s already declares is an error.
func (s Server) WithProbes(require []string, probes []capture.Probe, secrets []string) (Server, error) {
	s.Require = append(slices.Clone(require), s.Require...)
	s.Secrets = append(s.Secrets, secrets...)
	for _, p := range probes {
		if slices.ContainsFunc(s.Probes, func(q capture.Probe) bool { return q.ID == p.ID }) {
			return s, fmt.Errorf("probe id %q is declared twice", p.ID)
		}
		s.Probes = append(s.Probes, p)
	}
	return s, nil
}
