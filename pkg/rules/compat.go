package rules

const (
	ClientToolNameRejected         = "client-tool-name-rejected"
	ClientToolCountExceeded        = "client-tool-count-exceeded"
	ClientSchemaKeywordUnsupported = "client-schema-keyword-unsupported"
	ClientSchemaTypeUnion          = "client-schema-type-union"
	ClientSchemaObjectOpen         = "client-schema-object-open"
	ClientSchemaPropertyOptional   = "client-schema-property-optional"
	ToolBecameClientIncompatible   = "tool-became-client-incompatible"
)

// Client compatibility: what a model provider or an MCP client would
// refuse although the MCP specification allows it. Reported, for the
// client profiles a user names (validate --clients, clients: in
// .mcp-surface.yaml), by pkg/spec/clients through pkg/spec, and as a change
// by pkg/diff. Each help text cites the documentation its profiles'
// constraints come from (a test in pkg/spec/clients keeps the two in step).
func compatRules() []Rule {
	return []Rule{
		{
			ID: ClientToolNameRejected, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire"},
			Summary: "A tool name does not fit a client's or a model provider's rule for function names",
			Help: `Hosts pass each MCP tool to the model as a function, and the model APIs restrict
function names more than MCP does:

- OpenAI: a-z, A-Z, 0-9, underscores and dashes, at most 64 characters
  ([API reference](https://platform.openai.com/docs/api-reference/chat/create)).
- Anthropic: ` + "`^[a-zA-Z0-9_-]{1,64}$`" + ` ([Messages API](https://docs.anthropic.com/en/api/messages)).
- Gemini: a-z, A-Z, 0-9, underscores, colons, dots and dashes, at most 64 characters
  ([FunctionDeclaration](https://ai.google.dev/api/caching#FunctionDeclaration)).
- Claude Code names an MCP tool ` + "`mcp__<server>__<tool>`" + `
  ([permission rules](https://docs.anthropic.com/en/docs/claude-code/iam)), so the Anthropic
  limit applies to the whole: a long server name leaves less room for the tool's. The
  ` + "`claude-code:<server>`" + ` profile takes the name the server is added under (its
  ` + "`serverInfo.name`" + ` by default).

A tool whose name falls outside them is refused, dropped or renamed by the host. Shorten
the name or drop the characters the message names (a rename is a breaking change for
existing callers).`,
		},
		{
			ID: ClientToolCountExceeded, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire"},
			Summary: "The server lists more tools than a client or model provider accepts in one request",
			Help: `OpenAI accepts at most 128 functions in one request
([API reference](https://platform.openai.com/docs/api-reference/chat/create)). A host that
passes every tool of the server on gets the request refused, or has to leave tools out.

Split the server, or group related operations into fewer tools.`,
		},
		{
			ID: ClientSchemaKeywordUnsupported, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire"},
			Summary: "A tool's inputSchema uses a keyword a client or model provider does not accept",
			Help: `Gemini takes a function's ` + "`parameters`" + ` as its Schema object, "a select subset of an
OpenAPI 3.0 schema object" ([Schema](https://ai.google.dev/api/caching#Schema)): type, format,
title, description, nullable, enum, maxItems, minItems, properties, required,
minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf,
propertyOrdering, default, items, minimum and maximum. Anything else, such as
` + "`$schema`" + `, ` + "`$ref`" + `, ` + "`$defs`" + `, ` + "`additionalProperties`" + `, ` + "`oneOf`" + `, ` + "`allOf`" + ` or ` + "`const`" + `, makes the
request fail (users of Gemini-backed clients report errors naming exactly these keys).

The pointer names the keyword. Generate a plainer schema for the tool (inline references,
` + "`anyOf`" + ` instead of ` + "`oneOf`" + `, ` + "`enum`" + ` of one value instead of ` + "`const`" + `), or accept that clients
backed by Gemini rewrite or refuse it.`,
		},
		{
			ID: ClientSchemaTypeUnion, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire"},
			Summary: "A tool's inputSchema gives a list of types where a client or model provider takes one",
			Help: `In Gemini's Schema object ` + "`type`" + ` is one value of its Type enum
([Schema](https://ai.google.dev/api/caching#Schema)); a JSON Schema union such as
` + "`\"type\": [\"string\", \"null\"]`" + ` is refused. A value that may be null is written
` + "`\"nullable\": true`" + ` there, or as ` + "`anyOf`" + ` of the alternatives.`,
		},
		{
			ID: ClientSchemaObjectOpen, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire", "strict"},
			Summary: "An object in a tool's inputSchema does not set additionalProperties to false, as strict function calling requires",
			Help: `OpenAI's strict mode (Structured Outputs, ` + "`strict: true`" + ` on a function) requires
` + "`additionalProperties: false`" + ` on every object of the schema
([supported schemas](https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)).
A host that turns strict mode on for MCP tools has the function refused.

Set ` + "`additionalProperties: false`" + ` on each object the pointer names, if the tool does not
take other properties.`,
		},
		{
			ID: ClientSchemaPropertyOptional, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"compat", "wire", "strict"},
			Summary: "A property of a tool's inputSchema is optional, which strict function calling does not allow",
			Help: `OpenAI's strict mode requires every property of an object to be listed in ` + "`required`" + `
([supported schemas](https://platform.openai.com/docs/guides/structured-outputs#supported-schemas));
an optional field is written as a required one whose type admits ` + "`null`" + `.

Making an existing property required is a breaking change for callers that omit it: do
it only where the tool treats null as absent.`,
		},
		{
			ID: ToolBecameClientIncompatible, Kind: KindChange, Severity: SeverityRisky, Direction: "surface",
			Tags:    []string{"compat", "wire"},
			Summary: "A tool that a configured client accepted is now rejected by it",
			Help: `For the client profiles configured (` + "`clients:`" + ` in ` + "`.mcp-surface.yaml`" + `, ` + "`--clients`" + `,
the action's ` + "`clients`" + ` input), the base's tool fit every constraint of the profile and the
head's does not: a renamed tool that grew past the name limit, a keyword Gemini does not
accept, an object strict mode would refuse. Agents on that client lose the tool although
nothing in MCP terms broke.

The message names the profile and the constraint; the ` + "`client-*`" + ` rules explain each
constraint and cite the documentation it comes from. A tool that was already rejected,
and a new tool, are reported by those rules rather than as a change.`,
		},
	}
}
