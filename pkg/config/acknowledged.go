package config

import (
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// Ack acknowledges findings. Every field that is set must match (AND);
// Rule, SubjectName and Pointer are globs: * matches within a JSON Pointer
// segment (no /), ** matches anything, ? one character.
type Ack struct {
	Rule        string
	SubjectKind string // Kind*; "" = any subject
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

// The subject kinds an acknowledgement names: the values of
// finding.Subject.Kind (pkg/policy's tests hold them equal).
const (
	KindTool             = "tool"
	KindPrompt           = "prompt"
	KindResource         = "resource"
	KindResourceTemplate = "resource-template"
	KindServer           = "server"
	KindSkill            = "skill"
	KindGroup            = "group"
)

// Subject keys of an acknowledgement.
var subjectKeys = map[string]string{
	"tool": KindTool, "prompt": KindPrompt, "resource": KindResource,
	"template": KindResourceTemplate, "resource-template": KindResourceTemplate,
	"server": KindServer, "skill": KindSkill, "group": KindGroup,
}

var hex16 = lazyre.New(`^[0-9a-f]{16}$`)

func (p *parser) acks(n *yaml.Node) []Ack {
	var out []Ack
	for _, e := range p.entries(n, "acknowledged must be a list of entries") {
		a := Ack{Line: e.Line}
		if !p.mapped(e, "an acknowledgement", p.ackKeys(&a)) {
			continue
		}
		switch {
		case a.Rule == "" && a.Fingerprint == "":
			p.errf(e, "an acknowledgement needs a rule or a fingerprint")
		case strings.TrimSpace(a.Reason) == "":
			p.errf(e, "an acknowledgement needs a reason: say why the change is accepted")
		case strings.EqualFold(strings.TrimSpace(a.Reason), "TODO"):
			p.errf(e, "reason is still the TODO placeholder: say why the change is accepted")
		case a.Fingerprint != "" && !hex16().MatchString(a.Fingerprint):
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

// ackKeys is the table of an acknowledgement's keys.
func (p *parser) ackKeys(a *Ack) map[string]func(*yaml.Node) {
	keys := map[string]func(*yaml.Node){
		"rule":        set(p, &a.Rule, "rule", (*parser).scalar),
		"pointer":     set(p, &a.Pointer, "pointer", (*parser).scalar),
		"fingerprint": set(p, &a.Fingerprint, "fingerprint", (*parser).scalar),
		"reason":      set(p, &a.Reason, "reason", (*parser).scalar),
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
				if kind == KindServer {
					a.SubjectName = "" // `server: true`
				}
			}
		}
	}
	return keys
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

// AckTarget is what an acknowledgement is matched against: a finding's
// identity (pkg/policy fills it from a finding.Finding).
type AckTarget struct {
	Rule, Fingerprint, Pointer string
	SubjectKind, SubjectName   string
}

// Matches reports whether the acknowledgement covers t.
func (a *Ack) Matches(t AckTarget) bool {
	if a.Fingerprint != "" && a.Fingerprint != t.Fingerprint {
		return false
	}
	if a.rule != nil && !a.rule.MatchString(t.Rule) {
		return false
	}
	if a.Rule != "" && a.rule == nil && a.Rule != t.Rule {
		return false
	}
	if a.SubjectKind != "" {
		if t.SubjectKind != a.SubjectKind {
			return false
		}
		if a.SubjectName != "" && !globMatch(a.name, a.SubjectName, t.SubjectName) {
			return false
		}
	}
	if a.Pointer != "" && !globMatch(a.pointer, a.Pointer, t.Pointer) {
		return false
	}
	return true
}

func globMatch(re interface{ MatchString(string) bool }, raw, s string) bool {
	if re == nil {
		return raw == s
	}
	return re.MatchString(s)
}
