// Package txtartest is the one fixture runner of the packages whose tests
// are written as txtar archives under testdata/: Load reads them, Run
// compares what a test computes from each with the archive's expectation
// sections and, under the package's -update flag, rewrites them.
//
// Every fixture package speaks the same vocabulary:
//
//	comment        what the fixture shows, in prose
//	base, head     the two things compared (a comparison's fixture), or
//	               the package's own inputs (frames, probes, profiles, ...),
//	               named without a file extension
//	options        how the package runs the fixture (its format is the
//	               package's: JSON options, "key: value" lines)
//	want           what the test computes, rewritten by -update
//	want.X         a second expectation of the same fixture (want.pins,
//	               want.witness, want.input, want.output)
//	….reverse      the expectation of head → base (want.reverse,
//	               want.input.reverse)
//
// A section a package does not know is an error naming the ones it does.
// The test binary's -update flag (go test -run TestFixtures -update) makes
// Run rewrite the want sections instead of comparing them, and Golden
// rewrite its file.
package txtartest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar and the golden files from what the tests compute")

// Updating says the test binary runs with -update.
func Updating() bool { return *update }

// Golden compares got with the golden file at path, showing a diff; with
// -update it writes got there instead (creating the directory).
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// ParseFile reads the txtar fixture at path. A file that is not in the
// form txtar.Format writes (a section without its final newline, say) is
// an error: -update would rewrite it although no expectation changed.
func ParseFile(path string) (*txtar.Archive, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := txtar.Parse(data)
	if !bytes.Equal(txtar.Format(a), data) {
		return nil, fmt.Errorf("%s: not in the form -update writes: end every section with a newline", path)
	}
	return a, nil
}

// Section is the data of the section called name, and whether there is
// one.
func Section(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Data is the data of the section called name; nil when there is none.
func Data(a *txtar.Archive, name string) []byte {
	d, _ := Section(a, name)
	return d
}

// JSONLines decodes the section called name as one JSON value a line,
// blank lines passed over; a line that does not decode fails the test.
func JSONLines[T any](t testing.TB, a *txtar.Archive, name string) []T {
	t.Helper()
	var out []T
	for _, line := range strings.Split(string(Data(a, name)), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%s: %q: %v", name, line, err)
		}
		out = append(out, v)
	}
	return out
}

// Set replaces the data of the section called name, or adds the section
// at the end.
func Set(a *txtar.Archive, name, data string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = []byte(data)
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
}

// A Fixture is one testdata archive.
type Fixture struct {
	// Path is the archive's path, as globbed (testdata/NAME.txtar).
	Path string
	// Name is the file's name without .txtar: the subtest's name.
	Name string
	// Archive is the parsed archive; Run rewrites it under -update.
	Archive *txtar.Archive
}

// File is the fixture itself: a package's own fixture type that embeds
// *Fixture has it, and so can be handed to Run.
func (f *Fixture) File() *Fixture { return f }

// Load parses every dir/*.txtar with ParseFile, in name order. known are
// the section names a fixture of the package may have; a section with
// another name fails the test, naming the file and the known ones. No
// fixture at all fails the test too.
func Load(t testing.TB, dir string, known ...string) []*Fixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	var out []*Fixture
	for _, p := range paths {
		a, err := ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !slices.Contains(known, f.Name) {
				t.Fatalf("%s: unknown section %q (this package's fixtures have %s)", p, f.Name, strings.Join(known, ", "))
			}
		}
		out = append(out, &Fixture{Path: p, Name: strings.TrimSuffix(filepath.Base(p), ".txtar"), Archive: a})
	}
	return out
}

// Got is one expectation section as the test computed it.
type Got struct {
	// Section names the expectation (want, want.reverse, ...).
	Section string
	// Text is the computed content, compared with the section's.
	Text string
	// Context is printed under a mismatch (the findings' messages, say).
	Context string
}

// Run runs check on every fixture as a subtest named after the fixture,
// and compares each section check returns with the archive's section of
// that name, line by line. Under -update the sections are set instead (a
// missing one is added at the end) and the archive written back; without,
// a missing section fails with the command that writes it.
func Run[F interface{ File() *Fixture }](t *testing.T, fixtures []F, check func(t *testing.T, fx F) []Got) {
	t.Helper()
	run(t, fixtures, *update, check)
}

func run[F interface{ File() *Fixture }](t *testing.T, fixtures []F, update bool, check func(t *testing.T, fx F) []Got) {
	t.Helper()
	for _, f := range fixtures {
		fx := f.File()
		t.Run(fx.Name, func(t *testing.T) {
			gots := check(t, f)
			for _, g := range gots {
				if update {
					Set(fx.Archive, g.Section, g.Text)
					continue
				}
				want, ok := Section(fx.Archive, g.Section)
				if !ok {
					t.Errorf("no %q section: run go test -run '%s' -update to write it", g.Section, t.Name())
					continue
				}
				if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(g.Text, "\n")); d != "" {
					msg := fmt.Sprintf("%s differs (-want +got); run go test -run '%s' -update to accept:\n%s", g.Section, t.Name(), d)
					if g.Context != "" {
						msg += "\n" + g.Context
					}
					t.Error(msg)
				}
			}
			if update {
				if err := os.WriteFile(fx.Path, txtar.Format(fx.Archive), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
