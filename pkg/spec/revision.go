package spec

import (
	"slices"
	"strings"
)

// PublishedCommit is the commit of the MCP specification repository whose
// schema files are pinned below. Changing it means re-pinning every digest.
const PublishedCommit = "b0f60ba5409db7a6582440a7b473cc0398890f15"

// PublishedBaseURL is where the pinned schema files are published: a
// revision's file is PublishedBaseURL + "/" + revision + "/schema.json".
const PublishedBaseURL = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/" + PublishedCommit + "/schema"

// Dialects of JSON Schema that the published MCP schemas (and tool
// schemas) are written in.
const (
	DialectDraft07 = "http://json-schema.org/draft-07/schema#"
	Dialect202012  = "https://json-schema.org/draft/2020-12/schema"
)

// Revision is one published revision of the MCP specification.
type Revision struct {
	// Name is the revision's date, as negotiated in protocolVersion.
	Name string
	// SHA256 is the hex digest of the published schema.json at
	// PublishedCommit. A file with any other digest is refused.
	SHA256 string
	// Dialect is the JSON Schema dialect the schema file is written in.
	Dialect string
	// ToolSchemaDialect is the dialect a tool's inputSchema and
	// outputSchema are read in when they carry no "$schema". 2025-11-25
	// made JSON Schema 2020-12 the default. Earlier revisions said nothing;
	// mcp-surface reads them as draft-07, the dialect those revisions'
	// own schema files and the official SDKs' generated schemas use.
	ToolSchemaDialect string
	// Handshake is the method that opens a session in this revision:
	// "initialize", or "server/discover" from 2026-07-28.
	Handshake string
}

// HandshakeDefinition is the schema definition of the handshake's result.
func (r Revision) HandshakeDefinition(handshake string) string {
	if handshake == "server/discover" {
		return "DiscoverResult"
	}
	return "InitializeResult"
}

// definitionsKey is where the schema file keeps its definitions.
func (r Revision) definitionsKey() string {
	if r.Dialect == DialectDraft07 {
		return "definitions"
	}
	return "$defs"
}

// URL is the revision's published, pinned location under base (""
// for PublishedBaseURL).
func (r Revision) URL(base string) string {
	if base == "" {
		base = PublishedBaseURL
	}
	return strings.TrimSuffix(base, "/") + "/" + r.Name + "/schema.json"
}

var revisions = []Revision{
	{Name: "2024-11-05", SHA256: "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce", Dialect: DialectDraft07, ToolSchemaDialect: DialectDraft07, Handshake: "initialize"},
	{Name: "2025-03-26", SHA256: "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131", Dialect: DialectDraft07, ToolSchemaDialect: DialectDraft07, Handshake: "initialize"},
	{Name: "2025-06-18", SHA256: "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01", Dialect: DialectDraft07, ToolSchemaDialect: DialectDraft07, Handshake: "initialize"},
	{Name: "2025-11-25", SHA256: "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7", Dialect: Dialect202012, ToolSchemaDialect: Dialect202012, Handshake: "initialize"},
	{Name: "2026-07-28", SHA256: "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203", Dialect: Dialect202012, ToolSchemaDialect: Dialect202012, Handshake: "server/discover"},
}

// Revisions returns every known revision, oldest first.
func Revisions() []Revision { return slices.Clone(revisions) }

// RevisionNames returns the names of every known revision, oldest first.
func RevisionNames() []string {
	out := make([]string, len(revisions))
	for i, r := range revisions {
		out[i] = r.Name
	}
	return out
}

// LookupRevision returns the revision with the given name.
func LookupRevision(name string) (Revision, bool) {
	for _, r := range revisions {
		if r.Name == name {
			return r, true
		}
	}
	return Revision{}, false
}
