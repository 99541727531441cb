package diff

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// An RFC 6570 template is a sequence of literals and expressions.
type tmplPart struct {
	literal string // for literals
	expr    bool
	op      string // "", "+", "#", ".", "/", ";", "?", "&"
	vars    []tmplVar
}

type tmplVar struct {
	name    string
	prefix  int // :n, 0 when absent
	explode bool
}

func (v tmplVar) String() string {
	s := v.name
	if v.prefix > 0 {
		s += ":" + strconv.Itoa(v.prefix)
	}
	if v.explode {
		s += "*"
	}
	return s
}

func (p tmplPart) query() bool { return p.op == "?" || p.op == "&" }

func (p tmplPart) String() string {
	vs := make([]string, len(p.vars))
	for i, v := range p.vars {
		vs[i] = v.String()
	}
	return "{" + p.op + strings.Join(vs, ",") + "}"
}

// parseTemplate parses an RFC 6570 URI template (levels 1-4).
func parseTemplate(s string) ([]tmplPart, error) {
	var parts []tmplPart
	for len(s) > 0 {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			if strings.IndexByte(s, '}') >= 0 {
				return nil, errors.New("unbalanced }")
			}
			parts = append(parts, tmplPart{literal: s})
			break
		}
		if i > 0 {
			if strings.IndexByte(s[:i], '}') >= 0 {
				return nil, errors.New("unbalanced }")
			}
			parts = append(parts, tmplPart{literal: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, errors.New("unclosed expression")
		}
		body := s[i+1 : i+j]
		s = s[i+j+1:]
		p := tmplPart{expr: true}
		if body != "" && strings.ContainsRune("+#./;?&=,!@|", rune(body[0])) {
			p.op = body[:1]
			body = body[1:]
			if strings.ContainsRune("=,!@|", rune(p.op[0])) {
				return nil, fmt.Errorf("reserved operator %q", p.op)
			}
		}
		if body == "" {
			return nil, errors.New("empty expression")
		}
		for _, spec := range strings.Split(body, ",") {
			var v tmplVar
			switch {
			case strings.HasSuffix(spec, "*"):
				v.explode = true
				spec = strings.TrimSuffix(spec, "*")
			case strings.Contains(spec, ":"):
				k := strings.IndexByte(spec, ':')
				n, err := strconv.Atoi(spec[k+1:])
				if err != nil || n <= 0 || n >= 10000 {
					return nil, fmt.Errorf("bad prefix modifier in %q", spec)
				}
				v.prefix = n
				spec = spec[:k]
			}
			if spec == "" {
				return nil, errors.New("empty variable name")
			}
			v.name = spec
			p.vars = append(p.vars, v)
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// uriTemplate compares two templates of a paired (modified) template.
func (d *differ) uriTemplate(subj finding.Subject, bt, ht string) {
	p := "/uriTemplate"
	bparts, berr := parseTemplate(bt)
	hparts, herr := parseTemplate(ht)
	if berr != nil || herr != nil {
		d.emit(rules.ResourceTemplateLiteralChanged, subj, p,
			fmt.Sprintf("uriTemplate changed from %s to %s (not a valid RFC 6570 template, compared as text)", quote(bt), quote(ht)),
			jsonString(bt), jsonString(ht))
		return
	}
	lits := func(parts []tmplPart) string {
		var b strings.Builder
		for _, x := range parts {
			if !x.expr {
				b.WriteString(x.literal)
			}
		}
		return b.String()
	}
	if bl, hl := lits(bparts), lits(hparts); bl != hl {
		d.emit(rules.ResourceTemplateLiteralChanged, subj, p,
			fmt.Sprintf("literal text of the template changed from %s to %s: every constructed URI changes", quote(bl), quote(hl)),
			jsonString(bl), jsonString(hl))
	}

	// Path (non-query) expressions: aligned by position when their number
	// is unchanged, otherwise by variable name.
	paths := func(parts []tmplPart) []tmplPart {
		var out []tmplPart
		for _, x := range parts {
			if x.expr && !x.query() {
				out = append(out, x)
			}
		}
		return out
	}
	bp, hp := paths(bparts), paths(hparts)
	aligned := len(bp) == len(hp)
	for i := 0; aligned && i < len(bp); i++ {
		if len(bp[i].vars) != len(hp[i].vars) {
			aligned = false
		}
	}
	if aligned {
		for i := range bp {
			if bp[i].op != hp[i].op {
				d.emit(rules.ResourceTemplateOperatorChanged, subj, p,
					fmt.Sprintf("expression %s became %s: the expansion changes", bp[i], hp[i]),
					jsonString(bp[i].String()), jsonString(hp[i].String()))
			}
			for k, bv := range bp[i].vars {
				hv := hp[i].vars[k]
				if bv.name != hv.name {
					d.emit(rules.ResourceTemplateVariableRenamed, subj, p,
						fmt.Sprintf("variable %s is now named %s", quote(bv.name), quote(hv.name)),
						jsonString(bv.name), jsonString(hv.name))
				}
				if bv.prefix != hv.prefix || bv.explode != hv.explode {
					if bp[i].op == hp[i].op {
						d.emit(rules.ResourceTemplateOperatorChanged, subj, p,
							fmt.Sprintf("modifier of variable %s changed from %s to %s", quote(hv.name), bv, hv),
							jsonString(bv.String()), jsonString(hv.String()))
					}
				}
			}
		}
	} else {
		d.templateVars(subj, p, bp, hp, false)
	}

	query := func(parts []tmplPart) []tmplPart {
		var out []tmplPart
		for _, x := range parts {
			if x.expr && x.query() {
				out = append(out, x)
			}
		}
		return out
	}
	d.templateVars(subj, p, query(bparts), query(hparts), true)
}

// templateVars compares the variables of two sets of expressions by name.
func (d *differ) templateVars(subj finding.Subject, p string, b, h []tmplPart, query bool) {
	type at struct {
		part tmplPart
		v    tmplVar
	}
	index := func(parts []tmplPart) (map[string]at, []string) {
		m := map[string]at{}
		var order []string
		for _, x := range parts {
			for _, v := range x.vars {
				if _, dup := m[v.name]; !dup {
					m[v.name] = at{x, v}
					order = append(order, v.name)
				}
			}
		}
		return m, order
	}
	bm, border := index(b)
	hm, horder := index(h)
	added, removed := rules.ResourceTemplateVariableAdded, rules.ResourceTemplateVariableRemoved
	kind := "variable"
	if query {
		added, removed = rules.ResourceTemplateQueryVariableAdded, rules.ResourceTemplateQueryVariableRemoved
		kind = "query variable"
	}
	for _, name := range border {
		bx := bm[name]
		hx, ok := hm[name]
		if !ok {
			d.emit(removed, subj, p, fmt.Sprintf("%s %s was removed", kind, quote(name)), jsonString(name), nil)
			continue
		}
		if bx.part.op != hx.part.op || bx.v != hx.v {
			d.emit(rules.ResourceTemplateOperatorChanged, subj, p,
				fmt.Sprintf("variable %s moved from %s to %s: the expansion changes", quote(name), bx.part, hx.part),
				jsonString(bx.part.String()), jsonString(hx.part.String()))
		}
	}
	for _, name := range horder {
		if _, ok := bm[name]; !ok {
			d.emit(added, subj, p, fmt.Sprintf("%s %s was added", kind, quote(name)), nil, jsonString(name))
		}
	}
}
