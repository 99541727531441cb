// Package rules owns the one table of every rule mcp-surface can report:
// spec violations, lint, and changes between two snapshots.
//
// Every producer (pkg/spec, pkg/diff), every renderer (pkg/report, pkg/sarif)
// and `mcp-surface explain` read this table, so a rule's ID, default level,
// tags and documentation are defined once. IDs are a public contract: they
// appear in ignore files, severity overrides, SARIF ruleIds and annotation
// titles, and are never renamed once shipped.
//
// The table is assembled from one slice per area (spec.go, lint.go,
// change_*.go) so that each area's rules live next to each other; All
// returns them merged and sorted.
package rules
