package canonjson

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxExponentDigits bounds a number's written exponent: a number beyond
// 1e±999999 is refused as absurd (fail closed) rather than carried through
// exact arithmetic in every later comparison.
const maxExponentDigits = 6

// Number returns the one text form of a JSON number literal: exact (no
// float rounding), no exponent while the integer has at most 21 digits
// and for fractions down to 1e-6 (as ECMAScript prints them), otherwise
// d.ddde±N; no trailing fraction zeros; no "-0". Equal numbers give equal
// text.
func Number(lit string) (string, error) {
	if plainInteger(lit) {
		return lit, nil
	}
	return slowNumber(lit)
}

// AppendNumber appends Number(lit).
func AppendNumber(dst, lit []byte) ([]byte, error) {
	if plainInteger(lit) {
		return append(dst, lit...), nil
	}
	n, err := slowNumber(string(lit))
	if err != nil {
		return nil, err
	}
	return append(dst, n...), nil
}

// plainInteger reports whether lit is an integer already in canonical
// form: digits without a leading zero, at most 21 of them, not "-0".
func plainInteger[T string | []byte](lit T) bool {
	s := lit
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 21 || (s[0] == '0' && (len(s) > 1 || len(lit) > 1)) {
		return false
	}
	return allDigits(s)
}

func slowNumber(s string) (string, error) {
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
	// value = digits × 10^exp; point is the decimal point's position
	// relative to the start of digits.
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
			out += "e+" + strconv.Itoa(e)
		} else {
			out += "e" + strconv.Itoa(e)
		}
	}
	if neg {
		out = "-" + out
	}
	return out, nil
}

func allDigits[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func parseExp(s string) (int, error) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || !allDigits(s) || len(s) > maxExponentDigits {
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
