package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting of any JSON value we canonicalize; deeper
// input is refused rather than risking the stack.
const maxDepth = 512

// Canonicalize renders raw JSON in canonical form (see the package doc).
// It refuses invalid JSON, trailing data and nesting deeper than 512.
func Canonicalize(data []byte) ([]byte, error) {
	return canonicalizeFast(data)
}

// CanonicalizeValue renders any JSON value (as produced by encoding/json:
// maps, slices, strings, float64 or json.Number, bool, nil, or a
// json.RawMessage) in canonical form, so that two schemas can be compared
// for semantic equality by comparing bytes.
func CanonicalizeValue(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encode(&buf, v, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Hash is the hex SHA-256 of canonical bytes.
func Hash(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// decode parses JSON keeping numbers exact (json.Number).
func decode(data []byte) (any, error) {
	return decodeFast(data)
}

// decodeStd is decode through encoding/json, the reference the fuzz test
// compares decodeFast with.
func decodeStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: unexpected data after the value")
	}
	return v, nil
}

func encode(buf *bytes.Buffer, v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case string:
		writeString(buf, x)
	case json.Number:
		n, err := canonicalNumber(string(x))
		if err != nil {
			return err
		}
		buf.WriteString(n)
	case float64:
		n, err := canonicalNumber(fmt.Sprintf("%g", x))
		if err != nil {
			return err
		}
		buf.WriteString(n)
	case int:
		fmt.Fprintf(buf, "%d", x)
	case int64:
		fmt.Fprintf(buf, "%d", x)
	case canonBytes:
		buf.Write(x)
	case json.RawMessage:
		inner, err := decode(x)
		if err != nil {
			return err
		}
		return encode(buf, inner, depth)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			if err := encode(buf, x[k], depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		if allPrimitive(x) && len(x) > 1 {
			parts := make([][]byte, len(x))
			for i, e := range x {
				var b bytes.Buffer
				if err := encode(&b, e, depth+1); err != nil {
					return err
				}
				parts[i] = b.Bytes()
			}
			slices.SortFunc(parts, bytes.Compare)
			buf.WriteByte('[')
			for i, p := range parts {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.Write(p)
			}
			buf.WriteByte(']')
			return nil
		}
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encode(buf, e, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		return fmt.Errorf("canonicalize: unsupported Go type %T", v)
	}
	return nil
}

// canonBytes is a value already in canonical form, written as is.
type canonBytes []byte

func allPrimitive(xs []any) bool {
	for _, e := range xs {
		switch e.(type) {
		case map[string]any, []any, json.RawMessage:
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string with the minimal escapes: quote,
// backslash and control characters; no HTML escaping. Invalid UTF-8 is
// replaced by U+FFFD, as encoding/json does when decoding.
func writeString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hexDigits[c>>4])
				buf.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(s[start:i])
			buf.WriteString("\ufffd")
			i += size
			start = i
			continue
		}
		i += size
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}

// canonicalNumber renders a JSON number exactly, in one form: no exponent
// for magnitudes written with at most 21 integer digits and for fractions
// down to 1e-6 (as ECMAScript does), otherwise d.ddde±N; no trailing zeros;
// no "-0".
func canonicalNumber(s string) (string, error) {
	orig := s
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := parseExp(s[i+1:])
		if err != nil {
			return "", fmt.Errorf("invalid number %q", orig)
		}
		exp = e
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) {
		return "", fmt.Errorf("invalid number %q", orig)
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if digits == "" {
		return "0", nil
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	// value = digits × 10^exp; point position relative to digits' start:
	point := len(digits) + exp
	var out string
	switch {
	case exp >= 0 && point <= 21:
		out = digits + strings.Repeat("0", exp)
	case exp < 0 && point > 0:
		out = digits[:point] + "." + digits[point:]
	case exp < 0 && point > -6:
		out = "0." + strings.Repeat("0", -point) + digits
	default:
		e := point - 1
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		if e >= 0 {
			out += fmt.Sprintf("e+%d", e)
		} else {
			out += fmt.Sprintf("e-%d", -e)
		}
	}
	if neg {
		out = "-" + out
	}
	return out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseExp parses an exponent, bounded so that absurd exponents are refused
// instead of producing gigantic strings.
func parseExp(s string) (int, error) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || !allDigits(s) || len(s) > 6 {
		return 0, errors.New("bad exponent")
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// Indent pretty-prints canonical JSON for the snapshot file (two spaces,
// trailing newline). Content bytes are unchanged.
func Indent(canonical []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, canonical, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
