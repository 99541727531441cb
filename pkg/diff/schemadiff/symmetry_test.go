package schemadiff

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Tool arguments must stay backward compatible and results forward
// compatible, so some changes matter in one direction only, or are judged
// along other lines there. Each input-X rule has an output-X rule and the
// other way round, or a fixture that reports the rule says why not in its
// asymmetric section, next to the findings of the other direction.

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
func asymmetries(table []rules.Rule, waived map[string]string) (missing, stale []string) {
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

func TestInputOutputSymmetry(t *testing.T) {
	waived := map[string]string{}
	where := map[string]string{}
	for _, fx := range loadFixtures(t) {
		for id := range fx.asymmetric {
			if prev, dup := where[id]; dup {
				t.Errorf("%s: %s is already explained in %s: keep one asymmetric line per rule", fx.Path, id, prev)
				continue
			}
			waived[id], where[id] = fx.asymmetric[id], fx.Path
			if !fx.reports(id) {
				t.Errorf("%s: asymmetric lists %s, which the fixture does not report: move the line to a fixture that shows the rule", fx.Path, id)
			}
		}
	}
	missing, stale := asymmetries(rules.All(), waived)
	for _, m := range missing {
		t.Errorf("%s: add it, or explain the asymmetry in the asymmetric section of a fixture that reports the rule", m)
	}
	for _, s := range stale {
		t.Errorf("stale asymmetric line in %s: %s", where[strings.Fields(s)[0]], s)
	}
}

// reports says whether one of the fixture's runs in the rule's direction
// reports it.
func (fx *fixture) reports(id string) bool {
	for _, r := range runs {
		if !fx.has(r) || !strings.HasPrefix(id, r.dir.String()+"-") {
			continue
		}
		for _, c := range fx.compare(r) {
			if c.Rule == id {
				return true
			}
		}
	}
	return false
}

func TestAsymmetriesReportsAMissingCounterpart(t *testing.T) {
	table := []rules.Rule{{ID: "input-type-changed"}, {ID: "output-type-changed"}, {ID: "input-new-thing"}, {ID: "output-only"}, {ID: "tool-removed"}}
	missing, stale := asymmetries(table, map[string]string{"output-only": "reason", "input-type-changed": "reason", "input-gone": "reason"})
	if !slices.Equal(missing, []string{"input-new-thing has no output-new-thing"}) {
		t.Errorf("missing = %q", missing)
	}
	if !slices.Equal(stale, []string{"input-gone (not in the table)", "input-type-changed (it has output-type-changed)"}) {
		t.Errorf("stale = %q", stale)
	}
}

func TestParseAsymmetric(t *testing.T) {
	got, err := parseAsymmetric([]byte("input-a: why a\ninput-b : why b\n"))
	if err != nil || len(got) != 2 || got["input-a"] != "why a" || got["input-b"] != "why b" {
		t.Errorf("parseAsymmetric = %q, %v", got, err)
	}
	for _, bad := range []string{"input-a\n", "input-a:\n", ": why\n", "input-a: x\ninput-a: y\n"} {
		if _, err := parseAsymmetric([]byte(bad)); err == nil {
			t.Errorf("parseAsymmetric(%q) accepted", bad)
		}
	}
}
