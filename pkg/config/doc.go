// Package config reads .mcp-surface.yaml: what a team decides about the
// findings, kept next to the code and reviewed like it.
//
//	version: 1
//	profile: strict            # default | strict | lenient
//	severity:                  # per rule: breaking risky minor patch info off
//	  tool-description-changed: breaking
//	  resource-last-modified-changed: off
//	acknowledged:              # accepted changes; every given field must match
//	  - rule: tool-removed     # globs: * within a pointer segment, ** anything
//	    tool: legacy_*         # or prompt:, resource:, template:, server: true
//	    fingerprint: 0123456789abcdef
//	    reason: announced in 1.4, removed in 2.0   # required
//	    expires: 2026-01-31    # optional, valid through that day (UTC)
//	lifecycle:                 # deprecation markers (MCP has no standard field)
//	  deprecatedMetaKey: deprecated
//	  sunsetMetaKey: sunset
//	  descriptionMarkers: ["DEPRECATED", "@deprecated", "Deprecated:"]
//	reservedMetaPrefixes: ["ui/", "ui", "openai/"]
//	rename: {enabled: true, threshold: 0.8}
//	text:                      # model-visible text detectors (rules text-*)
//	  injectionPatterns: ['(?i)\bexfiltrate\b']   # added to the built-in ones
//	  sensitivePatterns: []
//	  defaultPatterns: true
//	  lengthSpikeRatio: 2
//	  lengthSpikeMinChars: 200
//	  encodedMinLength: 40
//	servers:                   # parsed for later commands (check, snapshot)
//	  - name: files
//	    command: [node, dist/server.js]   # or url: https://…
//	    env: {LOG_LEVEL: debug}
//	    snapshot: snapshots/files.json
//	    probes:                # declared calls after the lists (capture.Probe)
//	      - method: prompts/get            # tools/call, resources/read, completion/complete
//	        name: summarize
//	        arguments: {doc: README.md}
//
// Profiles act on the rules the catalog tags `strict`, whose default is a
// compromise between strict and lenient set semantics for open content
// models: `strict` raises them to breaking, `lenient` lowers them to minor.
// An explicit severity override wins over the profile. Spec and lint rules
// (which have a level, not a severity) take the level of the severity named.
//
// Acknowledged findings stay in every report, marked with the reason
// (finding.Acknowledged), and never fail a run. An expired acknowledgement
// acknowledges nothing and is itself reported as
// config-acknowledgement-expired (error), so exemptions cannot rot. The
// ignore-yaml output of `mcp-surface diff` prints current findings as
// entries with `reason: TODO`; that placeholder is refused until replaced.
//
// Errors name the file and line (".mcp-surface.yaml:12: unknown key
// "severty" (did you mean "severity"?)"); all of a file's errors are
// reported at once. Per-server `probes:` are parsed and checked (method,
// required fields, unique ids); snapshots do not record their results yet.
//
// Nothing here reads the clock: Policy and DiffOptions take the time.
package config
