// Package rules owns the one table of every rule mcp-surface can report:
// spec violations, lint, and changes between two snapshots.
//
// Every producer (pkg/spec, pkg/diff), every renderer (pkg/report, pkg/sarif)
// and `mcp-surface explain` read this table, so a rule's ID, default level,
// tags and documentation are defined once. IDs are a public contract: they
// appear in ignore files, severity overrides, SARIF ruleIds and annotation
// titles, and are never renamed once shipped.
//
// The table is assembled from one explicit slice per area (spec.go,
// lint.go, change_*.go), listed in rules.go; nothing registers itself. Each
// rule's ID is a constant declared beside its spec (ToolRemoved for
// tool-removed: the kebab-case words, each capitalized), so a grep for an
// ID finds its definition and a grep for the constant finds every producer.
// All returns the rules merged and sorted. remedy.go lists, for every rule
// that is an error by default, the one-line Breaks and Fix texts of the PR
// comment's table of what breaks; merge copies them onto the rules.
//
// Tests keep the table and the code in step: every rule has its constant
// and a producer that names it (or a written reason why none can), no
// producer spells an ID as a literal or builds one from pieces, and every
// input-* rule has its output-* counterpart unless a written waiver says
// why the other direction has none.
package rules
