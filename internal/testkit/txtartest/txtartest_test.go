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

// Run under update writes the computed sections back (replacing one,
// adding a missing one at the end), and a run without update then finds
// them equal.
func TestRunUpdatesThenAgrees(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "case.txtar")
	if err := os.WriteFile(p, []byte("a case\n-- base --\nb\n-- want --\nold\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, fx *Fixture) []Got {
		base := string(Data(fx.Archive, "base"))
		return []Got{{Section: "want", Text: "got " + base}, {Section: "want.reverse", Text: "rev " + base}}
	}
	fxs := Load(t, dir, "base", "want", "want.reverse")
	if len(fxs) != 1 || fxs[0].Name != "case" || fxs[0].File() != fxs[0] {
		t.Fatalf("Load = %+v", fxs)
	}
	run(t, fxs, true, check)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a case\n-- base --\nb\n-- want --\ngot b\n-- want.reverse --\nrev b\n"; string(data) != want {
		t.Errorf("after -update:\n%s\nwant:\n%s", data, want)
	}
	run(t, Load(t, dir, "base", "want", "want.reverse"), false, check)
}
