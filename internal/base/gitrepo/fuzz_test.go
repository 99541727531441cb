package gitrepo

import (
	"strings"
	"testing"
)

// FuzzParseUnifiedDiff: any input is parsed or refused, never a panic, and
// every range it returns is well formed.
func FuzzParseUnifiedDiff(f *testing.F) {
	f.Add("diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,2 +1,3 @@\n x\n+y\n-z\n+w\n")
	f.Add("+++ \"b/q\\303\\274\"\t\n@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n")
	f.Add("+++ /dev/null\n@@ -1 +0,0 @@\n-a\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines, err := ParseUnifiedDiff(strings.NewReader(s))
		if err != nil {
			return
		}
		for p, rs := range lines {
			prev := 0
			for _, r := range rs {
				if r.Start > r.End || r.Start <= prev {
					t.Fatalf("%s: bad ranges %v", p, rs)
				}
				prev = r.End + 1
			}
		}
	})
}
