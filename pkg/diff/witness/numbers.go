package witness

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
)

// bounds is the numeric range a flat conjunction allows.
type bounds struct {
	lo, hi         *big.Rat
	loExcl, hiExcl bool
	mult           []*big.Rat
}

func rat(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

func boundsOf(flat []sref) bounds {
	var b bounds
	lower := func(r *big.Rat, excl bool) {
		if b.lo == nil || r.Cmp(b.lo) > 0 || r.Cmp(b.lo) == 0 && excl {
			b.lo, b.loExcl = r, excl
		}
	}
	upper := func(r *big.Rat, excl bool) {
		if b.hi == nil || r.Cmp(b.hi) < 0 || r.Cmp(b.hi) == 0 && excl {
			b.hi, b.hiExcl = r, excl
		}
	}
	for _, f := range flat {
		m, legacy := f.v.(map[string]any), f.d.legacy
		exMin, _ := m["exclusiveMinimum"].(bool)
		exMax, _ := m["exclusiveMaximum"].(bool)
		if r, ok := rat(m["minimum"]); ok {
			lower(r, legacy && exMin)
		}
		if r, ok := rat(m["maximum"]); ok {
			upper(r, legacy && exMax)
		}
		if r, ok := rat(m["exclusiveMinimum"]); ok {
			lower(r, true)
		}
		if r, ok := rat(m["exclusiveMaximum"]); ok {
			upper(r, true)
		}
		if r, ok := rat(m["multipleOf"]); ok && r.Sign() > 0 {
			b.mult = append(b.mult, r)
		}
	}
	return b
}

// fits reports whether x is inside the bounds.
func (b bounds) fits(x *big.Rat, integer bool) bool {
	if integer && !x.IsInt() {
		return false
	}
	if b.lo != nil && (x.Cmp(b.lo) < 0 || b.loExcl && x.Cmp(b.lo) == 0) {
		return false
	}
	if b.hi != nil && (x.Cmp(b.hi) > 0 || b.hiExcl && x.Cmp(b.hi) == 0) {
		return false
	}
	for _, m := range b.mult {
		if !new(big.Rat).Quo(x, m).IsInt() {
			return false
		}
	}
	return true
}

// numberIn is the allowed number nearest to near (0 when nil), searched
// over the multiples of the step the conjunction implies.
func numberIn(flat []sref, integer bool, near *big.Rat) (any, bool) {
	b := boundsOf(flat)
	if near == nil {
		near = new(big.Rat)
	}
	step := big.NewRat(1, 1)
	if len(b.mult) > 0 {
		step = b.mult[0]
	} else if !integer {
		step = big.NewRat(1, 2)
	}
	start := new(big.Rat).Set(near)
	if b.lo != nil && start.Cmp(b.lo) < 0 {
		start.Set(b.lo)
	}
	if b.hi != nil && start.Cmp(b.hi) > 0 {
		start.Set(b.hi)
	}
	// Snap to the grid of step, then walk outwards a bounded number of steps.
	k := new(big.Int).Quo(new(big.Rat).Quo(start, step).Num(), new(big.Rat).Quo(start, step).Denom())
	base := new(big.Rat).Mul(new(big.Rat).SetInt(k), step)
	for i := 0; i < 64; i++ {
		for _, sgn := range []int64{1, -1} {
			x := new(big.Rat).Add(base, new(big.Rat).Mul(step, big.NewRat(sgn*int64(i), 1)))
			if b.fits(x, integer) {
				return number(x), true
			}
		}
	}
	return nil, false // several multipleOf, or a grid too far from the bounds
}

// number renders an exact rational as a JSON number when it has a finite
// decimal expansion of reasonable length.
func number(x *big.Rat) any {
	if x.IsInt() {
		return json.Number(x.Num().String())
	}
	s := x.FloatString(30)
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if r, ok := new(big.Rat).SetString(s); !ok || r.Cmp(x) != 0 {
		f, _ := x.Float64()
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return json.Number(s)
}

// equal compares two JSON values as JSON Schema does (arrays in order).
func equal(a, b any) bool {
	x, err1 := encode(a)
	y, err2 := encode(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func itoa(i int) string { return strconv.Itoa(i) }

func ratInt(i int) *big.Rat { return big.NewRat(int64(i), 1) }
