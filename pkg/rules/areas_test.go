package rules

import (
	"strings"
	"testing"
)

// Every area has a title, and every rule of the table is in exactly one
// area.
func TestAreas(t *testing.T) {
	for i, a := range Areas() {
		if strings.TrimSpace(a.Title) == "" {
			t.Errorf("area %d (%s) has no title", i, areaFiles[i][0].name)
		}
	}
	seen := map[string]string{}
	n := 0
	for _, a := range Areas() {
		for _, r := range a.Rules {
			n++
			if prev, dup := seen[r.ID]; dup {
				t.Errorf("%s is in %s and in %s", r.ID, prev, a.Title)
			}
			seen[r.ID] = a.Title
			if got, _ := Lookup(r.ID); got.Level != r.Level {
				t.Errorf("%s: Areas has level %q, All %q", r.ID, r.Level, got.Level)
			}
		}
	}
	if n != len(All()) {
		t.Errorf("Areas holds %d rules, All %d", n, len(All()))
	}
}
