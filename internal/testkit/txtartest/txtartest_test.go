package txtartest

import (
	"os"
	"path/filepath"
	"strings"
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

func TestParseFileWantsTheFormThatUpdateWrites(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txtar")
	bad := filepath.Join(dir, "bad.txtar")
	if err := os.WriteFile(good, []byte("c\n-- a --\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("c\n-- a --\nx"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a, err := ParseFile(good); err != nil || string(Data(a, "a")) != "x\n" {
		t.Errorf("ParseFile(good) = %v, %v", a, err)
	}
	if _, err := ParseFile(bad); err == nil || !strings.Contains(err.Error(), "not in the form -update writes") {
		t.Errorf("ParseFile(bad) = %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "none.txtar")); err == nil {
		t.Error("ParseFile of a missing file succeeded")
	}
}
