package guard

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// A request of the client that uses an item (tools/call, prompts/get,
// resources/read, groups/get) is checked against what the session's
// listings made of the item before it is forwarded.

// callParams are the parameters that name the item a call uses.
type callParams struct {
	Params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"params"`
}

// refusal is the guard's answer to a request that uses an item, or nil
// to forward it. Under block and fail, an item this session's listings
// blocked is refused; so is a tool or prompt that no listing of the
// session served and the lock does not hold (a client that kept a
// listing from another session calls what nobody checked); and a
// resource read through a blocked resource template. Under warn each of
// them is logged and forwarded.
func (s *Session) refusal(env header, kind, name string) []byte {
	v, why := s.verdictForCall(kind, name)
	if why == "" {
		return nil
	}
	if s.opts.Mode == ModeWarn {
		s.log(Decision{Decision: DecisionWarned, Method: env.Method, Kind: kind, Name: name, Rules: v.Rules,
			Message: fmt.Sprintf("warning, forwarded %s of %s %q: %s", env.Method, kind, name, why)})
		return nil
	}
	s.log(Decision{Decision: DecisionRefused, Method: env.Method, Kind: v.Kind, Name: name, Rules: v.Rules,
		Message: fmt.Sprintf("refused %s of %s %q: %s", env.Method, v.Kind, name, why)})
	if v.Threat == "" {
		// Not blocked, unknown: the item's name is the client's own text.
		return errorAnswer(env.ID, fmt.Sprintf(
			"mcp-surface guard: %s %q is not in the lock of server %s and no listing of this session served it: list the %ss first (the guard checks them) or lock the server again; review it with `%s`",
			v.Kind, name, s.opts.Entry.Key(), v.Kind, ReviewCommand), v.Kind, name)
	}
	if v.Kind == finding.KindResourceTemplate && kind == finding.KindResource {
		return errorAnswer(env.ID, fmt.Sprintf(
			"mcp-surface guard: resource %q is read through a resource template of server %s that changed since it was locked and is blocked: %s%s; review it with `%s`",
			name, s.opts.Entry.Key(), v.Threat, rulesNote(v.Rules), ReviewCommand), kind, name)
	}
	return errorAnswer(env.ID, fmt.Sprintf(
		"mcp-surface guard: %s %q of server %s changed since it was locked and is blocked: %s%s; review it with `%s`",
		v.Kind, name, s.opts.Entry.Key(), v.Threat, rulesNote(v.Rules), ReviewCommand), v.Kind, name)
}

// verdictForCall is why a call of the item kind name is not to be
// forwarded ("" to forward it), with the verdict that says so.
func (s *Session) verdictForCall(kind, name string) (verdict, string) {
	if it, ok := s.seen[kind][name]; ok {
		if it.blocked {
			return it.v, "it is blocked (" + it.v.Why + ")"
		}
		return verdict{}, ""
	}
	k, _ := manifest.KindOfSubject(kind)
	if kind == finding.KindResource {
		// A skill's SKILL.md is read as a resource.
		if it, ok := s.seen[finding.KindSkill][name]; ok && it.blocked {
			return it.v, "it is blocked (" + it.v.Why + ")"
		}
		if _, locked := s.j.locked(k.List, name); locked {
			return verdict{}, ""
		}
		for tmpl, it := range s.seen[finding.KindResourceTemplate] {
			if it.blocked && templateMatches(tmpl, name) {
				v := it.v
				v.Kind = finding.KindResourceTemplate
				return v, fmt.Sprintf("it is read through resource template %q, which is blocked (%s)", tmpl, it.v.Why)
			}
		}
		// Resources are also reached through links and templates: an
		// unlisted one is the server's business.
		return verdict{}, ""
	}
	if s.holds(kind, name) {
		// Approved by the lock; what the server lists of it now, the
		// guard checks when it is listed.
		return verdict{}, ""
	}
	return verdict{Kind: kind}, "it is not in the lock and no listing of this session served it"
}

// calledItem is the item a request uses, for the methods that use one
// (groups/get: the group, by its key).
func (s *Session) calledItem(method string, msg []byte) (kind, name string, ok bool) {
	var kindOf string
	switch method {
	case capture.MethodGroupsGet:
		kindOf = finding.KindGroup
	case capture.MethodToolsCall:
		kindOf = finding.KindTool
	case capture.MethodPromptsGet:
		kindOf = finding.KindPrompt
	case capture.MethodResourcesRead:
		kindOf = finding.KindResource
	default:
		return "", "", false
	}
	var p callParams
	if json.Unmarshal(msg, &p) != nil {
		return "", "", false
	}
	switch kindOf {
	case finding.KindResource:
		return kindOf, p.Params.URI, true
	case finding.KindGroup:
		return kindOf, manifest.Group{Extension: s.j.groupExt(), Name: p.Params.Name}.Key(), true
	}
	return kindOf, p.Params.Name, true
}
