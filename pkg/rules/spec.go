package rules

const (
	SchemaViolation                    = "schema-violation"
	ToolInputSchemaNotObject           = "tool-input-schema-not-object"
	ToolOutputSchemaNotObject          = "tool-output-schema-not-object"
	ToolInputSchemaInvalid             = "tool-input-schema-invalid"
	ToolOutputSchemaInvalid            = "tool-output-schema-invalid"
	ToolResultStructuredContentInvalid = "tool-result-structured-content-invalid"
	JsonrpcEnvelopeInvalid             = "jsonrpc-envelope-invalid"
	StdoutNotJsonrpc                   = "stdout-not-jsonrpc"
	ListRequestFailed                  = "list-request-failed"
	CapabilityMethodNotFound           = "capability-method-not-found"
	NegotiatedVersionUnknown           = "negotiated-version-unknown"
	HandshakeFallback                  = "handshake-fallback"
	SdkRejectedResult                  = "sdk-rejected-result"
	ToolSchemaUnresolvable             = "tool-schema-unresolvable"
	ProtocolFeatureVersionMismatch     = "protocol-feature-version-mismatch"
	DuplicateIdentityKey               = "duplicate-identity-key"
	DuplicateJsonKey                   = "duplicate-json-key"
	InvalidUtf8                        = "invalid-utf8"
)

// IdentityKeys are the member names whose repetition gets
// DuplicateIdentityKey rather than DuplicateJsonKey: the ones that say
// which tool, prompt or resource an item is, and what a model reads
// about it.
var IdentityKeys = []string{"name", "title", "description", "uri", "uriTemplate", "protocolVersion", "version", "instructions"}

// Spec rules: what the published MCP schema and the protocol's MUSTs
// require of what a server sends. Reported by pkg/spec.
func specRules() []Rule {
	return []Rule{
		{
			ID: SchemaViolation, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A result or item does not conform to the published MCP schema of the negotiated revision",
			Help: `The server sent a result (the handshake, a page of a list, or a probe's answer) or, in a
snapshot, an item that the published JSON Schema of the protocol revision the session
negotiated does not accept. Clients built from that schema (every official SDK generates
its types from it) may reject the whole result, drop the item, or misread it: one bad
tool on page 40 can make every tool disappear for some clients.

The finding names the item and the JSON Pointer of the offending value inside it, and
which part of the schema it breaks. Fix the server so that it sends what the schema
requires, or negotiate the revision whose schema it actually follows.`,
		},
		{
			ID: ToolInputSchemaNotObject, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: `A tool's inputSchema does not have "type": "object" at its root`,
			Help: `Every revision of MCP requires a tool's ` + "`inputSchema`" + ` to be a JSON Schema whose root
is ` + "`\"type\": \"object\"`" + `: tool arguments are always a JSON object. A schema without it
(for example a bare ` + "`{}`" + `, a ` + "`$ref`" + ` alone, or ` + "`\"type\": \"string\"`" + `) is rejected by clients that
validate tools against the published schema, and models cannot tell how to call the tool.

Add ` + "`\"type\": \"object\"`" + ` at the root and describe the arguments under ` + "`properties`" + `; use
` + "`{\"type\": \"object\"}`" + ` for a tool that takes no arguments.`,
		},
		{
			ID: ToolOutputSchemaNotObject, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: `A tool's outputSchema does not have "type": "object" at its root, as its revision requires`,
			Help: `From 2025-06-18 through 2025-11-25 a tool's ` + "`outputSchema`" + ` must have ` + "`\"type\": \"object\"`" + `
at its root, because ` + "`structuredContent`" + ` is a JSON object in those revisions. 2026-07-28
allows any JSON Schema 2020-12 there, so this rule never fires under it.

Wrap a non-object result in an object (` + "`{\"type\":\"object\",\"properties\":{\"items\":{...}}}`" + `), or
negotiate a revision that allows it.`,
		},
		{
			ID: ToolInputSchemaInvalid, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A tool's inputSchema is not a valid JSON Schema in its dialect",
			Help: `A tool's ` + "`inputSchema`" + ` must itself be a JSON Schema. mcp-surface checks it against the
meta-schema of its dialect: the one named by its ` + "`$schema`" + `, otherwise the revision's default
(JSON Schema 2020-12 from 2025-11-25 on, which the spec made the default; draft-07 for
earlier revisions, which said nothing, because their own schema files and the official
SDKs' generated schemas use draft-07). A local ` + "`$ref`" + ` that points nowhere or a malformed
` + "`pattern`" + ` makes it invalid too (ECMA-262 features that Go's engine lacks, such as
lookaround, are accepted).

Clients that validate arguments before calling, and models that read the schema, cannot
use an invalid schema. Fix the reported keyword.`,
		},
		{
			ID: ToolOutputSchemaInvalid, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A tool's outputSchema is not a valid JSON Schema in its dialect",
			Help: `A tool's ` + "`outputSchema`" + ` must itself be a JSON Schema, read in the dialect of its
` + "`$schema`" + ` or of the revision (2020-12 from 2025-11-25 on, draft-07 before). Clients
validate ` + "`structuredContent`" + ` against it (the spec says they SHOULD), so an invalid schema
makes every structured result unusable. Fix the reported keyword.`,
		},
		{
			ID: ToolResultStructuredContentInvalid, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A tool result's structuredContent is missing or does not match the tool's outputSchema",
			Help: `When a tool declares an ` + "`outputSchema`" + `, the spec says the server MUST return
` + "`structuredContent`" + ` that conforms to it in every successful result. mcp-surface checks the
results its probes obtained (` + "`tools/call`" + `). A client that validates the result, as the spec
recommends, rejects it.

Return structured content that matches the declared schema, or change the schema to what
the tool really returns.`,
		},
		{
			ID: JsonrpcEnvelopeInvalid, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A message from the server is not a valid JSON-RPC 2.0 message",
			Help: `Every MCP message is a JSON-RPC 2.0 object: ` + "`\"jsonrpc\": \"2.0\"`" + `; a response carries the
` + "`id`" + ` of a request the client sent and exactly one of ` + "`result`" + ` and ` + "`error`" + `; an error has
an integer ` + "`code`" + ` and a string ` + "`message`" + `; a request's id is a string or an integer. A client's
transport drops or fails on anything else, usually with a timeout that hides the cause.

The finding names the first offending frame and how many others share the problem. This
is almost always a bug in a hand-written transport or a proxy in front of the server.`,
		},
		{
			ID: StdoutNotJsonrpc, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A stdio server wrote something to stdout that is not an MCP message",
			Help: `The stdio transport says the server MUST NOT write anything to its stdout that is not
a valid MCP message. A log line, a banner or a progress bar on stdout corrupts the
stream: clients fail to parse it and, depending on the SDK, drop the connection.

Send logs to stderr (or to the client with ` + "`notifications/message`" + `). Check libraries
that print on import or start-up.`,
		},
		{
			ID: ListRequestFailed, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A list the server advertises in its capabilities answered with an error",
			Help: `The server declared a capability (` + "`tools`" + `, ` + "`prompts`" + `, ` + "`resources`" + `) in its handshake
but answered the matching list request (` + "`tools/list`" + `, ` + "`prompts/list`" + `, ` + "`resources/list`" + `,
` + "`resources/templates/list`" + `) with a JSON-RPC error. Clients treat a declared capability as a
promise and show the server as broken, or with nothing in it.

Either answer the list (an empty list is fine) or stop declaring the capability. An answer of
` + "`-32601`" + ` (Method not found) is ` + "`capability-method-not-found`" + ` instead.`,
		},
		{
			ID: CapabilityMethodNotFound, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A capability is advertised, but its method answers -32601 Method not found",
			Help: `The server declared ` + "`prompts`" + `, ` + "`resources`" + ` or ` + "`resources.subscribe`" + ` in its
handshake, but the method behind it (` + "`prompts/list`" + `, ` + "`resources/list`" + `,
` + "`resources/templates/list`" + `, ` + "`resources/subscribe`" + `) answered with JSON-RPC error -32601 (Method
not found): the capability was never implemented. Clients that trust the declaration show
the server as broken. The capture records the failure in the snapshot (` + "`failedMethods`" + `), so
that withdrawing the declaration later is reported as a fix, not as a break.

Implement the method, or stop declaring the capability (usually a default of the server's
SDK that registers the capability without a handler).`,
		},
		{
			ID: NegotiatedVersionUnknown, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "The session settled on a protocol revision that is not a published MCP revision",
			Help: `The server answered the handshake with a ` + "`protocolVersion`" + ` that no published revision of
MCP has. A client that receives a version it does not support must disconnect, so no
conforming client can use this server. Nothing else can be checked against a schema.

Answer with the version the client asked for when the server supports it, otherwise with
the latest published revision the server supports.`,
		},
		{
			ID: HandshakeFallback, Kind: KindSpec, Level: LevelNote,
			Tags:    []string{"spec", "wire"},
			Summary: "server/discover failed and the session fell back to initialize",
			Help: `The client asked for 2026-07-28, whose session starts with the stateless
` + "`server/discover`" + `. The server did not answer it, and the client fell back to the
` + "`initialize`" + ` handshake of earlier revisions, as the spec allows. This is expected from a
server that does not implement 2026-07-28 yet; it is reported so that the revision
actually validated is visible.`,
		},
		{
			ID: SdkRejectedResult, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "The official Go SDK's client refused to decode a result the server sent",
			Help: `mcp-surface records the server's bytes and also lets the official Go SDK decode them, as
a real client would (the items of a list page over 4 MiB are decoded one at a time with
the SDK's own types and decoder settings, so that a huge page costs the memory of one item;
the message then names the first item refused). The SDK refused this result. The raw bytes
are still validated against the published schema (see any ` + "`schema-violation`" + ` findings);
this finding means that at least one widely used client cannot use the result even where
the schema is silent (for example a number that does not fit the SDK's type).

Read the SDK's error in the message and make the result decodable.`,
		},
		{
			ID: ToolSchemaUnresolvable, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "A tool's schema refers to a document or a dialect that cannot be resolved",
			Help: `The tool's ` + "`inputSchema`" + ` or ` + "`outputSchema`" + ` has a ` + "`$ref`" + ` to another document (a URL or a
file) or names a ` + "`$schema`" + ` dialect that is not a standard JSON Schema meta-schema. Clients
do not fetch schemas on a model's behalf, so the referenced part is unknown to them, and
mcp-surface never fetches it either (the schema comes from the server under test).

Inline the referenced definitions under ` + "`$defs`" + ` (or ` + "`definitions`" + ` in draft-07) and refer to
them with ` + "`#/...`" + ` pointers.`,
		},
		{
			ID: ProtocolFeatureVersionMismatch, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"wire", "lint"},
			Summary: "The server sends fields that do not exist in the protocol revision it negotiated",
			Help: `The server sends a field that the published schema of the negotiated revision does not
define but another revision does: for example ` + "`outputSchema`" + ` or ` + "`title`" + ` under
2025-03-26, ` + "`icons`" + ` under 2025-06-18, or ` + "`execution`" + ` under 2026-07-28. Which fields exist
in which revision is read from the published schemas themselves (the properties of Tool,
Prompt, Resource, ResourceTemplate, Implementation, ServerCapabilities and every other
definition).

Clients of the negotiated revision ignore the field, or reject it: the contract the server
thinks it offers (a structured output, an icon, a title shown to users) is not the one
those clients see. Serve fields according to the negotiated revision, or negotiate the
revision that defines them.

The same rule ID is used when a diff shows that such a field appeared.`,
		},
		{
			ID: DuplicateIdentityKey, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire", "sec"},
			Summary: "An object the server sent names an identity or description member twice",
			Help: `A JSON object in the server's answer has the same member name twice, and the name is one
that says what an item is or what a model reads about it: ` + "`name`" + `, ` + "`title`" + `, ` + "`description`" + `,
` + "`uri`" + `, ` + "`uriTemplate`" + `, ` + "`protocolVersion`" + `, ` + "`version`" + ` or ` + "`instructions`" + `. JSON says names SHOULD be
unique and leaves the meaning of a repeated one to the parser: one client keeps the first
value, another the last, a third refuses the message. A tool that reads ` + "`\"name\": \"safe_read\"`" + `
to a reviewer can be called ` + "`delete_everything`" + ` by an agent.

mcp-surface keeps the last value, as encoding/json does, and names the member. Send each
member once.`,
		},
		{
			ID: DuplicateJsonKey, Kind: KindSpec, Level: LevelWarning,
			Tags:    []string{"spec", "wire"},
			Summary: "An object the server sent names a member twice",
			Help: `A JSON object in the server's answer has the same member name twice (for example
` + "`\"type\"`" + ` twice in a tool's input schema). Which value counts depends on the client's JSON
parser, so clients can disagree about the server's surface. mcp-surface keeps the last
value, as encoding/json does. Send each member once; the identity and description members
get the stricter ` + "`duplicate-identity-key`" + `.`,
		},
		{
			ID: InvalidUtf8, Kind: KindSpec, Level: LevelError,
			Tags:    []string{"spec", "wire"},
			Summary: "A message from the server holds bytes that are not UTF-8",
			Help: `MCP messages are JSON-RPC in JSON, which must be UTF-8 (the stdio transport says so
explicitly). A string with bytes that are not UTF-8 is decoded by most parsers as U+FFFD
(the replacement character), by others refused: the text a model sees is not the text
the server meant, and a strict client drops the whole message. mcp-surface records it as
decoded (U+FFFD) and names the frame and the string.

Encode every string as UTF-8; check where the server reads text from files or other
processes in another encoding.`,
		},
	}
}
