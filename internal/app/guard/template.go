package guard

import (
	"regexp"
	"strings"
)

// templateMatches says whether uri could be an expansion of the URI
// template tmpl (RFC 6570). Every expression matches any text, so that a
// read through a blocked template is never missed; the literal parts must
// match exactly.
func templateMatches(tmpl, uri string) bool {
	var re strings.Builder
	re.WriteString(`\A`)
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			re.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			re.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		re.WriteString(regexp.QuoteMeta(tmpl[:open]))
		re.WriteString(`(?s:.*)`)
		tmpl = tmpl[open+end+1:]
	}
	re.WriteString(`\z`)
	m, err := regexp.MatchString(re.String(), uri)
	return err == nil && m
}
