package cost

import (
	"strconv"
	"strings"
)

// formatTokens writes an exact count, as findings give it: 19734.
func formatTokens(n int) string { return strconv.Itoa(n) }

// Short writes a count as people read it at a glance: 950, 1.2k, 19.7k,
// 488k, 1.5M. Rounding is to the nearest tenth below 100 thousands and to
// the nearest thousand above.
func Short(n int) string {
	if n < 0 {
		return "-" + Short(-n)
	}
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 100_000:
		return trimZero(strconv.FormatFloat(float64(n)/1000, 'f', 1, 64)) + "k"
	case n < 999_500:
		return strconv.Itoa((n+500)/1000) + "k"
	}
	return trimZero(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64)) + "M"
}

// SignedShort is Short with a sign: +1.2k, -300, +0.
func SignedShort(n int) string {
	if n < 0 {
		return Short(n)
	}
	return "+" + Short(n)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// percent writes a percentage without needless decimals: 10, 2.5.
func percent(p float64) string {
	return trimZero(strconv.FormatFloat(p, 'f', 1, 64))
}

// signedPercent writes a change in percent of a base total, rounded to
// whole percents (one decimal below 1%), with its sign; "new" when there
// was nothing before.
func signedPercent(p float64, before int) string {
	if before == 0 {
		return "new"
	}
	sign := "+"
	if p < 0 {
		sign, p = "-", -p
	}
	if p < 1 {
		return sign + trimZero(strconv.FormatFloat(p, 'f', 1, 64))
	}
	return sign + strconv.FormatFloat(p, 'f', 0, 64)
}

// SignedPercent is the change's percentage as the PR comment shows it:
// +6%, -0.4%, or "new" when base cost nothing.
func (c Change) SignedPercent() string {
	s := signedPercent(c.Percent(), c.Before)
	if s == "new" {
		return s
	}
	return s + "%"
}
