// Package report holds what one run found (a Report: one Section per
// server, with its spec, lint and change findings, the compared snapshots,
// locations and notes) and renders it in every human and machine format
// but SARIF (pkg/sarif's Render, which a program adds to its table of
// formats, report.Renderers):
//
//   - text: the terminal view: per server what was compared, the verdict,
//     the summary and one line of counts per kind first; then the
//     findings, tools first, one change made identically on several
//     subjects as one entry naming them, and a rule that hit many subjects
//     of a kind as one entry (Options.Verbose lists each, with every
//     value); colour only when the caller asks; info hidden unless asked.
//   - json: a public contract ("findings" and "summary", plus
//     "servers", "tool" and "reportVersion"), described by
//     schema/report.schema.json; DecodeJSON reads it back for a publishing
//     job.
//   - markdown: the PR comment, from the embedded markdown.tmpl: the
//     verdict in words (the subjects that break, counted; a stale
//     committed snapshot on its own, never as a spec or lint finding),
//     counts per kind, a caution when the version was not bumped, a table
//     of what breaks (tools first; one change shared by several subjects
//     is one row naming up to 50 of them, runs of one rule collapsed,
//     resources shortened by their common prefix; "what breaks" and "fix"
//     from the rule table), folded warnings, notes and details, then what
//     turns the check green, fitted to the pull request (acknowledgement
//     lines only for what fails, the refresh command only when the
//     committed snapshot needs it), and a footer with the commits, the run
//     and the full report. Grouping is presentation only: the Report holds
//     one finding per subject and change (marker.go, mdview.go, budget.go,
//     verdict.go, ackyaml.go and rows.go are the comment's parts). A hidden
//     marker on the first line (Marker) finds our sticky comment. It stays
//     under GitHub's comment limit by cutting details first, least severe
//     first, and rows of the breaking table last, resources before tools,
//     and says so. With Options.Full it is the job summary: every finding,
//     every subject of a row named, details folded as in the comment,
//     within GitHub's 1 MiB. RenderUnchanged is the one
//     line a comment becomes when the change was reverted.
//   - github: workflow commands (annotations), worst first and tools
//     first, at most ten of each kind, as GitHub shows no more; never on
//     line 1 of a file that says nothing about the finding.
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
// markdown, for `mcp-surface cost`; costLine is the one line a PR comment
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
