package capture

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// discoverRevision is the first revision whose sessions start with
// server/discover: a client asking for it or a later one sends
// server/discover first, and goes on with initialize when the answer
// lists no revision from discoverRevision on that it supports.
const discoverRevision = "2026-07-28"

const methodDiscover = "server/discover"

// maxListedShown bounds how many of a server's listed revisions a
// diagnostic names.
const maxListedShown = 4

// maxListed bounds how many listed revisions a capture keeps: a server
// controls the list, and no real one lists more than a handful.
const maxListed = 64

// Discovered returns the raw result the server answered server/discover
// with, whether or not the session used it: over a transport that cannot
// serve discoverRevision (a stateful streamable HTTP server, for one), a
// server answers server/discover with the older revisions it serves and
// the session continues with initialize; its answer is still what the
// server said it supports. It is nil when no answer was recorded.
func (c *Capture) Discovered() json.RawMessage {
	if c.Handshake == HandshakeDiscover {
		return c.HandshakeResult
	}
	ex, ok := lastDiscover(c.Exchanges)
	if !ok || ex.Result == nil {
		return nil
	}
	return ex.Result
}

// SupportedVersions returns the revisions the server listed in its
// answer to server/discover (Discovered), sorted; nil when it did not
// answer with a list. Only strings are kept, at most maxListed of them.
func (c *Capture) SupportedVersions() []string {
	vs := listedVersions(c.Discovered())
	if len(vs) == 0 {
		return nil
	}
	slices.Sort(vs)
	return vs
}

// listedVersions reads supportedVersions from a DiscoverResult, in the
// server's order.
func listedVersions(result json.RawMessage) []string {
	var r struct {
		SupportedVersions []json.RawMessage `json:"supportedVersions"`
	}
	if len(result) == 0 || json.Unmarshal(result, &r) != nil {
		return nil
	}
	var out []string
	for _, raw := range r.SupportedVersions[:min(len(r.SupportedVersions), maxListed)] {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// lastDiscover is the last server/discover exchange (the SDK may send
// two, when the first answer names another revision to ask for).
func lastDiscover(exs []Exchange) (Exchange, bool) {
	for i := len(exs) - 1; i >= 0; i-- {
		if exs[i].Method == methodDiscover {
			return exs[i], true
		}
	}
	return Exchange{}, false
}

// fallbackMessage says why a session that sent server/discover went on
// with initialize: the server refused it, did not answer it, or answered
// with no revision the client could start a server/discover session at.
// Only the last case is an answer the snapshot keeps.
func fallbackMessage(discover Exchange) string {
	const fellBack = "the session fell back to initialize"
	switch {
	case discover.Error != nil:
		return fmt.Sprintf("the server did not accept server/discover; %s (error %d: %s)",
			fellBack, discover.Error.Code, truncate(discover.Error.Message, 300))
	case discover.Result == nil:
		return "the server did not answer server/discover with a JSON-RPC response; " + fellBack
	}
	listed := listedVersions(discover.Result)
	shown := make([]string, 0, min(len(listed), maxListedShown))
	for _, v := range listed[:min(len(listed), maxListedShown)] {
		shown = append(shown, fmt.Sprintf("%q", truncate(v, 40)))
	}
	names := strings.Join(shown, ", ")
	if len(listed) > maxListedShown {
		names += fmt.Sprintf(" and %d more", len(listed)-maxListedShown)
	}
	if len(listed) == 0 {
		names = "none"
	}
	if !slices.ContainsFunc(listed, func(v string) bool { return v >= discoverRevision && slices.Contains(Revisions, v) }) {
		return fmt.Sprintf("server/discover answered with only revisions before %s (%s), so the session used initialize",
			discoverRevision, names)
	}
	return fmt.Sprintf("server/discover answered with revisions %s, but the MCP Go SDK did not start its session with that answer; %s", names, fellBack)
}
