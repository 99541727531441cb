package config

import "github.com/mcp-surface/mcp-surface/pkg/spec"

// LintOptions maps the configuration onto the lint's options: the text
// patterns under text: reach the lint of validate and check exactly as they
// reach the diff (DiffOptions). A nil Config gives the defaults.
func (c *Config) LintOptions() spec.LintOptions {
	if c == nil {
		return spec.LintOptions{}
	}
	return spec.LintOptions{
		InjectionPatterns: c.Text.InjectionPatterns,
		SensitivePatterns: c.Text.SensitivePatterns,
		NoDefaultPatterns: c.Text.NoDefaultPatterns,
		Clients:           c.Clients,
	}
}
