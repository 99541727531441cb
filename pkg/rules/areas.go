package rules

import (
	"slices"
	"strings"
)

// Area is one section of the rule catalog, as the table is written: the
// rules of one area's file. Documentation groups rules by it, since an
// ID's words are not to be matched on.
type Area struct {
	// Title names the area in documentation ("Tool input schemas").
	Title string
	// Intro is the markdown between the area's title and its first rule.
	Intro string
	// Rules are the area's rules as All has them (levels filled in),
	// sorted by ID.
	Rules []Rule
}

// Areas returns the table by area, in the order of the rule catalog.
func Areas() []Area {
	c := theCatalog()
	out := make([]Area, len(c.areas))
	for i, a := range c.areas {
		rs := make([]Rule, 0, len(a.rules))
		for _, r := range a.rules {
			rs = append(rs, c.table[c.index[r.ID]])
		}
		slices.SortFunc(rs, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
		out[i] = Area{Title: a.title, Intro: a.intro, Rules: rs}
	}
	return out
}
