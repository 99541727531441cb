package diff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// FuzzDiff feeds arbitrary snapshot pairs to Diff: it must never panic,
// a snapshot compared with itself gives nothing, and two runs agree.
func FuzzDiff(f *testing.F) {
	skeleton, err := os.ReadFile(skeletonPath)
	if err != nil {
		f.Fatal(err)
	}
	for _, fx := range txtartest.Load(f, "testdata", sections...) {
		base, head, err := snapshots(skeleton, fx.Archive)
		if err != nil {
			f.Fatalf("%s: %v", fx.Path, err)
		}
		f.Add(base, head)
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "no-change.txtar")); err == nil {
		f.Add(data, data)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		base, err := manifest.FromCanonicalJSON(a)
		if err != nil {
			return
		}
		head, err := manifest.FromCanonicalJSON(b)
		if err != nil {
			return
		}
		r := Diff(base, head, Options{})
		if again := Diff(base, head, Options{}); !sameJSON(r, again) {
			t.Fatal("two runs differ")
		}
		for _, m := range []*manifest.Manifest{base, head} {
			if self := Diff(m, m, Options{}); len(self.Findings) != 0 && !m.Incomplete() { // a partial one reports its failed list
				t.Fatalf("Diff(m, m) = %v", self.Findings)
			}
		}
	})
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
