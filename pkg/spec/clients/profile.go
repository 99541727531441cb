package clients

import (
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

//go:embed profiles/*.yaml
var files embed.FS

// Constraint kinds.
const (
	KindToolName     = "tool-name"
	KindToolCount    = "tool-count"
	KindKeywords     = "schema-keywords"
	KindSingleType   = "schema-single-type"
	KindClosedObject = "schema-closed-objects"
	KindAllRequired  = "schema-all-required"
)

// ruleOf is the rule each kind of constraint reports.
var ruleOf = map[string]string{
	KindToolName:     rules.ClientToolNameRejected,
	KindToolCount:    rules.ClientToolCountExceeded,
	KindKeywords:     rules.ClientSchemaKeywordUnsupported,
	KindSingleType:   rules.ClientSchemaTypeUnion,
	KindClosedObject: rules.ClientSchemaObjectOpen,
	KindAllRequired:  rules.ClientSchemaPropertyOptional,
}

// Profile is one provider's or client's constraints.
type Profile struct {
	// Name is how users select it (validate --clients NAME).
	Name string `yaml:"name"`
	// Provider is the company whose documentation the constraints cite;
	// Client is set when the profile is an MCP client rather than a model
	// API.
	Provider string `yaml:"provider"`
	Client   string `yaml:"client,omitempty"`
	// Title names the profile for people.
	Title       string       `yaml:"title"`
	Constraints []Constraint `yaml:"constraints"`
	// Server is the name a prefixing client puts before tool names (the
	// parameter of "claude-code:SERVER"); "" means the server's own name.
	Server string `yaml:"-"`
}

// Constraint is one documented restriction.
type Constraint struct {
	Kind string `yaml:"kind"`
	// Pattern is the RE2 expression a tool name must match (tool-name),
	// after Prefix, in which {server} stands for the server's name.
	Pattern string `yaml:"pattern,omitempty"`
	Prefix  string `yaml:"prefix,omitempty"`
	// Max is the most tools one request carries (tool-count).
	Max int `yaml:"max,omitempty"`
	// Keywords are the only schema keywords accepted (schema-keywords).
	Keywords []string `yaml:"keywords,omitempty"`
	// Reason is the documented rule, in a few words.
	Reason string `yaml:"reason"`
	// Source is the documentation the constraint comes from; Also a
	// second page it relies on. Checked is the day (YYYY-MM-DD) the
	// constraint was last compared with Source.
	Source  string `yaml:"source"`
	Also    string `yaml:"also,omitempty"`
	Checked string `yaml:"checked"`

	re *regexp.Regexp
}

// Rule is the rule ID the constraint reports.
func (c Constraint) Rule() string { return ruleOf[c.Kind] }

// builtin are the embedded profiles, by name, read at first use: decoding
// the YAML and compiling the patterns is most of this package's cost, and
// only the commands that check clients need it. A file that does not load
// is a defect of this package, caught by its tests.
var builtin = sync.OnceValue(func() map[string]Profile { return mustLoad(files) })

func mustLoad(fsys fs.FS) map[string]Profile {
	ps, err := load(fsys)
	if err != nil {
		panic("clients: " + err.Error())
	}
	return ps
}

// load reads and checks every profile file.
func load(fsys fs.FS) (map[string]Profile, error) {
	names, err := fs.Glob(fsys, "profiles/*.yaml")
	if err != nil {
		return nil, err
	}
	out := map[string]Profile{}
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		// The file type has Profile's fields without its text form.
		type file Profile
		var f file
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		p := Profile(f)
		if want := strings.TrimSuffix(path.Base(n), ".yaml"); p.Name != want {
			return nil, fmt.Errorf("%s: profile is named %q; the file must be %s.yaml", n, p.Name, p.Name)
		}
		if err := p.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out[p.Name] = p
	}
	return out, nil
}

// check rejects a profile with an undocumented or malformed constraint.
func (p *Profile) check() error {
	if p.Provider == "" || p.Title == "" || len(p.Constraints) == 0 {
		return fmt.Errorf("profile %s needs a provider, a title and constraints", p.Name)
	}
	for i := range p.Constraints {
		c := &p.Constraints[i]
		if c.Rule() == "" {
			return fmt.Errorf("constraint %d: unknown kind %q", i, c.Kind)
		}
		if strings.TrimSpace(c.Reason) == "" {
			return fmt.Errorf("constraint %d (%s): no reason", i, c.Kind)
		}
		for j, u := range []string{c.Source, c.Also} {
			if u == "" && j > 0 {
				continue // Also is optional
			}
			if pu, err := url.Parse(u); err != nil || pu.Scheme != "https" || pu.Host == "" {
				return fmt.Errorf("constraint %d (%s): the documentation %q is not an https URL", i, c.Kind, u)
			}
		}
		if _, err := time.Parse(time.DateOnly, c.Checked); err != nil {
			return fmt.Errorf("constraint %d (%s): checked %q is not a date (YYYY-MM-DD)", i, c.Kind, c.Checked)
		}
		switch c.Kind {
		case KindToolName:
			re, err := regexp.Compile(c.Pattern)
			if err != nil {
				return fmt.Errorf("constraint %d (%s): pattern: %w", i, c.Kind, err)
			}
			c.re = re
		case KindToolCount:
			if c.Max <= 0 {
				return fmt.Errorf("constraint %d (%s): max must be positive", i, c.Kind)
			}
		case KindKeywords:
			if len(c.Keywords) == 0 {
				return fmt.Errorf("constraint %d (%s): no keywords", i, c.Kind)
			}
		}
	}
	return nil
}

// prefixed reports whether the profile puts the server's name before tool
// names.
func (p Profile) prefixed() bool {
	return slices.ContainsFunc(p.Constraints, func(c Constraint) bool { return strings.Contains(c.Prefix, "{server}") })
}

// Names lists the built-in profiles, sorted.
func Names() []string {
	ps := builtin()
	out := make([]string, 0, len(ps))
	for n := range ps {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// All returns the built-in profiles, sorted by name.
func All() []Profile {
	ps := builtin()
	out := make([]Profile, 0, len(ps))
	for _, n := range Names() {
		out = append(out, ps[n])
	}
	return out
}

// Parse selects a profile by name; "NAME:SERVER" sets the server name of
// a prefixing client.
func Parse(s string) (Profile, error) {
	name, server, hasServer := strings.Cut(strings.TrimSpace(s), ":")
	p, ok := builtin()[name]
	if !ok {
		return Profile{}, fmt.Errorf("unknown client profile %q: use one of %s", name, strings.Join(Names(), ", "))
	}
	if hasServer {
		if !p.prefixed() {
			return Profile{}, fmt.Errorf("client profile %s does not prefix tool names and takes no server name (%q)", name, s)
		}
		if server == "" {
			return Profile{}, fmt.Errorf("client profile %q: the server name after the colon is empty", s)
		}
		p.Server = server
	}
	return p, nil
}

// ParseList parses profile names, each entry possibly a comma-separated
// list, dropping empty entries and repeats.
func ParseList(entries []string) ([]Profile, error) {
	var out []Profile
	seen := map[string]bool{}
	for _, e := range entries {
		for _, s := range strings.Split(e, ",") {
			s = strings.TrimSpace(s)
			if s == "" || seen[s] {
				continue
			}
			seen[s] = true
			p, err := Parse(s)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Label names the profile in messages: its name, with the server when set.
func (p Profile) Label() string {
	if p.Server != "" {
		return p.Name + ":" + p.Server
	}
	return p.Name
}

// UnmarshalText makes a profile name ("gemini", "claude-code:github") a
// Profile wherever options are decoded (configuration, JSON options).
func (p *Profile) UnmarshalText(b []byte) error {
	q, err := Parse(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// MarshalText writes the profile as its name (Label).
func (p Profile) MarshalText() ([]byte, error) { return []byte(p.Label()), nil }
