package rules

import (
	"slices"
	"strings"
	"testing"
)

// asymmetric lists every input-* rule without an output-* rule of the same
// name and every output-* rule without its input-* one, with the reason the
// other direction has none. Tool arguments must stay backward compatible
// and results forward compatible, so some changes matter in one direction
// only, or are judged along other lines there.
var asymmetric = map[string]string{
	InputContentSchemaChanged: "an output's contentSchema is not compared: a change is reported as output-schema-undecidable",
	InputDefaultAdded:         "an output's default is an annotation only: adding, changing or removing it is output-default-changed (info)",
	InputDefaultRemoved:       "an output's default is an annotation only: adding, changing or removing it is output-default-changed (info)",
	InputExamplesChanged:      "models read input examples to build calls; in an output schema they annotate nothing a client relies on (an equivalent rewrite)",
	InputMcpHeaderAdded:       "x-mcp-header mirrors a tool argument into a request header; it means nothing in an output schema",
	InputMcpHeaderChanged:     "x-mcp-header mirrors a tool argument into a request header; it means nothing in an output schema",
	InputMcpHeaderRemoved:     "x-mcp-header mirrors a tool argument into a request header; it means nothing in an output schema",
	InputOptionalPropertyAdded: "an added output property is judged by whether base clients accept it " +
		"(output-property-added, output-property-added-to-closed-schema), not by whether head requires it",
	InputPatternRelaxed: "the catalog has no output-pattern-relaxed: a provably wider output pattern lets through what base rejected and is output-pattern-removed",
	InputPropertyRemovedClosedSchema: "a removed output property is judged by whether it was required and whether head still constrains the name " +
		"(output-required-property-removed, output-optional-property-removed-*)",
	InputPropertyRemovedCovered: "a removed output property is judged by whether it was required and whether head still constrains the name " +
		"(output-required-property-removed, output-optional-property-removed-*)",
	InputPropertyRemovedNotCovered: "a removed output property is judged by whether it was required and whether head still constrains the name " +
		"(output-required-property-removed, output-optional-property-removed-*)",
	InputPropertyRemovedOpenSchema: "a removed output property is judged by whether it was required and whether head still constrains the name " +
		"(output-required-property-removed, output-optional-property-removed-*)",
	InputPropertyTitleChanged:  "a property title is display text for whoever fills in arguments; in an output schema its change is an equivalent rewrite",
	InputReadWriteOnlyChanged:  "readOnly and writeOnly are annotations; only tool arguments report them (info), an output change is an equivalent rewrite",
	InputRequiredPropertyAdded: "a new required output property only promises more to clients: it is output-property-added or output-property-added-to-closed-schema",
	InputRequiredPropertyWithDefaultAdded: "a default matters to callers that omit an argument; an added output property is " +
		"output-property-added or output-property-added-to-closed-schema",
	OutputOptionalPropertyRemovedClosedSchema: "a removed input property is judged by whether base calls still validate against what remains " +
		"(input-property-removed-closed-schema, -open-schema, -covered, -not-covered)",
	OutputOptionalPropertyRemovedOpenSchema: "a removed input property is judged by whether base calls still validate against what remains " +
		"(input-property-removed-closed-schema, -open-schema, -covered, -not-covered)",
	OutputPropertyAdded: "an added input property is judged by whether base calls still validate, which depends on whether it is required " +
		"(input-required-property-added, input-optional-property-added)",
	OutputPropertyAddedToClosedSchema: "an added input property is judged by whether base calls still validate, which depends on whether it is required " +
		"(input-required-property-added, input-optional-property-added)",
	OutputRequiredPropertyRemoved: "whether base calls that send a removed input property still validate depends on what remains, " +
		"not on whether it was required (input-property-removed-*)",
}

// counterpart is the ID of the same change in the other direction, and
// whether id is an input-* or output-* rule at all.
func counterpart(id string) (string, bool) {
	if rest, ok := strings.CutPrefix(id, "input-"); ok {
		return "output-" + rest, true
	}
	if rest, ok := strings.CutPrefix(id, "output-"); ok {
		return "input-" + rest, true
	}
	return "", false
}

// asymmetries returns the input-*/output-* rules of table without a
// counterpart that waived does not explain, and the waivers that are stale
// (the rule has a counterpart, or is not in the table).
func asymmetries(table []Rule, waived map[string]string) (missing, stale []string) {
	ids := map[string]bool{}
	for _, r := range table {
		ids[r.ID] = true
	}
	for _, r := range table {
		other, ok := counterpart(r.ID)
		if !ok {
			continue
		}
		_, w := waived[r.ID]
		switch {
		case !ids[other] && !w:
			missing = append(missing, r.ID+" has no "+other)
		case ids[other] && w:
			stale = append(stale, r.ID+" (it has "+other+")")
		}
	}
	for id := range waived {
		if !ids[id] {
			stale = append(stale, id+" (not in the table)")
		}
	}
	slices.Sort(missing)
	slices.Sort(stale)
	return missing, stale
}

// Each input-X has an output-X and the other way round, or the waiver says
// why not.
func TestInputOutputSymmetry(t *testing.T) {
	missing, stale := asymmetries(All(), asymmetric)
	for _, m := range missing {
		t.Errorf("%s: add it, or list the asymmetry in asymmetric with the reason", m)
	}
	for _, s := range stale {
		t.Errorf("stale asymmetric entry: %s", s)
	}
	for id, why := range asymmetric {
		if strings.TrimSpace(why) == "" || strings.Contains(why, "\n") {
			t.Errorf("asymmetric[%s]: the reason must be one line", id)
		}
		if r, ok := Lookup(id); ok && r.Direction != "input" && r.Direction != "output" {
			t.Errorf("asymmetric[%s]: direction %q is neither input nor output", id, r.Direction)
		}
	}
}

func TestAsymmetriesReportsAMissingCounterpart(t *testing.T) {
	table := []Rule{{ID: "input-type-changed"}, {ID: "output-type-changed"}, {ID: "input-new-thing"}, {ID: "output-only"}, {ID: "tool-removed"}}
	missing, stale := asymmetries(table, map[string]string{"output-only": "reason", "input-type-changed": "reason"})
	if !slices.Equal(missing, []string{"input-new-thing has no output-new-thing"}) {
		t.Errorf("missing = %q", missing)
	}
	if !slices.Equal(stale, []string{"input-type-changed (it has output-type-changed)"}) {
		t.Errorf("stale = %q", stale)
	}
}
