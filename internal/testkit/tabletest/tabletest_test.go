package tabletest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder is a testing.TB that keeps what the helper reports instead
// of failing the test that runs it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Every wrong case is reported, in key order, with Go-syntax values;
// the right ones are not.
func TestMapReportsEachFailure(t *testing.T) {
	r := &recorder{TB: t}
	Map(r, "strings.ToUpper", strings.ToUpper, map[string]string{
		"b": "B", "c": "c", "a": "a", "x\ny": `X"Y`,
	})
	want := []string{
		`strings.ToUpper("a") = "A", want "a"`,
		`strings.ToUpper("c") = "C", want "c"`,
		`strings.ToUpper("x\ny") = "X\nY", want "X\"Y"`,
	}
	if d := cmp.Diff(want, r.errors); d != "" {
		t.Errorf("reports (-want +got):\n%s", d)
	}
}

// A table whose cases all hold reports nothing, whatever the types.
func TestMapPasses(t *testing.T) {
	r := &recorder{TB: t}
	Map(r, "even", func(n int) bool { return n%2 == 0 }, map[int]bool{0: true, 1: false, -4: true})
	Map(r, "rune", func(r rune) string { return string(r) }, map[rune]string{'a': "a", 0x263a: "☺"})
	if r.errors != nil {
		t.Errorf("reported %q, want nothing", r.errors)
	}
}
