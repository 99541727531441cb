package spec

import (
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// LintOptions configure the lint of ValidateWith and ValidateManifestWith.
// The zero value uses the built-in text patterns.
type LintOptions struct {
	// InjectionPatterns and SensitivePatterns are RE2 regular expressions
	// added to the built-in patterns (.mcp-surface.yaml
	// text.injectionPatterns and text.sensitivePatterns, the same ones the
	// diff uses). A match of either is reported as text-injection-marker:
	// a configured pattern is the user's word that the text has no place
	// in metadata. Invalid patterns are skipped here; pkg/config rejects
	// them with a line number.
	InjectionPatterns []string
	SensitivePatterns []string
	// NoDefaultPatterns drops the built-in injection and sensitive
	// patterns (text.defaultPatterns: false). Hidden characters and
	// terminal escapes are still reported.
	NoDefaultPatterns bool
	// Clients are the client profiles each tool is checked against
	// (validate --clients, clients: in .mcp-surface.yaml); none by default.
	Clients []clients.Profile
}

func (o LintOptions) scanner() *textscan.Scanner {
	return textscan.New(textscan.Patterns{Injection: o.InjectionPatterns, Sensitive: o.SensitivePatterns, NoDefaults: o.NoDefaultPatterns})
}
