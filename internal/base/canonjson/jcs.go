package canonjson

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrRepeatedMember is the error of JCS for an object that names a
// member twice: parsers disagree about which copy wins, so the value has
// no canonical form (RFC 8785 assumes I-JSON, which forbids it).
var ErrRepeatedMember = errors.New("a member name is repeated")

// JCS renders raw JSON in the JSON Canonicalization Scheme of RFC 8785,
// the interoperable form other tools hash, unlike the package's own
// canonical form (see the package doc):
//   - object members sorted by their names' UTF-16 code units, at every
//     depth; a repeated name is refused (ErrRepeatedMember);
//   - arrays in the order given, none sorted;
//   - every number read as an IEEE 754 double and written as ECMAScript
//     writes it (Number.prototype.toString): 1.0 → 1, 1E30 → 1e+30,
//     12345678901234567890 → 12345678901234567000; a number beyond the
//     double range is refused;
//   - strings with the escapes of JSON.stringify: \b \t \n \f \r by name,
//     other controls as \u00xx, quote and backslash; an unpaired
//     surrogate as a lowercase \u escape; everything else as itself
//     (invalid UTF-8 becomes U+FFFD, as a text decoder reads it);
//   - no whitespace.
//
// It refuses invalid JSON, trailing data and nesting deeper than MaxDepth.
func JCS(data []byte) ([]byte, error) {
	j := jcsWriter{Scanner: Scanner{data: data}}
	j.SkipSpace()
	out, err := j.value(make([]byte, 0, len(data)), 0)
	if err != nil {
		return nil, err
	}
	if err := j.End(); err != nil {
		return nil, err
	}
	return out, nil
}

// JCSHash is the hex SHA-256 of JCS(data): the definition hash of the
// "tool definition hash v1" recipe.
func JCSHash(data []byte) (string, error) {
	c, err := JCS(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:]), nil
}

type jcsWriter struct{ Scanner }

type jcsMember struct {
	name  []uint16
	value []byte
}

func (j *jcsWriter) value(out []byte, depth int) ([]byte, error) {
	if err := CheckDepth(depth); err != nil {
		return nil, err
	}
	switch ch := j.Peek(); {
	case ch == '{':
		return j.object(out, depth)
	case ch == '[':
		out = append(out, '[')
		err := j.EachElement(func(i int) error {
			if i > 0 {
				out = append(out, ',')
			}
			var err error
			out, err = j.value(out, depth+1)
			return err
		})
		if err != nil {
			return nil, err
		}
		return append(out, ']'), nil
	case ch == '"':
		raw, _, err := j.ScanString()
		if err != nil {
			return nil, err
		}
		return appendUnits(out, units(raw)), nil
	case ch == '-' || (ch >= '0' && ch <= '9'):
		lit, err := j.Number()
		if err != nil {
			return nil, err
		}
		n, err := ESNumber(string(lit))
		if err != nil {
			return nil, err
		}
		return append(out, n...), nil
	}
	start := j.Pos
	if err := j.SkipScalar(); err != nil {
		return nil, err
	}
	return append(out, j.data[start:j.Pos]...), nil
}

func (j *jcsWriter) object(out []byte, depth int) ([]byte, error) {
	j.Pos++ // {
	var members []jcsMember
	j.SkipSpace()
	if j.Pos < len(j.data) && j.data[j.Pos] == '}' {
		j.Pos++
		return append(out, '{', '}'), nil
	}
	for {
		j.SkipSpace()
		if j.Peek() != '"' {
			return nil, j.Fail("expected a member name")
		}
		raw, _, err := j.ScanString()
		if err != nil {
			return nil, err
		}
		j.SkipSpace()
		if j.Peek() != ':' {
			return nil, j.Fail("expected ':'")
		}
		j.Pos++
		j.SkipSpace()
		v, err := j.value(nil, depth+1)
		if err != nil {
			return nil, err
		}
		members = append(members, jcsMember{units(raw), v})
		if done, err := j.next('}'); err != nil {
			return nil, err
		} else if done {
			break
		}
	}
	slices.SortStableFunc(members, func(a, b jcsMember) int { return slices.Compare(a.name, b.name) })
	out = append(out, '{')
	for i, m := range members {
		if i > 0 {
			if slices.Equal(members[i-1].name, m.name) {
				return nil, fmt.Errorf("%w: %q", ErrRepeatedMember, string(utf16.Decode(m.name)))
			}
			out = append(out, ',')
		}
		out = appendUnits(out, m.name)
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), nil
}

// units decodes the body of a JSON string that ScanString accepted into
// UTF-16 code units, an unpaired surrogate escape kept as it is.
func units(raw []byte) []uint16 {
	u := make([]uint16, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[i:]) // RuneError for a byte that is not UTF-8
			u = utf16.AppendRune(u, r)
			i += size
			continue
		}
		if i+1 >= len(raw) {
			break
		}
		if e := raw[i+1]; e != 'u' {
			u = append(u, uint16(unescape(e)))
			i += 2
			continue
		}
		r, ok := hex4(raw, i+2)
		if !ok {
			return u
		}
		u = append(u, uint16(r))
		i += 6
	}
	return u
}

// appendUnits writes UTF-16 code units as a JCS string.
func appendUnits(dst []byte, u []uint16) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', byte(c))
		case c == '\b':
			dst = append(dst, '\\', 'b')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\f':
			dst = append(dst, '\\', 'f')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		case utf16.IsSurrogate(rune(c)):
			if c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				dst = utf8.AppendRune(dst, utf16.DecodeRune(rune(c), rune(u[i+1])))
				i++
				continue
			}
			dst = append(dst, '\\', 'u', hexDigits[c>>12], hexDigits[c>>8&0xf], hexDigits[c>>4&0xf], hexDigits[c&0xf])
		default:
			dst = utf8.AppendRune(dst, rune(c))
		}
	}
	return append(dst, '"')
}

// ESNumber reads a JSON number literal as an IEEE 754 double and writes
// it as ECMAScript's Number.prototype.toString does: the shortest digits
// that read back as the same double, placed as ECMAScript places them
// (Number's rules for the exponent). A literal beyond the double range
// is an error: it has no such form.
func ESNumber(lit string) (string, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("number %s is outside the IEEE 754 double range: it has no RFC 8785 form", lit)
	}
	if f == 0 {
		return "0", nil
	}
	return slowNumber(strconv.FormatFloat(f, 'e', -1, 64))
}
