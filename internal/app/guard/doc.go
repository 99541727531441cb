// Package guard stands between a client and a locked server at run time:
// `mcp-surface guard` starts the server, carries every message both ways,
// and checks each listing the client receives (tools, prompts, resources,
// resource templates, skills and groups, every page; the handshake's
// instructions; a locked skill's SKILL.md where it is read) against
// the server's lock entry with the engine `lock --check` uses, so that
// what changed since the lock (a rug pull, a poisoned description served
// mid-session after notifications/tools/list_changed) is kept away from
// the model, ended on, or logged (Mode).
//
// Session is the judge, fed whole messages and unaware of the transport;
// Run is the stdio proxy around it, RunHTTP the local reverse proxy in
// front of a streamable HTTP server (a Session per MCP session). An item that is the locked one passes
// byte for byte, and a message nothing was taken out of is forwarded as
// the server wrote it. An item the consumer ranking (lock.ClassOf) calls
// a danger or a break, or that the engine rates risky or breaking, is
// what the modes act on; any other change (a typo fixed in a
// description, which the text rules let through) passes with a log line.
package guard
