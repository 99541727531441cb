// Package rulesdoc writes docs/rules.md, the page every rule link points
// at: the PR comment's and SARIF's helpUri are report.RulesDocURL + "#" +
// the rule's ID, so each rule has a heading whose GitHub anchor is its ID.
//
// Everything on the page comes from data that tests keep true: the rule
// table (pkg/rules, the same text `mcp-surface explain` prints) and, for
// change rules, the fixture the rule's row chooses as its example
// (rules.Rule.ExampleFixture, under pkg/diff/testdata or
// pkg/diff/schemadiff/testdata), whose expected findings the fixture tests
// check. A new fixture changes no other rule's example. A test fails when the committed page differs
// from what Generate writes; regenerate it with go generate.
package rulesdoc

//go:generate go run ./gen ../../..
