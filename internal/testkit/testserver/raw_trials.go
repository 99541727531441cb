package testserver

import (
	"encoding/json"
)

// Raw modes for trials: servers whose claims (the revisions they list in
// server/discover, the capabilities they advertise) and behaviour differ,
// so that a trial is the only way to tell what they support.
const (
	// ModeDiscoverUnlisted answers server/discover listing only
	// [DiscoverListed], yet accepts an initialize at every raw revision.
	ModeDiscoverUnlisted = "discover-unlisted"
	// ModeDiscoverRefusesUnlisted lists the same, and answers an
	// initialize at any other revision with [DiscoverListed]: the
	// revisions it does not list are really gone.
	ModeDiscoverRefusesUnlisted = "discover-refuses-unlisted"
	// ModeSubscribeWithdrawn is subscribe-unimplemented (same server
	// name, tools and resource) that no longer advertises
	// resources.subscribe.
	ModeSubscribeWithdrawn = "subscribe-withdrawn"
)

// DiscoverListed is the one revision the discover-* modes list: older
// than 2026-07-28, so a client that asked for 2026-07-28 goes on with
// initialize.
const DiscoverListed = "2025-11-25"

const subscribeResources = `{"resources":[{"name":"readme","uri":"file:///readme.md","mimeType":"text/markdown"}]}`

// trialRequest answers the requests in which the trial modes differ from
// the other raw modes; done reports whether it did.
func (s *rawServer) trialRequest(req rpcMessage) (done bool, err error) {
	id := req.ID
	switch s.mode {
	case ModeDiscoverUnlisted, ModeDiscoverRefusesUnlisted:
		switch req.Method {
		case "server/discover":
			return true, s.writeResult(id, req.Method, map[string]any{
				"supportedVersions": []string{DiscoverListed},
				"capabilities":      json.RawMessage(`{"tools":{}}`),
				"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": s.trialServerInfo()},
			})
		case "initialize":
			return true, s.writeResult(id, req.Method, s.trialInitialize(req.Params, `{"tools":{}}`))
		}
	case ModeSubscribeWithdrawn:
		switch req.Method {
		case "initialize":
			return true, s.writeResult(id, req.Method, s.trialInitialize(req.Params, `{"tools":{},"resources":{}}`))
		case "resources/list":
			return true, s.writeResult(id, req.Method, json.RawMessage(subscribeResources))
		case "resources/templates/list":
			return true, s.writeResult(id, req.Method, json.RawMessage(`{"resourceTemplates":[]}`))
		}
	}
	return false, nil
}

// trialServerInfo names subscribe-withdrawn as the server it withdraws
// from, so that a diff of the two sees only the capability.
func (s *rawServer) trialServerInfo() map[string]string {
	name := s.mode
	if s.mode == ModeSubscribeWithdrawn {
		name = ModeSubscribeUnimplemented
	}
	return map[string]string{"name": "testserver-" + name, "version": ServerVersion}
}

func (s *rawServer) trialInitialize(params json.RawMessage, caps string) any {
	return map[string]any{
		"protocolVersion": negotiatedVersion(params, s.mode == ModeDiscoverRefusesUnlisted),
		"capabilities":    json.RawMessage(caps),
		"serverInfo":      s.trialServerInfo(),
	}
}
