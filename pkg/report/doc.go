// Package report holds what one run found (a Report: one Section per
// server, with its spec, lint and change findings, the compared snapshots,
// locations and notes) and renders it in every human and machine format
// but SARIF (pkg/sarif's Render, which a program adds to its table of
// formats, report.Renderers):
//
//   - text: the terminal view, grouped by subject, worst first; colour only
//     when the caller asks; info hidden unless asked.
//   - json: the contract of DESIGN.md ("findings" and "summary", plus
//     "servers", "tool" and "reportVersion"), described by
//     schema/report.schema.json; DecodeJSON reads it back for a publishing
//     job.
//   - markdown: the PR comment and job summary, from the embedded
//     markdown.tmpl; a hidden marker on the first line (Marker) finds our
//     sticky comment; it stays under GitHub's comment limit by leaving out
//     details, then rows, and says so.
//   - github: workflow commands (annotations), worst first, at most ten of
//     each kind, as GitHub shows no more.
//   - junit: one test case per subject, one failure per finding at or
//     above --fail-on.
//
// ReviewComments renders the findings of each source line that defines a
// subject as the text of one pull request review comment (from the
// embedded review.md.tmpl); RefreshReviewComments renders them again for
// comments received from elsewhere, so that only this package's text is
// ever posted. Where they go is the publisher's business.
//
// RenderCost writes a context cost table (pkg/cost) as text, json or
// markdown, for `mcp-surface cost`; CostLine is the one line a PR comment
// gives it.
//
// Everything a server's author wrote (names, descriptions, schema text)
// is untrusted. It reaches readers only through escape.go, one module for
// every renderer: hidden characters become visible, text is bounded, and
// in markdown nothing can mention, reference, link, render HTML or images,
// forge a comment's hidden marker (no HTML comment opener or closer is left
// anywhere, code blocks included: a publisher reads the raw body), or break
// out of a table or a code block.
//
// Renderers are deterministic: the same Report and Options give the same
// bytes; nothing reads the clock or the environment.
package report
