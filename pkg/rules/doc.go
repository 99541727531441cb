// Package rules owns the one table of every rule mcp-surface can report:
// spec violations, lint, and changes between two snapshots.
//
// Every producer (pkg/spec, pkg/diff, ...), every renderer (pkg/report,
// pkg/sarif) and `mcp-surface explain` read this table, so a rule's ID,
// default level, tags and documentation are defined once. IDs are a public
// contract: they appear in ignore files, severity overrides, SARIF ruleIds
// and annotation titles, and are never renamed once shipped.
//
// The table is data: one markdown file per area under catalog/ (listed in
// areaFiles; nothing registers itself), embedded and parsed at first use.
// Each rule is a "## ID" section: its row, a list of "- key: value" lines
// (summary, kind, severity or level, direction, tags, action, producer,
// breaks, fix), then its help, which may include a paragraph several rules
// share (catalog/shared/NAME.md). So a grep for an ID finds the whole rule
// in one place, and a grep for its constant (ToolRemoved for tool-removed,
// generated into ids.go by go generate) finds every producer.
//
// Tests keep the table and the code in step: every rule's producers name
// its constant (or the row says why no producer can), no producer spells an
// ID as a literal or builds one from pieces, every error rule has what
// breaks, the fix and "What to do", and every input-* rule has its output-*
// counterpart unless a written waiver says why the other direction has none.
package rules

//go:generate go test -run ^TestIDsFile$ -update .
