package witness

import (
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema patterns are ECMA-262 regular expressions; the validator
// and the pattern search here run Go's RE2. toRE2 rewrites the parts of a
// pattern whose meaning differs between the two (".", "\s", "\S", "\uXXXX")
// into RE2 spellings of the ECMA meaning and reports false for everything
// else where the engines could disagree: RE2-only syntax ("\A", "\z",
// "(?i)", POSIX classes), ECMA-only syntax (lookaround, backreferences,
// "[]", "\cX") and letter escapes whose meaning differs. A pattern that is
// not safe never decides a witness: a validation that consults it is
// thrown away (see taint).
func toRE2(p string) (string, bool) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", false
			}
			i++
			e := p[i]
			switch e {
			case 'd', 'D', 'w', 'W', 'n', 'r', 't', 'f', 'v':
				b.WriteByte('\\')
				b.WriteByte(e)
			case 'b', 'B':
				if inClass {
					return "", false // backspace in ECMA, an error in RE2
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			case 's':
				if !inClass {
					b.WriteByte('[')
				}
				b.WriteString(ecmaSpace)
				if !inClass {
					b.WriteByte(']')
				}
			case 'S':
				if inClass {
					return "", false
				}
				b.WriteString("[^" + ecmaSpace + "]")
			case 'x':
				if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
					return "", false
				}
				b.WriteString(`\x` + p[i+1:i+3])
				i += 2
			case 'u':
				if i+4 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) || !isHex(p[i+3]) || !isHex(p[i+4]) {
					return "", false
				}
				h := p[i+1 : i+5]
				if h[0] == 'd' || h[0] == 'D' {
					return "", false // a surrogate half
				}
				b.WriteString(`\x{` + h + `}`)
				i += 4
			case 'p', 'P':
				if i+1 >= len(p) || p[i+1] != '{' || strings.ContainsRune(p[i:min(len(p), i+40)], '=') {
					return "", false
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				if e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z' || e >= '0' && e <= '9' || e >= 0x80 {
					return "", false
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case inClass:
			if c == ']' {
				inClass = false
			} else if c == '[' && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '=' || p[i+1] == '.') {
				return "", false
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(p[i+1:], "]") || strings.HasPrefix(p[i+1:], "^]") {
				return "", false // empty (or full) class in ECMA, a literal ] in RE2
			}
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`)
		case c == '(' && i+1 < len(p) && p[i+1] == '?':
			if i+2 >= len(p) || p[i+2] != ':' {
				return "", false // lookaround, named groups, flags
			}
			b.WriteString("(?:")
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return "", false
	}
	return b.String(), true
}

// ecmaSpace is ECMA-262's \s (WhiteSpace and LineTerminator), as the body
// of an RE2 character class.
const ecmaSpace = `\t\n\x0B\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// compileECMA compiles an ECMA-262 pattern with RE2 when the two engines
// agree on it.
func compileECMA(p string) (*regexp.Regexp, bool) {
	s, ok := toRE2(p)
	if !ok {
		return nil, false
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, false
	}
	return re, true
}

// taint is set when a validation consulted a pattern the engines might
// disagree on, or matched a string where they might (a character outside
// the Basic Multilingual Plane: ECMA without the u flag sees two code
// units). Such a validation proves nothing.
type taint struct{ set atomic.Bool }

// engine is the validator's regexp engine for one side.
func (t *taint) engine(p string) (jsonschema.Regexp, error) {
	re, ok := compileECMA(p)
	if !ok {
		re = nil
	}
	return &matcher{re: re, src: p, t: t}, nil
}

type matcher struct {
	re  *regexp.Regexp
	src string
	t   *taint
}

func (m *matcher) MatchString(s string) bool {
	if m.re == nil {
		m.t.set.Store(true)
		return true
	}
	for _, r := range s {
		if r > 0xFFFF {
			m.t.set.Store(true)
			break
		}
	}
	return m.re.MatchString(s)
}

func (m *matcher) String() string { return m.src }
