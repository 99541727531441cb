// Package diff compares two snapshots (pkg/manifest) and reports every
// change as a finding of the rule table (pkg/rules): the server, protocol,
// capability, tool, prompt, resource, resource template and text rules
// itself, the input-* and output-* rules (inside a tool's inputSchema and
// outputSchema) through pkg/diff/schemadiff.
//
// Matching. Items are matched by identity: tools and prompts by name,
// resources by uri, resource templates by uriTemplate. Whatever is left
// over is paired where it looks like the same thing under a new identity:
// a tool whose name only changed case, or whose content is similar enough
// (tool-renamed), a prompt with the same arguments and description, a
// resource with the same name (resource-uri-changed), a template with the
// same name (compared as a modified template: variables, literals,
// operators). A pair is reported once, never less severe than the removal
// it replaces.
//
// Findings. Each finding carries the rule's severity, level and tags, the
// subject (kind and identity), JSON Pointers into base and head, the
// canonical before and after values and a fingerprint computed from those
// (finding.New), never from the message. Text changes (descriptions,
// titles, instructions) carry a compact word or line diff in
// Result.TextDiffs, keyed by fingerprint. The text detectors (text-*) run on
// the text a model-visible field gains, including every text of a new item,
// and add to the plain change finding. Hidden characters and the injection
// and sensitive patterns are internal/base/textscan's, the ones the lint
// (pkg/spec) uses; a schema the text walk cannot read whole is reported
// where it stopped (text-injection-marker-added), never passed as clean.
//
// Proof. A schema change is judged by an instance, not by keywords alone
// (pkg/diff/witness): for each input-* or output-* change the rules call
// breaking or risky, a bounded search looks for a whole instance (the
// arguments object, the structuredContent) that one side's schema accepts
// and the other's rejects because of that change, checked by a validator
// against both raw schemas. A breaking change with such a witness carries
// it (Finding.Witness); after a search that tried every candidate without
// one it is a warning that says it is not proven, unless it is structural
// (Structural); a search that gave up at a bound keeps the error and says
// where it stopped (a bound is not evidence of safety); a risky change with one is
// raised to an error; a replaced pattern whose compatible direction the
// automata search proves is a note. A change to an annotation (default,
// format, ...) takes no witness: nothing is rejected for it.
//
// Failed lists. A side whose list of some kind failed (a partial
// snapshot) is not compared for that kind: surface-list-failed says so,
// and nothing of the kind is reported removed or added.
//
// What a snapshot cannot show is documented in the rule's help rather than
// guessed: the order of tools (snapshots are sorted), rendered prompts and
// resource contents (not captured yet), the protocol version the harness
// requested (only the negotiated one is recorded).
//
// Policy. Severity overrides, profiles and acknowledgements
// (.mcp-surface.yaml, pkg/config) are applied through Options.Policy
// before the versioning rules, which judge the adjusted severities.
//
// Determinism and cost. Diff reads no clock (Options.Now), environment or
// stream. Findings are sorted with finding.Sort and de-duplicated by
// fingerprint, so equal inputs give byte-equal output, and Diff(m, m) is
// empty. Unchanged items are skipped by comparing their canonical bytes,
// so the cost grows with the number of items and the size of what
// changed; rename detection compares pairs only up to a fixed budget.
package diff
