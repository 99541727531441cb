// Package config reads .mcp-surface.yaml into its own plain types: what a
// team decides about the findings (severities, a profile, acknowledged
// changes, lifecycle markers, text detectors, the cost budget) and the
// servers check, snapshot and probe run. docs/config.md is the file's
// reference for users; schema/config.schema.json describes the same file
// for editors.
//
// Parse reads one file and reports all of its errors at once, each naming
// the file and line (".mcp-surface.yaml:12: unknown key "severty" (did you
// mean "severity"?)"); a value that is refused is never half-applied. Each
// mapping's keys are one table here (fileKeys, ackKeys, serverKeys, ...),
// read by one set of scalar readers (scalar, str, integer, number,
// boolean, and set, setIf and oneOf over them), and a test holds the
// schema against those tables, the enumerations, the examples of README.md
// and docs/ and a set of mistakes both must refuse.
//
// Header values and string values in probe arguments are kept as written:
// ${VAR} in them is expanded by the CLI from its environment, never here.
//
// This package only parses: it imports no stage of the pipeline. pkg/check
// maps a Config onto each stage's options (and resolves the client
// profiles, which are pkg/spec/clients' data); pkg/policy applies
// severity:, profile: and acknowledged: to findings. Where a value's
// vocabulary is a stage's (probe methods, protocol revisions, token
// encodings), the list here is a copy that pkg/check's tests hold equal to
// the stage's. Nothing here reads the clock.
package config
