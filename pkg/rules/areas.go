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
	// Rules are the area's rules as All has them (levels filled in),
	// sorted by ID.
	Rules []Rule
}

// Areas returns the table by area, in the order of the rule catalog.
func Areas() []Area {
	c := theCatalog()
	out := make([]Area, len(areas))
	for i, a := range areas {
		rs := make([]Rule, 0, len(c.lists[i]))
		for _, r := range c.lists[i] {
			rs = append(rs, c.table[c.index[r.ID]])
		}
		slices.SortFunc(rs, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
		out[i] = Area{Title: a.title, Rules: rs}
	}
	return out
}
