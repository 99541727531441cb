// Package cost measures what a server's surface costs the model: the
// tokens its tool definitions and instructions take in the context of
// every session, whether a tool is used or not.
//
// The counted text. Hosts put each tool into the model's context as the
// tool's name, description and input schema, and the server's
// instructions into the system prompt. For each tool the counted text is
// the compact JSON object
//
//	{"name":…,"description":…,"inputSchema":…}
//
// with exactly those three members, in that order, each omitted when the
// tool does not have it: the order of the Tool type in the MCP schema,
// which is also the order in which clients build the tool objects of the
// model APIs (name, description, then the schema under the provider's
// name for it). Other members of a tool (title, annotations, outputSchema,
// icons, _meta) are not counted: clients do not send them to the model.
// The values are the snapshot's (pkg/manifest): compact, strings with the
// minimal JSON escapes and no HTML escaping, which is how JavaScript and Go
// clients encode them. Inside inputSchema, keys are in the snapshot's
// sorted order and primitive arrays (required, enum) sorted, rather than in
// the order the server wrote them: clients that decode the schema into a
// map (as Go clients do) send it sorted too, those that keep the server's
// order differ from the count only where a reordering moves a token
// boundary (a few tokens in a thousand on the reference servers), and a
// count that depends on the server's ordering would report a cost change
// for a change that the snapshot, being ordered, does not show. The
// instructions are counted as their text, not as a JSON string.
//
// Client wrappers add their own overhead: the provider's envelope
// ("type":"function", the schema's member renamed to input_schema or
// parameters), the prefix a client gives each tool's name (mcp__server__),
// the framing a provider renders tools into. That overhead belongs to the
// client and differs between them; what this package counts is the
// server's share, the part a pull request to the server can change.
//
// Tokens. Counting uses a byte-pair encoder with embedded vocabularies
// (github.com/tiktoken-go/tokenizer), in process and offline: o200k_base
// by default (the GPT-4o and later family), cl100k_base on request.
// Special tokens in the text (<|endoftext|>) are counted as ordinary text.
// An encoder is built on first use and kept for the life of the process,
// so a program that never counts pays nothing, and the first count pays
// the vocabulary's start-up once.
//
// Results. Compute returns a Table: per tool, sorted largest first (ties
// by name), each with its share of the total; the instructions; the
// total. Compare gives the change between two tables and its largest
// movers. Budget turns limits from .mcp-surface.yaml into findings: a
// total and a per-tool budget on one surface (Budget.Check), a maximum
// increase per pull request on a change (Budget.CheckIncrease). pkg/diff
// reports a change of the total as context-cost-changed. The text, JSON
// and markdown renderings of a Table are in pkg/report, with the other
// renderings of untrusted text.
//
// Cost is derived, never surface: it is not stored in the snapshot and
// does not change its fingerprints.
package cost
