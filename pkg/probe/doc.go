// Package probe judges the declared probes of a capture: the calls
// (tools/call, prompts/get, resources/read, completion/complete) that
// pkg/capture makes after the lists over the same recorded session, when
// and only when .mcp-surface.yaml or the command line declares them.
//
// pkg/spec validates what a probe's answer is (the result against the
// negotiated revision's schema, structuredContent against the tool's
// outputSchema, content blocks, resource MIME types, which channel an
// error came back on). This package judges what the user declared about
// it, in three parts:
//
//   - Expectations. Each probe expects ok (the default: a result, for
//     tools/call one without isError: true), is-error (a tool result with
//     isError: true) or rpc-error (a JSON-RPC error). Another outcome is a
//     probe-expectation-failed finding.
//
//   - Coverage. Which listed tools, prompts, resources and resource
//     templates a probe exercised (the server answered, whatever the
//     outcome), and which not: Coverage, its Notes for the report, and a
//     probe-coverage-incomplete finding per item that a require-probes
//     entry asks for and no probe exercised.
//
//   - Pinned shapes. A probe with pin: shape has the JSON shape of its
//     result (Shape: the types of the fields and which are present, of the
//     structuredContent of a tool result when there is one, else of the
//     whole result) compared with the shape pinned in a file next to the
//     snapshot (PinsPath: mcp-surface.probes.json beside mcp-surface.json),
//     through schemadiff in the output direction: a dropped field or a
//     changed type is reported with the output-* rules, subject the probed
//     item, pointer /probe/<id> followed by the place in the shape. The
//     file is canonical JSON written by `mcp-surface probe --update`. A
//     shape never holds a value of the result, only types and key names,
//     and is bounded (MaxShapeDepth, MaxShapeProperties, MaxShapeItems).
//
// Probe arguments may name environment variables as ${VAR}; Expand
// substitutes them (from a lookup function the CLI passes: nothing here
// reads the environment). Findings and notes name a probe by its id, its
// method and target, and the names of its arguments, never their values;
// server text quoted in a message (an error message, the text of an
// isError result) has every string argument value of the probe of three
// bytes or more, and every value Expand substituted (Options.Secrets), cut
// out first, since servers echo them.
//
// Probe results are never part of a snapshot's fingerprints
// (manifest.Build reads only the lists).
package probe
