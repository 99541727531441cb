// Package clients holds the client profiles: what a model provider or an
// MCP client refuses although the MCP specification allows it, and the
// checker that reports each tool a profile would reject.
//
// A profile is data, one embedded YAML file per profile (profiles/*.yaml):
// the provider or client, and each constraint with the reason in the
// provider's words, the URL of the documentation it comes from and the
// date it was last checked against that page. A constraint that no
// provider documentation states is not shipped. The kinds of constraint
// are few and each maps onto one rule of pkg/rules (compat.go):
//
//	tool-name              the (possibly prefixed) tool name must match a pattern
//	tool-count             at most so many tools per request
//	schema-keywords        inputSchema may use only the listed keywords
//	schema-single-type     "type" is one type, not a list
//	schema-closed-objects  every object sets additionalProperties: false
//	schema-all-required    every property is listed in required
//
// Clients that put the server's name before each tool name (Claude Code's
// mcp__<server>__<tool>) take the server as a parameter of the profile's
// name: "claude-code:github". Without it the server's own serverInfo.name
// is used.
//
// Violations are per profile (pkg/diff compares them between two
// snapshots); Findings merges the profiles that reject the same keyword
// of the same tool into one finding, so its fingerprint stays that of the
// place, whichever profiles are configured. Nothing here reads the
// environment or the clock: the checked dates are data.
package clients
