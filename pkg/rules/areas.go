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

// areaTitles names each list of areas, in the same order; a test keeps
// the two lists in step.
var areaTitles = []struct {
	title string
	rules []Rule
}{
	{"Specification", specRules},
	{"Lint", lintRules},
	{"Probes", probeRules},
	{"Configuration", configRules},
	{"Pipeline", pipelineRules},
	{"Client compatibility", compatRules},
	{"Protocol and server", protocolChangeRules},
	{"Capabilities", capabilityChangeRules},
	{"Tools", toolChangeRules},
	{"Tool annotations", annotationChangeRules},
	{"Tool input schemas", inputChangeRules},
	{"Tool output schemas", outputChangeRules},
	{"Prompts", promptChangeRules},
	{"Resources", resourceChangeRules},
	{"Resource templates", templateChangeRules},
	{"Model-visible text", textChangeRules},
	{"Context cost", costRules},
}

// Areas returns the table by area, in the order of the rule catalog.
func Areas() []Area {
	out := make([]Area, len(areaTitles))
	for i, a := range areaTitles {
		rs := make([]Rule, 0, len(a.rules))
		for _, r := range a.rules {
			rs = append(rs, table[index[r.ID]])
		}
		slices.SortFunc(rs, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
		out[i] = Area{Title: a.title, Rules: rs}
	}
	return out
}
