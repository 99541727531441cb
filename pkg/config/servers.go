package config

import (
	"maps"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// Revisions are the protocol revisions a server's protocolVersion: may
// name, newest first: pkg/capture's (pkg/check's tests hold them equal).
var Revisions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Server is one entry of servers:. Exactly one of Command and URL is set.
type Server struct {
	Name    string
	Command []string
	URL     string
	Env     map[string]string
	// Headers are added to every HTTP request (url only). Values may
	// name environment variables as ${VAR}; they are kept unexpanded
	// here (the CLI expands them) and are never printed.
	Headers map[string]string
	// SSE selects the legacy HTTP+SSE transport (url only).
	SSE bool
	// Cwd is the working directory of the command, relative to the
	// file's directory (command only; "" = the file's directory).
	Cwd string
	// Shell runs the command through /bin/sh -c (command only). A
	// command written as one string is then kept whole, not split.
	Shell bool
	// ProtocolVersion is the revision to request ("" = the default).
	ProtocolVersion string
	// ShutdownGrace is the server's capture.Limits.ShutdownGrace
	// (shutdownGrace:, command only; 0 = the default).
	ShutdownGrace time.Duration
	Snapshot      string // path of the committed snapshot, relative to the file
	// Probes are the declared calls a capture makes after the lists
	// (probes:, the fields of capture.Probe). Their results are never
	// part of the snapshot; pkg/probe judges them. Argument values may
	// name environment variables as ${VAR}, kept unexpanded here.
	Probes []Probe
	// RequireProbes lists what the probes must exercise (require-probes:):
	// probe methods (tools/call, prompts/get, resources/read,
	// completion/complete) or RequireAllAdvertised.
	RequireProbes []string
	Line          int
}

// RequireAllAdvertised in require-probes: stands for every probe method
// whose capability the server advertises.
const RequireAllAdvertised = "all-advertised"

func (p *parser) servers(n *yaml.Node) []Server {
	var out []Server
	names := map[string]bool{}
	for _, e := range p.entries(n, "servers must be a list") {
		se := serverEntry{Server: Server{Line: e.Line}, urlOnly: map[string]*yaml.Node{}, commandOnly: map[string]*yaml.Node{}}
		if !p.mapped(e, "a server", p.serverKeys(&se)) {
			continue
		}
		s, urlOnly, commandOnly, commandScalar := se.Server, se.urlOnly, se.commandOnly, se.commandScalar
		if s.Shell && commandScalar != nil {
			// One string for the shell: keep its quoting.
			s.Command = []string{strings.TrimSpace(commandScalar.Value)}
		}
		misplaced := func(keys map[string]*yaml.Node, need string) bool {
			bad := false
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				p.errf(keys[k], "%s applies only to a server with %s", k, need)
				bad = true
			}
			return bad
		}
		switch {
		case s.Name == "":
			p.errf(e, "a server needs a name")
		case names[s.Name]:
			p.errf(e, "server name %q repeated", s.Name)
		case (len(s.Command) == 0) == (s.URL == ""):
			p.errf(e, "server %q needs exactly one of command and url", s.Name)
		case s.URL != "" && misplaced(commandOnly, "a command"):
		case len(s.Command) > 0 && misplaced(urlOnly, "a url"):
		default:
			names[s.Name] = true
			out = append(out, s)
		}
	}
	return out
}

// serverEntry is a server being parsed, with what the checks after its
// keys need: the keys that apply to one kind of server only, with their
// node, and a command written as one string.
type serverEntry struct {
	Server
	urlOnly, commandOnly map[string]*yaml.Node
	commandScalar        *yaml.Node
}

// serverKeys is the table of a server's keys.
func (p *parser) serverKeys(se *serverEntry) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"name": set(p, &se.Name, "name", (*parser).str),
		"command": func(v *yaml.Node) {
			switch v.Kind {
			case yaml.SequenceNode:
				se.Command = p.strings(v, "command")
			case yaml.ScalarNode:
				se.Command = strings.Fields(v.Value)
				se.commandScalar = v
			default:
				p.errf(v, "command must be a string or a list of arguments")
			}
		},
		"url": set(p, &se.URL, "url", (*parser).str),
		"env": func(v *yaml.Node) {
			if m, ok := p.stringMap(v, "env must be a mapping of names to values", "env", nil, nil); ok {
				se.Env = m
			}
		},
		"snapshot": set(p, &se.Snapshot, "snapshot", (*parser).str),
		"probes":   func(v *yaml.Node) { se.Probes = p.probes(v) },
		"headers": func(v *yaml.Node) {
			se.urlOnly["headers"] = v
			validName := func(k *yaml.Node) bool {
				if !httpToken().MatchString(k.Value) {
					p.errf(k, "header name %q is not a valid HTTP header name", k.Value)
					return false
				}
				return true
			}
			oneLine := func(n *yaml.Node, name, x string) bool {
				if strings.ContainsAny(x, "\r\n") {
					p.errf(n, "header %s: the value must be one line", name)
					return false
				}
				return true
			}
			if m, ok := p.stringMap(v, "headers must be a mapping of header names to values", "header", validName, oneLine); ok {
				se.Headers = m
			}
		},
		"sse":   noting(se.urlOnly, "sse", set(p, &se.SSE, "sse", (*parser).boolean)),
		"cwd":   noting(se.commandOnly, "cwd", set(p, &se.Cwd, "cwd", (*parser).str)),
		"shell": noting(se.commandOnly, "shell", set(p, &se.Shell, "shell", (*parser).boolean)),
		"shutdownGrace": func(v *yaml.Node) {
			se.commandOnly["shutdownGrace"] = v
			x, ok := p.scalar(v, "shutdownGrace")
			if !ok {
				return
			}
			d, err := time.ParseDuration(x)
			if err != nil || d <= 0 {
				p.errf(v, "shutdownGrace %q: use a positive duration such as 500ms or 2s", x)
				return
			}
			se.ShutdownGrace = d
		},
		"protocolVersion": oneOf(p, &se.ProtocolVersion, "protocolVersion", Revisions, "use one of "+strings.Join(Revisions, ", ")),
		"require-probes":  func(v *yaml.Node) { se.RequireProbes = p.requireProbes(v) },
	}
}

// httpToken is an HTTP header name (RFC 9110 token).
var httpToken = lazyre.New("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

var requireNames = append(slices.Clone(ProbeMethods), RequireAllAdvertised)

// requireProbes parses require-probes: a list of probe methods or
// all-advertised, or one of them alone.
func (p *parser) requireProbes(n *yaml.Node) []string {
	var entries []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		entries = []*yaml.Node{n}
	case yaml.SequenceNode:
		entries = n.Content
	default:
		p.errf(n, "require-probes must be a list of %s", strings.Join(requireNames, ", "))
		return nil
	}
	out := []string{}
	for _, e := range entries {
		x, ok := p.scalar(e, "require-probes entry")
		if !ok {
			continue
		}
		if !slices.Contains(requireNames, x) {
			p.errf(e, "require-probes: unknown entry %q: use %s%s", x, strings.Join(requireNames, ", "), didYouMean(x, requireNames))
			continue
		}
		if slices.Contains(out, x) {
			p.errf(e, "require-probes: %q repeated", x)
			continue
		}
		out = append(out, x)
	}
	return out
}
