// Package clientconfig reads the MCP client configurations a repository
// commits for its agents, so that the servers they declare can be captured
// and locked (mcp-surface lock).
//
// Each format is the one its client documents:
//
//   - VS Code, .vscode/mcp.json: a "servers" object; "type" stdio, http or
//     sse; "inputs" for prompted values; ${input:ID}, ${env:NAME},
//     ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome},
//     ${pathSeparator} and ${/} in values
//     (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
//   - Claude Code, .mcp.json: an "mcpServers" object; "type" stdio
//     (default), http or sse; ${VAR} and ${VAR:-default} in command, args,
//     env, url and headers (https://code.claude.com/docs/en/mcp).
//   - Cursor, .cursor/mcp.json: an "mcpServers" object; a command or a
//     url; ${env:NAME}, ${userHome}, ${workspaceFolder},
//     ${workspaceFolderBasename}, ${pathSeparator} and ${/}
//     (https://cursor.com/docs/context/mcp).
//   - Gemini CLI, .gemini/settings.json: an "mcpServers" object; "command"
//     (stdio), "url" (SSE) or "httpUrl" (streamable HTTP); $VAR and
//     ${VAR} in values
//     (https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md).
//   - Claude Desktop, claude_desktop_config.json: an "mcpServers" object
//     of stdio servers, read only when named, since it lives outside
//     repositories (https://modelcontextprotocol.io/quickstart/user).
//
// Comments and trailing commas are accepted, as these clients accept
// them. A member that cannot be read is an error that names the file and
// the key; a repeated key is an error, since clients disagree on which
// copy counts.
//
// Placeholders are filled from the environment, never printed: each value
// that came from the environment is in Server.Secrets so that callers can
// redact it. VS Code prompts for ${input:ID}; in CI the value comes from
// the variable InputVariable(ID) names (MCP_SURFACE_INPUT_ID). A
// placeholder whose variable is unset or empty leaves the server
// unresolved: Server.Missing names the variables, and the server must not
// be started with a blank secret.
//
// An entry that runs its server under the guard (mcp-surface lock
// --wrap: the command mcp-surface, the args "guard", the guard's flags,
// "--" and the server's command line) is read as the server after "--",
// with Server.Wrapped set: its launch and entry hash are those of the
// entry before the wrap, so a lock and its check see the same server.
//
// Server.EntryHash hashes the entry as written (placeholders unexpanded),
// so a secret never reaches a lock file and a changed command, argument or
// URL changes the hash: a re-lock, not drift.
package clientconfig
