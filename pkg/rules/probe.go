package rules

const (
	ContentBlockInvalid              = "content-block-invalid"
	ResourceContentsMimeTypeMismatch = "resource-contents-mime-type-mismatch"
	ToolCallFailureAsRpcError        = "tool-call-failure-as-rpc-error"
	ToolCallUnknownToolNotRpcError   = "tool-call-unknown-tool-not-rpc-error"
	ProbeExpectationFailed           = "probe-expectation-failed"
	ProbeCoverageIncomplete          = "probe-coverage-incomplete"
	ProbeShapeNotPinned              = "probe-shape-not-pinned"
)

// Rules about what probes obtained: the declared calls (tools/call,
// prompts/get, resources/read, completion/complete) made after the lists.
// The spec and lint rules on results are reported by pkg/spec; the rules
// on expectations, coverage and pinned shapes by pkg/probe. Pinned shapes
// are compared with the output-* rules (change_output.go).
func probeRules() []Rule {
	return []Rule{
		{
			ID: ContentBlockInvalid, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A content block or resource contents in a result lack a field their type needs",
			Help: helpText(`Probe results carry content: the ‵content‵ of a tool result, the ‵content‵ of each prompt
message, the ‵contents‵ of a resource read, and resources embedded in content. Each block
type needs its own fields: ‵image‵ and ‵audio‵ a ‵mimeType‵ (a real ‵type/subtype‵) and
base64 ‵data‵; ‵resource_link‵ a ‵uri‵; embedded and read resource contents a ‵uri‵ and
exactly one of ‵text‵ and base64 ‵blob‵.

The published schema requires some of these fields but cannot check the rest (an empty or
malformed MIME type, data that is not base64 — the schema's ‵byte‵ format is not asserted)
and older revisions do not define every block type. A missing field the schema already
reports is reported once, as ‵schema-violation‵. A client cannot render or follow such a
block: an image without a MIME type is dropped or shown as garbage.

Fix the block the message names; its pointer is relative to the probe's result.`),
		},
		{
			ID: ResourceContentsMimeTypeMismatch, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "Reading a resource returned contents without the MIME type the listing declared, or with another one",
			Help: helpText(`‵resources/list‵ declared a ‵mimeType‵ for the resource, but the contents that
‵resources/read‵ returned for the same URI have none, or a different type/subtype
(parameters and case are ignored). Clients choose how to handle contents from their MIME
type; one that trusted the listing mishandles what it reads, and one that reads the
contents sees no type at all.

Return the declared ‵mimeType‵ with the contents, or correct the listing.`),
		},
		{
			ID: ToolCallFailureAsRpcError, Kind: KindSpec, Level: LevelWarning,
			Tags:    []string{"spec", "wire", "llm"},
			Summary: "A listed tool reported its own failure as a JSON-RPC error instead of a result with isError",
			Help: helpText(`Every revision's ‵CallToolResult‵ says: errors that originate from the tool SHOULD be
reported inside the result, with ‵isError: true‵, not as a protocol-level error response,
otherwise the model cannot see that an error occurred and correct itself. Errors in
finding the tool, or a server that does not support tool calls, are protocol errors.

A probe called a tool the server lists and got a JSON-RPC error whose code is not one of
the protocol's own (‵-32700‵, ‵-32600‵, ‵-32601‵, ‵-32602‵ invalid params, ‵-32800‵, and
the revision-specific ‵-32020‵, ‵-32021‵, ‵-32022‵, ‵-32042‵): typically ‵-32603‵ Internal
error or an application code, which is a failure of the tool itself. Invalid arguments may
be answered either way: 2026-07-28 names them under ‵-32602‵, while an ‵isError‵ result
lets the model fix its call.

Catch the failure in the tool's handler and return it as a result with ‵isError: true‵
and a text content block that explains it. SDKs usually do this for typed handlers that
return an error.`),
		},
		{
			ID: ToolCallUnknownToolNotRpcError, Kind: KindSpec, Level: LevelWarning,
			Tags:    []string{"spec", "wire"},
			Summary: "A call to a tool the server does not list was answered with a result instead of a JSON-RPC error",
			Help: helpText(`Every revision says that errors in finding the tool are reported as protocol errors
(a JSON-RPC error response), not as a tool result; 2026-07-28 names ‵-32602‵ Invalid params
for an unknown tool name. A probe called a tool that ‵tools/list‵ does not contain and got a
result (with or without ‵isError‵). Clients then cannot tell a missing tool from a tool
that ran, and a model keeps calling a tool that does not exist.

Answer calls to unknown tools with a JSON-RPC error. If the tool exists but is hidden from
the list, list it.`),
		},
		{
			ID: ProbeExpectationFailed, Kind: KindLint, Level: LevelError,
			Tags:    []string{"probe"},
			Summary: "A declared probe's outcome differs from what it expects",
			Help: helpText(`Each probe in ‵.mcp-surface.yaml‵ names the outcome it expects: ‵expect: ok‵ (the
default: a result, and for ‵tools/call‵ one without ‵isError: true‵), ‵expect: is-error‵
(a tool result with ‵isError: true‵, for a deliberately failing call) or
‵expect: rpc-error‵ (a JSON-RPC error response, for example a call to an unknown tool).
The server answered otherwise, so the behaviour the probe pins has changed.

The message names the probe, the call and the argument names (never argument values) and
what came back: the JSON-RPC error code, or whether the result had ‵isError‵. Fix the
server, or change the probe if the new behaviour is intended.`),
		},
		{
			ID: ProbeCoverageIncomplete, Kind: KindLint, Level: LevelError,
			Tags:    []string{"probe"},
			Summary: "require-probes asks for an advertised operation that no probe exercised",
			Help: helpText(`‵require-probes‵ in ‵.mcp-surface.yaml‵ lists methods that every check must exercise:
‵tools/call‵ (every listed tool called at least once), ‵prompts/get‵ (every listed prompt
got), ‵resources/read‵ (every listed resource read; ‵allResources: true‵ reads them all up
to its bound), ‵completion/complete‵ (at least one completion, when the server advertises
completions), or ‵all-advertised‵ (each of these whose capability the server advertises).
A green run then means the results were validated, not only that the declarations
parsed.

One finding names each item that no probe exercised (a probe counts when the server
answered it, whatever the outcome). Add a probe for it; for an item that must not be
called in CI (a destructive tool), acknowledge the finding for that item with a reason.`),
		},
		{
			ID: ProbeShapeNotPinned, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"probe"},
			Summary: "A probe asks for its result's shape to be pinned, but no pinned shape was found",
			Help: helpText(`A probe with ‵pin: shape‵ has the JSON shape of its result (the types of its fields and
which are present; the ‵structuredContent‵ of a tool result when there is one) compared
with the shape pinned in the file next to the snapshot (‵mcp-surface.probes.json‵ beside
‵mcp-surface.json‵), using the output-* rules: a dropped field or a changed type is a
breaking change for clients. No pinned shape exists for this probe yet, so nothing was
compared.

Run ‵mcp-surface probe --update‵ and commit the file.`),
		},
	}
}
