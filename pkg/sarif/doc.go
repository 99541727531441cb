// Package sarif writes a report as SARIF 2.1.0 (through
// github.com/owenrumney/go-sarif/v2) that GitHub code scanning accepts.
//
// Decisions, each because GitHub rejects or mistracks otherwise:
//
//   - One run per server, automationDetails.id "mcp-surface/<server>/"
//     (GitHub's category), so each server's alerts are tracked apart.
//   - tool.driver.rules lists the rules that have results (Options.AllRules
//     lists the whole table), sorted by ID, added before any result so
//     every ruleIndex is right. Each has a short and full description, the
//     rule's markdown help, a helpUri under docs/rules.md, the default
//     level, tags (ours, the kind, "security" for sec rules; at most 10),
//     precision, and security-severity for sec rules (8.0 breaking or
//     error, 5.0 risky or warning, 3.0 otherwise). Properties are set with
//     WithProperties: go-sarif drops a rule's embedded property bag.
//   - Levels: error, warning and note map to themselves; info findings are
//     left out unless Options.IncludeInfo, and then are "note" results with
//     the property mcpSurface.level "info" (SARIF's "none" shows nothing
//     useful on GitHub).
//   - Every result has exactly one location, relative to %SRCROOT%: the
//     report's location for the finding (pkg/locate: the defining source
//     line, else the item's line in the snapshot), else line 1 of the
//     snapshot file, else line 1 of mcp-surface.json. GitHub rejects a whole
//     file when one result has none.
//   - partialFingerprints carry the finding's identity fingerprint under
//     "mcpSurface/v1", and as primaryLocationLineHash so that the upload
//     action does not derive one from the line's text: alerts follow the
//     finding, not the line.
//   - Acknowledged findings are results with an accepted external
//     suppression whose justification is the acknowledgement's reason
//     (Options.OmitAcknowledged leaves them out).
//   - Limits: at most 20 runs per file (further servers are named in a note
//     result: write one file per server), 25,000 results per run and a
//     compressed size well under 10 MB (the least severe results are left
//     out and a note result with rule mcp-surface-report-truncated says
//     so).
//   - Encode returns bytes; the caller writes them atomically
//     (report.WriteFile). go-sarif's WriteFile does not truncate a longer
//     existing file.
//
// Render is the "sarif" format as a report.Renderer: a program lists it in
// its table of formats (nothing registers itself on import).
package sarif
