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
//	acceptLabel: "mcp-surface: accept-breaking"   # the action's accept label
//	text:                      # model-visible text detectors (rules text-*)
//	  injectionPatterns: ['(?i)\bexfiltrate\b']   # added to the built-in ones
//	  sensitivePatterns: []
//	  defaultPatterns: true
//	  lengthSpikeRatio: 2
//	  lengthSpikeMinChars: 200
//	  encodedMinLength: 40
//	cost:                      # context cost (rules context-*); turns on context-cost-changed
//	  encoding: o200k_base     # or cl100k_base
//	  budget:                  # each limit exceeded is a finding
//	    total: 20000           # tokens of the whole surface
//	    perTool: 1500          # tokens of any one tool
//	    increase: 10%          # per change: a percentage of base, or tokens (500)
//	    level: warning         # error | warning (default) | note | info
//	servers:                   # what check, snapshot and probe run
//	  - name: files
//	    command: [node, dist/server.js]   # or one string (split on spaces)
//	    cwd: ../server         # command only; relative to this file's directory
//	    shell: false           # command only; true runs it with /bin/sh -c, a
//	                           # one-string command kept whole
//	    env: {LOG_LEVEL: debug}
//	    protocolVersion: 2025-11-25        # revision to request (default: latest)
//	    snapshot: snapshots/files.json     # pinned probe shapes: snapshots/files.probes.json
//	    require-probes: [tools/call]       # or all-advertised; see below
//	    probes:                # declared calls after the lists (capture.Probe)
//	      - id: summary                    # names it in reports (default "METHOD NAME")
//	        method: prompts/get            # tools/call, resources/read, completion/complete
//	        name: summarize
//	        arguments: {doc: README.md, token: "${DOC_TOKEN}"}
//	        expect: ok                     # ok (default) | is-error | rpc-error
//	        pin: shape                     # compare the result's shape with the pinned one
//	      - method: resources/read
//	        allResources: true             # or uri: file:///…
//	        maxResources: 20
//	      - method: completion/complete
//	        ref: {type: ref/prompt, name: summarize}
//	        argumentName: doc
//	        argumentValue: READ
//	  - name: remote
//	    url: https://mcp.example.com/mcp
//	    sse: false             # url only; true for the legacy HTTP+SSE transport
//	    headers:               # url only; values may name ${VAR}s, never printed
//	      Authorization: "Bearer ${MCP_TOKEN}"
//
// Profiles act on the rules pkg/rules tags `strict`, whose default is a
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
// schema/config.schema.json describes the same file for editors (a first
// line "# yaml-language-server: $schema=" and the schema's raw URL). Each
// mapping's keys are one table here (fileKeys, ackKeys, serverKeys, ...),
// and a test holds the schema against those tables, the enumerations, the
// documented examples and a set of mistakes both must refuse.
//
// Errors name the file and line (".mcp-surface.yaml:12: unknown key
// "severty" (did you mean "severity"?)"); all of a file's errors are
// reported at once.
//
// Servers. Exactly one of command and url; headers and sse apply to a url,
// cwd and shell to a command, and are refused on the other kind. Header
// values and string values in probe arguments (arguments, argumentValue,
// context) are kept as written: ${VAR} in them is expanded by the CLI from
// its environment, never here, and they are never printed. env values are
// passed to the server as written.
//
// Probes are checked when parsed: a known method, the fields it needs
// (name for tools/call and prompts/get, exactly one of uri and
// allResources for resources/read, ref and argumentName for
// completion/complete), unique ids, expect one of ok, is-error (tools/call
// only: a result with isError: true) and rpc-error, pin only `shape`.
// require-probes lists probe methods, or all-advertised for each method
// whose capability the server advertises (tools/call for tools,
// prompts/get for prompts, resources/read for resources,
// completion/complete for completions); pkg/probe reports what no probe
// exercised. Probe results never reach a snapshot's fingerprints.
//
// Cost. The key cost: turns on the comparison of the context cost (the
// diff's context-cost-changed, and the increase budget). The total and
// per-tool budgets are the state of one surface, judged by
// cost.Budget.Check wherever a surface is reported; a severity: override
// of a budget rule wins over level.
//
// This package only parses, into its own plain types: it imports no stage
// of the pipeline. pkg/check maps a Config onto each stage's options (and
// resolves the client profiles, which are pkg/spec/clients' data);
// pkg/policy applies severity:, profile: and acknowledged: to findings.
// Where a value's vocabulary is a stage's (probe methods, protocol
// revisions, token encodings), the list here is a copy that pkg/check's
// tests hold equal to the stage's. Nothing here reads the clock.
package config
