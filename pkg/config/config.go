package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// DefaultFile is the configuration file read when present.
const DefaultFile = ".mcp-surface.yaml"

// Profiles for the rules the catalog tags `strict`.
const (
	ProfileDefault = "default"
	// ProfileStrict raises every strict-tagged rule to breaking (Confluent
	// STRICT set semantics: an open content model accepts any value under
	// a new name, so adding or removing names is incompatible).
	ProfileStrict = "strict"
	// ProfileLenient lowers every strict-tagged rule to minor (robustness
	// principle: additions and removals under open content models are
	// compatible).
	ProfileLenient = "lenient"
)

// Config is .mcp-surface.yaml. The zero value (no file) changes nothing.
type Config struct {
	// File is the name used in messages.
	File string
	// Version of the file format; 1 (the default).
	Version int
	// Profile is default, strict or lenient ("" = default).
	Profile string
	// Severity overrides per rule ID (severity:).
	Severity map[string]Override
	// Acknowledged changes (acknowledged:).
	Acknowledged []Ack
	// Lifecycle configures deprecation markers (lifecycle:).
	Lifecycle Lifecycle
	// ReservedMetaPrefixes replaces the diff's configured _meta prefixes
	// (reservedMetaPrefixes:); nil keeps the defaults.
	ReservedMetaPrefixes []string
	// Rename configures rename detection (rename:).
	Rename Rename
	// Text configures the model-visible text detectors (text:).
	Text Text
	// Servers to capture (servers:), for `check` and `snapshot` over
	// several servers. Parsed now; used by later commands.
	Servers []Server
}

// Override is one severity override.
type Override struct {
	// Off drops the rule's findings (written `off` or `none`).
	Off bool
	// Severity is the new severity when not Off. For spec and lint rules,
	// which have a level and no severity, its level is used.
	Severity rules.Severity
	Line     int
}

// Ack acknowledges findings. Every field that is set must match (AND);
// Rule, SubjectName and Pointer are globs: * matches within a JSON Pointer
// segment (no /), ** matches anything, ? one character.
type Ack struct {
	Rule        string
	SubjectKind string // finding.Kind*; "" = any subject
	SubjectName string
	Pointer     string
	Fingerprint string
	// Reason is required: why the change is accepted.
	Reason string
	// Expires is the last day (UTC) the acknowledgement is valid; zero =
	// never expires.
	Expires time.Time
	Line    int

	rule, name, pointer *regexp.Regexp
}

// Lifecycle configures deprecation markers; empty fields keep the diff's
// defaults.
type Lifecycle struct {
	DeprecatedMetaKey  string
	SunsetMetaKey      string
	DescriptionMarkers []string // nil = defaults
}

// Rename configures rename detection.
type Rename struct {
	// Disabled turns off content-based rename detection (case-only
	// renames are still reported).
	Disabled bool
	// Threshold is the similarity in (0, 1] above which a removed and an
	// added tool are a rename; 0 = default.
	Threshold float64
}

// Text configures the section J detectors; zero values keep the defaults.
type Text struct {
	InjectionPatterns   []string
	SensitivePatterns   []string
	NoDefaultPatterns   bool
	LengthSpikeRatio    float64
	LengthSpikeMinChars int
	EncodedMinLength    int
}

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
	Snapshot        string // path of the committed snapshot, relative to the file
	// Probes are the declared calls a capture makes after the lists
	// (probes:, same fields as capture.Probe). Their results are never
	// part of the snapshot; pkg/probe judges them. Argument values may
	// name environment variables as ${VAR}, kept unexpanded here.
	Probes []capture.Probe
	// RequireProbes lists what the probes must exercise (require-probes:):
	// probe methods (tools/call, prompts/get, resources/read,
	// completion/complete) or RequireAllAdvertised.
	RequireProbes []string
	Line          int
}

// RequireAllAdvertised in require-probes: stands for every probe method
// whose capability the server advertises.
const RequireAllAdvertised = "all-advertised"

// Error is a mistake in the file, with its line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Errors is every mistake found in one file.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Load reads and parses a configuration file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse parses the configuration; name is used in messages. Unknown keys
// and bad values are reported with their line, all at once (Errors).
func Parse(name string, data []byte) (*Config, error) {
	c := &Config{File: name, Version: 1}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, Errors{{File: name, Line: line, Msg: m[2]}}
		}
		return nil, Errors{{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	p := &parser{file: name}
	if len(doc.Content) == 0 {
		return c, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil
	}
	p.mapping(root, "the file", map[string]func(*yaml.Node){
		"version": func(n *yaml.Node) {
			if v, ok := p.integer(n, "version"); ok && v != 1 {
				p.errf(n, "version %d is not supported (this mcp-surface reads version 1)", v)
			}
		},
		"profile": func(n *yaml.Node) {
			if s, ok := p.scalar(n, "profile"); ok {
				switch s {
				case ProfileDefault, ProfileStrict, ProfileLenient:
					c.Profile = s
				default:
					p.errf(n, "unknown profile %q: use default, strict or lenient%s", s, didYouMean(s, []string{"default", "strict", "lenient"}))
				}
			}
		},
		"severity":             func(n *yaml.Node) { c.Severity = p.severity(n) },
		"acknowledged":         func(n *yaml.Node) { c.Acknowledged = p.acks(n) },
		"lifecycle":            func(n *yaml.Node) { c.Lifecycle = p.lifecycle(n) },
		"reservedMetaPrefixes": func(n *yaml.Node) { c.ReservedMetaPrefixes = p.strings(n, "reservedMetaPrefixes") },
		"rename":               func(n *yaml.Node) { c.Rename = p.rename(n) },
		"text":                 func(n *yaml.Node) { c.Text = p.text(n) },
		"servers":              func(n *yaml.Node) { c.Servers = p.servers(n) },
	})
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return c, nil
}

type parser struct {
	file string
	errs Errors
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

// mapping walks a mapping node, calling the handler of each key and
// reporting unknown and repeated keys.
func (p *parser) mapping(n *yaml.Node, what string, keys map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "%s must be a mapping", what)
		return
	}
	known := make([]string, 0, len(keys))
	for k := range keys {
		known = append(known, k)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			p.errf(k, "key %q repeated", k.Value)
			continue
		}
		seen[k.Value] = true
		h, ok := keys[k.Value]
		if !ok {
			p.errf(k, "unknown key %q%s", k.Value, didYouMean(k.Value, known))
			continue
		}
		h(v)
	}
}

func (p *parser) scalar(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errf(n, "%s must be a single value", what)
		return "", false
	}
	return n.Value, true
}

func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	s, ok := p.scalar(n, what)
	if ok && n.Tag != "!!str" {
		p.errf(n, "%s must be a string (quote it)", what)
		return "", false
	}
	return s, ok
}

func (p *parser) integer(n *yaml.Node, what string) (int, bool) {
	s, ok := p.scalar(n, what)
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil || n.Tag != "!!int" {
		p.errf(n, "%s must be an integer, not %q", what, s)
		return 0, false
	}
	return v, true
}

func (p *parser) number(n *yaml.Node, what string) (float64, bool) {
	s, ok := p.scalar(n, what)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || (n.Tag != "!!int" && n.Tag != "!!float") {
		p.errf(n, "%s must be a number, not %q", what, s)
		return 0, false
	}
	return v, true
}

func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	s, ok := p.scalar(n, what)
	if !ok {
		return false, false
	}
	if n.Tag != "!!bool" {
		p.errf(n, "%s must be true or false, not %q", what, s)
		return false, false
	}
	return s == "true" || s == "True" || s == "TRUE", true
}

func (p *parser) strings(n *yaml.Node, what string) []string {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "%s must be a list", what)
		return nil
	}
	out := []string{}
	for _, e := range n.Content {
		if s, ok := p.str(e, what+" entry"); ok {
			out = append(out, s)
		}
	}
	return out
}

// severity parses `severity: {rule-id: breaking|risky|minor|patch|info|off}`.
func (p *parser) severity(n *yaml.Node) map[string]Override {
	if n.Kind != yaml.MappingNode {
		p.errf(n, "severity must be a mapping of rule IDs to severities")
		return nil
	}
	out := map[string]Override{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := out[k.Value]; dup {
			p.errf(k, "rule %q repeated", k.Value)
			continue
		}
		if _, ok := rules.Lookup(k.Value); !ok {
			p.errf(k, "unknown rule %q%s", k.Value, suggestRule(k.Value))
			continue
		}
		s, ok := p.scalar(v, "severity of "+k.Value)
		if !ok {
			continue
		}
		o, err := parseOverride(s)
		if err != nil {
			p.errf(v, "%s: %v", k.Value, err)
			continue
		}
		o.Line = k.Line
		out[k.Value] = o
	}
	return out
}

var severityNames = []string{"breaking", "risky", "minor", "patch", "info", "off", "none", "error", "warning", "note"}

func parseOverride(s string) (Override, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off", "none", "false":
		return Override{Off: true}, nil
	case "breaking", "error":
		return Override{Severity: rules.SeverityBreaking}, nil
	case "risky", "warning":
		return Override{Severity: rules.SeverityRisky}, nil
	case "minor", "note":
		return Override{Severity: rules.SeverityMinor}, nil
	case "patch":
		return Override{Severity: rules.SeverityPatch}, nil
	case "info":
		return Override{Severity: rules.SeverityInfo}, nil
	}
	return Override{}, fmt.Errorf("unknown severity %q: use breaking, risky, minor, patch, info or off (error, warning and note are accepted)%s", s, didYouMean(s, severityNames))
}

// Subject keys of an acknowledgement.
var subjectKeys = map[string]string{
	"tool": finding.KindTool, "prompt": finding.KindPrompt, "resource": finding.KindResource,
	"template": finding.KindResourceTemplate, "resource-template": finding.KindResourceTemplate,
	"server": finding.KindServer,
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

func (p *parser) acks(n *yaml.Node) []Ack {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "acknowledged must be a list of entries")
		return nil
	}
	var out []Ack
	for _, e := range n.Content {
		a := Ack{Line: e.Line}
		set := func(field *string, what string) func(*yaml.Node) {
			return func(v *yaml.Node) {
				if s, ok := p.scalar(v, what); ok {
					*field = s
				}
			}
		}
		keys := map[string]func(*yaml.Node){
			"rule":        set(&a.Rule, "rule"),
			"pointer":     set(&a.Pointer, "pointer"),
			"fingerprint": set(&a.Fingerprint, "fingerprint"),
			"reason":      set(&a.Reason, "reason"),
			"expires": func(v *yaml.Node) {
				s, ok := p.scalar(v, "expires")
				if !ok {
					return
				}
				t, err := time.Parse("2006-01-02", s)
				if err != nil {
					p.errf(v, "expires must be a date YYYY-MM-DD, not %q", s)
					return
				}
				a.Expires = t
			},
		}
		for key, kind := range subjectKeys {
			keys[key] = func(v *yaml.Node) {
				if a.SubjectKind != "" {
					p.errf(v, "an acknowledgement names one subject (tool, prompt, resource, template or server)")
					return
				}
				if s, ok := p.scalar(v, key); ok {
					a.SubjectKind, a.SubjectName = kind, s
					if kind == finding.KindServer {
						a.SubjectName = "" // `server: true`
					}
				}
			}
		}
		before := len(p.errs)
		p.mapping(e, "an acknowledgement", keys)
		if len(p.errs) > before {
			continue
		}
		switch {
		case a.Rule == "" && a.Fingerprint == "":
			p.errf(e, "an acknowledgement needs a rule or a fingerprint")
		case strings.TrimSpace(a.Reason) == "":
			p.errf(e, "an acknowledgement needs a reason: say why the change is accepted")
		case strings.EqualFold(strings.TrimSpace(a.Reason), "TODO"):
			p.errf(e, "reason is still the TODO placeholder: say why the change is accepted")
		case a.Fingerprint != "" && !hex16.MatchString(a.Fingerprint):
			p.errf(e, "fingerprint %q is not 16 lower-case hex digits", a.Fingerprint)
		case a.Rule != "" && !strings.ContainsAny(a.Rule, "*?") && !known(a.Rule):
			p.errf(e, "unknown rule %q%s", a.Rule, suggestRule(a.Rule))
		default:
			a.rule = glob(a.Rule)
			a.name = glob(a.SubjectName)
			a.pointer = glob(a.Pointer)
			out = append(out, a)
		}
	}
	return out
}

func known(id string) bool { _, ok := rules.Lookup(id); return ok }

func (p *parser) lifecycle(n *yaml.Node) Lifecycle {
	var l Lifecycle
	p.mapping(n, "lifecycle", map[string]func(*yaml.Node){
		"deprecatedMetaKey": func(v *yaml.Node) {
			if s, ok := p.str(v, "deprecatedMetaKey"); ok {
				l.DeprecatedMetaKey = s
			}
		},
		"sunsetMetaKey": func(v *yaml.Node) {
			if s, ok := p.str(v, "sunsetMetaKey"); ok {
				l.SunsetMetaKey = s
			}
		},
		"descriptionMarkers": func(v *yaml.Node) { l.DescriptionMarkers = p.strings(v, "descriptionMarkers") },
	})
	return l
}

func (p *parser) rename(n *yaml.Node) Rename {
	var r Rename
	p.mapping(n, "rename", map[string]func(*yaml.Node){
		"enabled": func(v *yaml.Node) {
			if b, ok := p.boolean(v, "rename.enabled"); ok {
				r.Disabled = !b
			}
		},
		"threshold": func(v *yaml.Node) {
			if f, ok := p.number(v, "rename.threshold"); ok {
				if f <= 0 || f > 1 {
					p.errf(v, "rename.threshold must be in (0, 1], not %v", f)
					return
				}
				r.Threshold = f
			}
		},
	})
	return r
}

func (p *parser) text(n *yaml.Node) Text {
	var t Text
	patterns := func(dst *[]string, what string) func(*yaml.Node) {
		return func(v *yaml.Node) {
			if v.Kind != yaml.SequenceNode {
				p.errf(v, "%s must be a list of regular expressions", what)
				return
			}
			for _, e := range v.Content {
				s, ok := p.str(e, what+" entry")
				if !ok {
					continue
				}
				if _, err := regexp.Compile(s); err != nil {
					p.errf(e, "%s: invalid regular expression: %v", what, err)
					continue
				}
				*dst = append(*dst, s)
			}
		}
	}
	p.mapping(n, "text", map[string]func(*yaml.Node){
		"injectionPatterns": patterns(&t.InjectionPatterns, "text.injectionPatterns"),
		"sensitivePatterns": patterns(&t.SensitivePatterns, "text.sensitivePatterns"),
		"defaultPatterns": func(v *yaml.Node) {
			if b, ok := p.boolean(v, "text.defaultPatterns"); ok {
				t.NoDefaultPatterns = !b
			}
		},
		"lengthSpikeRatio": func(v *yaml.Node) {
			if f, ok := p.number(v, "text.lengthSpikeRatio"); ok {
				if f < 1 {
					p.errf(v, "text.lengthSpikeRatio must be at least 1, not %v", f)
					return
				}
				t.LengthSpikeRatio = f
			}
		},
		"lengthSpikeMinChars": func(v *yaml.Node) {
			if i, ok := p.integer(v, "text.lengthSpikeMinChars"); ok {
				if i < 1 {
					p.errf(v, "text.lengthSpikeMinChars must be positive, not %d", i)
					return
				}
				t.LengthSpikeMinChars = i
			}
		},
		"encodedMinLength": func(v *yaml.Node) {
			if i, ok := p.integer(v, "text.encodedMinLength"); ok {
				if i < 8 {
					p.errf(v, "text.encodedMinLength must be at least 8, not %d", i)
					return
				}
				t.EncodedMinLength = i
			}
		},
	})
	return t
}

func (p *parser) servers(n *yaml.Node) []Server {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "servers must be a list")
		return nil
	}
	var out []Server
	names := map[string]bool{}
	for _, e := range n.Content {
		s := Server{Line: e.Line}
		before := len(p.errs)
		// Keys that only apply to one kind of server, with their line.
		urlOnly, commandOnly := map[string]*yaml.Node{}, map[string]*yaml.Node{}
		var commandScalar *yaml.Node
		p.mapping(e, "a server", map[string]func(*yaml.Node){
			"name": func(v *yaml.Node) {
				if x, ok := p.str(v, "name"); ok {
					s.Name = x
				}
			},
			"command": func(v *yaml.Node) {
				switch v.Kind {
				case yaml.SequenceNode:
					s.Command = p.strings(v, "command")
				case yaml.ScalarNode:
					s.Command = strings.Fields(v.Value)
					commandScalar = v
				default:
					p.errf(v, "command must be a string or a list of arguments")
				}
			},
			"url": func(v *yaml.Node) {
				if x, ok := p.str(v, "url"); ok {
					s.URL = x
				}
			},
			"env": func(v *yaml.Node) {
				if v.Kind != yaml.MappingNode {
					p.errf(v, "env must be a mapping of names to values")
					return
				}
				s.Env = map[string]string{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					if x, ok := p.scalar(v.Content[i+1], "env "+v.Content[i].Value); ok {
						s.Env[v.Content[i].Value] = x
					}
				}
			},
			"snapshot": func(v *yaml.Node) {
				if x, ok := p.str(v, "snapshot"); ok {
					s.Snapshot = x
				}
			},
			"probes": func(v *yaml.Node) { s.Probes = p.probes(v) },
			"headers": func(v *yaml.Node) {
				urlOnly["headers"] = v
				if v.Kind != yaml.MappingNode {
					p.errf(v, "headers must be a mapping of header names to values")
					return
				}
				s.Headers = map[string]string{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					k := v.Content[i]
					if !httpToken.MatchString(k.Value) {
						p.errf(k, "header name %q is not a valid HTTP header name", k.Value)
						continue
					}
					if x, ok := p.scalar(v.Content[i+1], "header "+k.Value); ok {
						if strings.ContainsAny(x, "\r\n") {
							p.errf(v.Content[i+1], "header %s: the value must be one line", k.Value)
							continue
						}
						s.Headers[k.Value] = x
					}
				}
			},
			"sse": func(v *yaml.Node) {
				urlOnly["sse"] = v
				if b, ok := p.boolean(v, "sse"); ok {
					s.SSE = b
				}
			},
			"cwd": func(v *yaml.Node) {
				commandOnly["cwd"] = v
				if x, ok := p.str(v, "cwd"); ok {
					s.Cwd = x
				}
			},
			"shell": func(v *yaml.Node) {
				commandOnly["shell"] = v
				if b, ok := p.boolean(v, "shell"); ok {
					s.Shell = b
				}
			},
			"protocolVersion": func(v *yaml.Node) {
				x, ok := p.scalar(v, "protocolVersion")
				if !ok {
					return
				}
				if !slices.Contains(capture.Revisions, x) {
					p.errf(v, "protocolVersion %q: use one of %s%s", x, strings.Join(capture.Revisions, ", "), didYouMean(x, capture.Revisions))
					return
				}
				s.ProtocolVersion = x
			},
			"require-probes": func(v *yaml.Node) { s.RequireProbes = p.requireProbes(v) },
		})
		if len(p.errs) > before {
			continue
		}
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

// httpToken is an HTTP header name (RFC 9110 token).
var httpToken = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

var requireNames = append(slices.Clone(capture.ProbeMethods), RequireAllAdvertised)

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

var probeMethods = capture.ProbeMethods

// probes parses a server's probes: into capture.Probe values.
func (p *parser) probes(n *yaml.Node) []capture.Probe {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "probes must be a list")
		return nil
	}
	var out []capture.Probe
	ids := map[string]bool{}
	for _, e := range n.Content {
		var pr capture.Probe
		str := func(dst *string, what string) func(*yaml.Node) {
			return func(v *yaml.Node) {
				if x, ok := p.scalar(v, what); ok {
					*dst = x
				}
			}
		}
		object := func(dst *json.RawMessage, what string) func(*yaml.Node) {
			return func(v *yaml.Node) {
				if v.Kind != yaml.MappingNode {
					p.errf(v, "%s must be a mapping", what)
					return
				}
				if b, err := yamlJSON(v); err != nil {
					p.errf(v, "%s: %v", what, err)
				} else {
					*dst = b
				}
			}
		}
		before := len(p.errs)
		p.mapping(e, "a probe", map[string]func(*yaml.Node){
			"id":            str(&pr.ID, "id"),
			"method":        str(&pr.Method, "method"),
			"name":          str(&pr.Name, "name"),
			"uri":           str(&pr.URI, "uri"),
			"argumentName":  str(&pr.ArgumentName, "argumentName"),
			"argumentValue": str(&pr.ArgumentValue, "argumentValue"),
			"arguments":     object(&pr.Arguments, "arguments"),
			"ref":           object(&pr.Ref, "ref"),
			"expect": func(v *yaml.Node) {
				x, ok := p.scalar(v, "expect")
				if !ok {
					return
				}
				if !slices.Contains(capture.Expectations, x) {
					p.errf(v, "expect %q: use %s%s", x, strings.Join(capture.Expectations, ", "), didYouMean(x, capture.Expectations))
					return
				}
				pr.Expect = x
			},
			"pin": func(v *yaml.Node) {
				x, ok := p.scalar(v, "pin")
				if !ok {
					return
				}
				if x != capture.PinShape {
					p.errf(v, "pin %q: the only pin is %q", x, capture.PinShape)
					return
				}
				pr.Pin = x
			},
			"allResources": func(v *yaml.Node) {
				if b, ok := p.boolean(v, "allResources"); ok {
					pr.AllResources = b
				}
			},
			"maxResources": func(v *yaml.Node) {
				if i, ok := p.integer(v, "maxResources"); ok {
					pr.MaxResources = i
				}
			},
			"context": func(v *yaml.Node) {
				if v.Kind != yaml.MappingNode {
					p.errf(v, "context must be a mapping of argument names to values")
					return
				}
				pr.Context = map[string]string{}
				for i := 0; i+1 < len(v.Content); i += 2 {
					if x, ok := p.scalar(v.Content[i+1], "context "+v.Content[i].Value); ok {
						pr.Context[v.Content[i].Value] = x
					}
				}
			},
		})
		if len(p.errs) > before {
			continue
		}
		if pr.ID == "" {
			pr.ID = strings.TrimSpace(pr.Method + " " + pr.Name + pr.URI)
		}
		switch {
		case !slices.Contains(probeMethods, pr.Method):
			p.errf(e, "probe method %q: use %s%s", pr.Method, strings.Join(probeMethods, ", "), didYouMean(pr.Method, probeMethods))
		case (pr.Method == capture.MethodToolsCall || pr.Method == capture.MethodPromptsGet) && pr.Name == "":
			p.errf(e, "a %s probe needs a name", pr.Method)
		case pr.Method == capture.MethodResourcesRead && (pr.URI == "") == !pr.AllResources:
			p.errf(e, "a resources/read probe needs exactly one of uri and allResources: true")
		case pr.Method == capture.MethodCompletionComplete && (pr.Ref == nil || pr.ArgumentName == ""):
			p.errf(e, "a completion/complete probe needs ref and argumentName")
		case pr.Expect == capture.ExpectIsError && pr.Method != capture.MethodToolsCall:
			p.errf(e, "expect: is-error applies to tools/call only (other methods answer ok or rpc-error)")
		case ids[pr.ID]:
			p.errf(e, "probe id %q repeated; give each probe an id", pr.ID)
		default:
			ids[pr.ID] = true
			out = append(out, pr)
		}
	}
	return out
}

// yamlJSON converts a YAML value to compact JSON.
func yamlJSON(n *yaml.Node) (json.RawMessage, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("not representable as JSON (keys must be strings)")
	}
	return b, nil
}

// glob compiles a glob: ** matches anything, * anything but /, ? one
// character but /. An empty glob gives nil (matches anything).
func glob(g string) *regexp.Regexp {
	if g == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch {
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case g[i] == '*':
			b.WriteString("[^/]*")
		case g[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// didYouMean suggests the closest candidate, or "".
func didYouMean(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := levenshtein(strings.ToLower(s), strings.ToLower(c))
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(s)/4) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func suggestRule(id string) string {
	ids := make([]string, 0, len(rules.All()))
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	if s := didYouMean(id, ids); s != "" {
		return s
	}
	if sug := rules.Suggest(id); len(sug) > 0 {
		return fmt.Sprintf(" (did you mean %q?)", sug[0])
	}
	return "; run `mcp-surface explain --list` for the rule IDs"
}

func levenshtein(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			c := prev[j-1]
			if x[i-1] != y[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(y)]
}
