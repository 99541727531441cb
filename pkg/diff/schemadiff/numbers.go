package schemadiff

import (
	"math/big"
	"strconv"
	"strings"
)

func isIntegral(s string) bool {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		// canonical scientific form: d.ddd e±N is integral when N ≥ digits after the point
		mant, exp := s[:i], s[i+1:]
		e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
		if err != nil {
			return false
		}
		frac := 0
		if j := strings.IndexByte(mant, '.'); j >= 0 {
			frac = len(mant) - j - 1
		}
		return e >= frac
	}
	return !strings.Contains(s, ".")
}

// num is an optional number keyword (nil = absent); v.s is canonical.
type num struct{ v *value }

// dec is a JSON number as digits × 10^exp (digits without leading or
// trailing zeros; "" is zero). Numbers are compared in this form, so even
// 1e999999999 costs nothing.
type dec struct {
	neg    bool
	digits string
	exp    int
}

func parseDec(s string) (dec, bool) {
	var d dec
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	}
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 1<<40 || e < -(1<<40) {
			return d, false
		}
		d.exp = e
		mant = s[:i]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	d.exp -= len(frac)
	t := strings.TrimRight(digits, "0")
	d.exp += len(digits) - len(t)
	d.digits = t
	if t == "" {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// cmpMag compares |a| and |b|.
func cmpMag(a, b dec) int {
	switch {
	case a.digits == "" && b.digits == "":
		return 0
	case a.digits == "":
		return -1
	case b.digits == "":
		return 1
	}
	// order of magnitude: position of the leading digit
	ma, mb := a.exp+len(a.digits), b.exp+len(b.digits)
	if ma != mb {
		if ma < mb {
			return -1
		}
		return 1
	}
	// same magnitude: compare digit strings padded on the right
	n := max(len(a.digits), len(b.digits))
	for i := 0; i < n; i++ {
		var x, y byte = '0', '0'
		if i < len(a.digits) {
			x = a.digits[i]
		}
		if i < len(b.digits) {
			y = b.digits[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func numCmp(a, b string) int {
	if a == b {
		return 0
	}
	x, ok1 := parseDec(a)
	y, ok2 := parseDec(b)
	if !ok1 || !ok2 {
		return strings.Compare(a, b)
	}
	switch {
	case x.neg && !y.neg:
		return -1
	case !x.neg && y.neg:
		return 1
	case x.neg:
		return -cmpMag(x, y)
	}
	return cmpMag(x, y)
}

// divides reports whether b/a is an integer (a divides b), for multipleOf.
// The second result is false when it cannot tell (zero, or exponents too
// far apart to compute).
func divides(a, b string) (bool, bool) {
	x, ok1 := parseDec(a)
	y, ok2 := parseDec(b)
	if !ok1 || !ok2 || x.digits == "" {
		return false, false
	}
	if y.digits == "" {
		return true, true
	}
	// b/a = (Y/X) × 10^(ey-ex)
	shift := y.exp - x.exp
	if shift > 400 || shift < -400 || len(x.digits) > 400 || len(y.digits) > 400 {
		return false, false
	}
	var X, Y big.Int
	X.SetString(x.digits, 10)
	Y.SetString(y.digits, 10)
	ten := big.NewInt(10)
	var p big.Int
	if shift >= 0 {
		p.Exp(ten, big.NewInt(int64(shift)), nil)
		Y.Mul(&Y, &p)
	} else {
		p.Exp(ten, big.NewInt(int64(-shift)), nil)
		X.Mul(&X, &p)
	}
	var r big.Int
	r.Rem(&Y, &X)
	return r.Sign() == 0, true
}
