// Package tabletest runs the smallest table test: a map from input to
// the value a function must return for it, compared with ==.
package tabletest

import (
	"cmp"
	"maps"
	"slices"
	"testing"
)

// Map calls f on every key of cases and reports, with t.Errorf, each
// result that is not the case's value, as `name(input) = got, want
// want` with Go-syntax values. It goes through the keys in sorted order
// so that a failing run reads the same every time, and checks every
// case (it never stops at the first failure).
func Map[K cmp.Ordered, V comparable](t testing.TB, name string, f func(K) V, cases map[K]V) {
	t.Helper()
	for _, in := range slices.Sorted(maps.Keys(cases)) {
		if got, want := f(in), cases[in]; got != want {
			t.Errorf("%s(%#v) = %#v, want %#v", name, in, got, want)
		}
	}
}

// MapNoError is Map for a function that returns an error too: every case
// must return its value and a nil error. A failing case is reported as
// `name(input) = got, err, want want`.
func MapNoError[K cmp.Ordered, V comparable](t testing.TB, name string, f func(K) (V, error), cases map[K]V) {
	t.Helper()
	for _, in := range slices.Sorted(maps.Keys(cases)) {
		if got, err := f(in); err != nil || got != cases[in] {
			t.Errorf("%s(%#v) = %#v, %v, want %#v", name, in, got, err, cases[in])
		}
	}
}
