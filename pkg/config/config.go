package config

import (
	"context"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// DefaultFile is the configuration file read when present.
const DefaultFile = ".mcp-surface.yaml"

// Profiles for the rules pkg/rules tags `strict`.
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
	// Cost configures the context cost and its budgets (cost:).
	Cost Cost
	// AcceptLabel is the pull-request label that accepts the pull
	// request's breaking changes in the action (acceptLabel:); "" for the
	// action's default.
	AcceptLabel string
	// Servers to capture (servers:), for `check` and `snapshot` over
	// several servers. Parsed now; used by later commands.
	Servers []Server
	// Clients are the client profiles every tool is checked against
	// (clients:), by the lint of validate and check and by the diff, as
	// written: the profiles are pkg/spec/clients' data, so pkg/check
	// resolves them (pkg/check) and reports an unknown one at
	// its line.
	Clients []ClientRef
}

// ClientRef is one entry of clients:, a profile name ("openai") or a
// profile and the server name it prefixes tools with
// ("claude-code:github").
type ClientRef struct {
	Profile string
	Line    int
}

// Err is the error of the configuration at line (an Errors of one
// entry), for what a later stage finds wrong with a value it parsed.
func (c *Config) Err(line int, msg string) error {
	return Errors{{File: c.File, Line: line, Msg: msg}}
}

// MaxFileBytes bounds a configuration file: about a thousand times a large
// real one, so that a mistake (a snapshot or /dev/zero given as the
// configuration) fails at once instead of filling memory.
const MaxFileBytes int64 = 4 << 20

// Load reads and parses a configuration file.
func Load(path string) (*Config, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is Load that stops when ctx is cancelled (a FIFO given as
// the file waits for its writer).
func LoadContext(ctx context.Context, path string) (*Config, error) {
	data, err := infile.Read(ctx, path, "a configuration file", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

// Parse parses the configuration; name is used in messages. Unknown keys
// and bad values are reported with their line, all at once (Errors).
func Parse(name string, data []byte) (*Config, error) {
	c := &Config{File: name, Version: 1}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
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
	p.mapping(root, "the file", p.fileKeys(c))
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return c, nil
}

// fileKeys is the table of the file's top-level keys. Each table of keys
// is a method of its own so that a test can hold them against
// schema/config.schema.json.
func (p *parser) fileKeys(c *Config) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
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
		"lifecycle":            func(n *yaml.Node) { p.mapping(n, "lifecycle", p.lifecycleKeys(&c.Lifecycle)) },
		"reservedMetaPrefixes": func(n *yaml.Node) { c.ReservedMetaPrefixes = p.strings(n, "reservedMetaPrefixes") },
		"rename":               func(n *yaml.Node) { p.mapping(n, "rename", p.renameKeys(&c.Rename)) },
		"text":                 func(n *yaml.Node) { p.mapping(n, "text", p.textKeys(&c.Text)) },
		"cost":                 func(n *yaml.Node) { c.Cost = p.cost(n) },
		"servers":              func(n *yaml.Node) { c.Servers = p.servers(n) },
		"clients":              func(n *yaml.Node) { c.Clients = p.clients(n) },
		"acceptLabel": func(n *yaml.Node) {
			if s, ok := p.scalar(n, "acceptLabel"); ok {
				if strings.TrimSpace(s) == "" {
					p.errf(n, "acceptLabel must name a label")
				} else {
					c.AcceptLabel = s
				}
			}
		},
	}
}

// clients parses the list of client profiles, each with its line.
func (p *parser) clients(n *yaml.Node) []ClientRef {
	var out []ClientRef
	for _, e := range p.entries(n, "clients must be a list of client profile names") {
		s, ok := p.str(e, "clients entry")
		if !ok {
			continue
		}
		out = append(out, ClientRef{Profile: s, Line: e.Line})
	}
	return out
}
