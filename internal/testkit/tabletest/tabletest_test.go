package tabletest

import (
	"errors"
	"fmt"
	"strconv"
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

// A case that returns an error fails even when its value is right, and
// so does a wrong value with no error; the right ones are not reported.
func TestMapNoErrorReportsEachFailure(t *testing.T) {
	r := &recorder{TB: t}
	MapNoError(r, "half", func(n int) (int, error) {
		if n < 0 {
			return n / 2, errors.New("negative")
		}
		return n / 2, nil
	}, map[int]int{4: 2, 5: 3, -4: -2})
	_, atoiErr := strconv.Atoi("x")
	MapNoError(r, "strconv.Atoi", strconv.Atoi, map[string]int{"7": 7, "x": 0})
	want := []string{
		`half(-4) = -2, negative, want -2`,
		`half(5) = 2, <nil>, want 3`,
		`strconv.Atoi("x") = 0, ` + atoiErr.Error() + `, want 0`,
	}
	if d := cmp.Diff(want, r.errors); d != "" {
		t.Errorf("reports (-want +got):\n%s", d)
	}
}
