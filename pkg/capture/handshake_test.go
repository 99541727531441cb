package capture

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestFallbackMessageSaysWhatHappened(t *testing.T) {
	for _, c := range []struct {
		name string
		ex   Exchange
		want string
	}{
		{"refused", Exchange{Error: &RPCError{Code: -32601, Message: "method not found"}},
			"the server did not accept server/discover; the session fell back to initialize (error -32601: method not found)"},
		{"unanswered", Exchange{ResponseFrame: -1},
			"the server did not answer server/discover with a JSON-RPC response; the session fell back to initialize"},
		{"older revisions", Exchange{Result: json.RawMessage(`{"supportedVersions":["2025-11-25","2025-06-18"]}`)},
			`server/discover answered with only revisions before 2026-07-28 ("2025-11-25", "2025-06-18"), so the session used initialize`},
		{"empty list", Exchange{Result: json.RawMessage(`{"supportedVersions":[]}`)},
			`server/discover answered with only revisions before 2026-07-28 (none), so the session used initialize`},
		{"modern but unused", Exchange{Result: json.RawMessage(`{"supportedVersions":["2026-07-28"]}`)},
			`server/discover answered with revisions "2026-07-28", but the MCP Go SDK did not start its session with that answer; the session fell back to initialize`},
		{"hostile and long", Exchange{Result: json.RawMessage(`{"supportedVersions":["a\u001b[31mb","1","2","3","4","5"]}`)},
			`server/discover answered with only revisions before 2026-07-28 ("a\x1b[31mb", "1", "2", "3" and 2 more), so the session used initialize`},
	} {
		if got := fallbackMessage(c.ex); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestSupportedVersionsAreBoundedAndSorted(t *testing.T) {
	many := make([]string, 0, 200)
	for i := range 200 {
		many = append(many, fmt.Sprintf("%q", fmt.Sprintf("r%03d", 199-i)))
	}
	raw := json.RawMessage(`{"supportedVersions":[` + strings.Join(many, ",") + `,7,null]}`)
	c := &Capture{Handshake: HandshakeInitialize, Exchanges: []Exchange{
		{Method: "initialize", Result: json.RawMessage(`{}`)},
		{Method: methodDiscover, Result: raw},
	}}
	got := c.SupportedVersions()
	if len(got) != maxListed || !slices.IsSorted(got) || got[0] != "r136" {
		t.Errorf("got %d versions from %s to %s, want the first %d listed, sorted", len(got), got[0], got[len(got)-1], maxListed)
	}
	c.Exchanges = c.Exchanges[:1]
	if c.SupportedVersions() != nil || c.Discovered() != nil {
		t.Errorf("no discover exchange, yet %v", c.SupportedVersions())
	}
	c.Handshake, c.HandshakeResult = HandshakeDiscover, json.RawMessage(`{"supportedVersions":["2026-07-28","2025-11-25"]}`)
	if got := c.SupportedVersions(); !slices.Equal(got, []string{"2025-11-25", "2026-07-28"}) {
		t.Errorf("discover handshake: %v", got)
	}
}
