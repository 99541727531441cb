package config

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Override is one severity override.
type Override struct {
	// Off drops the rule's findings (written `off` or `none`).
	Off bool
	// Severity is the new severity when not Off. For spec and lint rules,
	// which have a level and no severity, its level is used.
	Severity rules.Severity
	Line     int
}

// severity parses `severity: {rule-id: breaking|risky|minor|patch|info|off}`.
func (p *parser) severity(n *yaml.Node) map[string]Override {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "severity must be a mapping of rule IDs to severities")
		return nil
	}
	out := map[string]Override{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := out[k.Value]; dup {
			p.errf(k, "rule %q repeated", k.Value)
			continue
		}
		if _, ok := rules.Lookup(k.Value); !ok {
			p.errf(k, "unknown rule %q%s", k.Value, suggestRule(k.Value))
			continue
		}
		s, ok := p.scalar(v, "severity of "+k.Value)
		if !ok {
			continue
		}
		o, err := parseOverride(s)
		if err != nil {
			p.errf(v, "%s: %v", k.Value, err)
			continue
		}
		o.Line = k.Line
		out[k.Value] = o
	}
	return out
}

var severityNames = []string{"breaking", "risky", "minor", "patch", "info", "off", "none", "error", "warning", "note"}

func parseOverride(s string) (Override, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none", "false":
		return Override{Off: true}, nil
	case "breaking", "error":
		return Override{Severity: rules.SeverityBreaking}, nil
	case "risky", "warning":
		return Override{Severity: rules.SeverityRisky}, nil
	case "minor", "note":
		return Override{Severity: rules.SeverityMinor}, nil
	case "patch":
		return Override{Severity: rules.SeverityPatch}, nil
	case "info":
		return Override{Severity: rules.SeverityInfo}, nil
	}
	return Override{}, fmt.Errorf("unknown severity %q: use breaking, risky, minor, patch, info or off (error, warning and note are accepted)%s", s, didYouMean(s, severityNames))
}
