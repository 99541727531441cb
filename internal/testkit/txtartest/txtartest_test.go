package txtartest

import (
	"testing"

	"golang.org/x/tools/txtar"
)

func TestSections(t *testing.T) {
	a := txtar.Parse([]byte("comment\n-- in --\nx\n-- want --\nold\n"))
	if d, ok := Section(a, "in"); !ok || string(d) != "x\n" {
		t.Errorf("in: %q %v", d, ok)
	}
	if Data(a, "none") != nil {
		t.Error("a missing section has data")
	}
	Set(a, "want", "new\n")
	Set(a, "extra", "e\n")
	if got := string(txtar.Format(a)); got != "comment\n-- in --\nx\n-- want --\nnew\n-- extra --\ne\n" {
		t.Errorf("rewritten archive:\n%s", got)
	}
}
