package schemadiff

import (
	"flag"
	"testing"
	"time"
)

// FuzzCompare: Compare never panics and never hangs on arbitrary pairs,
// its result is a sorted, valid list, and a schema compared with itself
// (walked, not short-cut) yields nothing.
func FuzzCompare(f *testing.F) {
	for _, fx := range loadFixtures(f) {
		f.Add(fx.base, fx.head)
	}
	f.Add([]byte(`{"$ref":"#"}`), []byte(`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#"}}}`))
	f.Add([]byte(`{"anyOf":[{"$ref":"#"},{"type":"null"}]}`), []byte(`{"oneOf":[{"$ref":"#"}]}`))
	f.Add([]byte(`[[[[[[[[[[]]]]]]]]]]`), []byte(`{"items":{"items":{"items":{}}}}`))
	f.Fuzz(func(t *testing.T, base, head []byte) {
		for _, dir := range []Direction{Input, Output} {
			start := time.Now()
			got := Compare(base, head, dir, Options{})
			// A hang is a finding while fuzzing; the seed corpus (run by
			// every go test) asserts no time, which a busy machine could
			// exceed.
			if d := time.Since(start); fuzzing() && d > 5*time.Second {
				t.Fatalf("%s compare took %v", dir, d)
			}
			for i := 1; i < len(got); i++ {
				if got[i-1].HeadPointer > got[i].HeadPointer {
					t.Fatalf("not sorted: %q before %q", got[i-1].HeadPointer, got[i].HeadPointer)
				}
			}
			for _, c := range got {
				if c.Rule == "" || c.Message == "" {
					t.Fatalf("empty rule or message: %+v", c)
				}
			}
			if self := Compare(base, base, dir, Options{forceWalk: true}); len(self) > 0 {
				t.Fatalf("%s self-compare of %q: %+v", dir, base, self)
			}
		}
	})
}

// fuzzing reports whether go test runs with -fuzz (generating inputs), not
// only the seed corpus.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
