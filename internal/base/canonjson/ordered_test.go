package canonjson

import "testing"

// CanonicalizeOrdered sorts JSON Schema's sets only; Canonicalize keeps
// sorting every array of primitives.
func TestCanonicalizeOrdered(t *testing.T) {
	in := `{"required":["b","a"],"type":["string","null"],"enum":["z","y"],"default":[2,1],` +
		`"examples":[{"type":["b","a"]}],"const":{"required":["y","x"]},"_meta":{"k":["d","c"]},` +
		`"properties":{"p":{"required":["d","c"],"items":[{"enum":[3,1]}]}},"tags":["q","p"]}`
	for _, c := range []struct {
		name string
		f    func([]byte) ([]byte, error)
		want string
	}{
		{"ordered", CanonicalizeOrdered, `{"_meta":{"k":["d","c"]},"const":{"required":["y","x"]},"default":[2,1],"enum":["z","y"],` +
			`"examples":[{"type":["b","a"]}],"properties":{"p":{"items":[{"enum":[3,1]}],"required":["c","d"]}},"required":["a","b"],"tags":["q","p"],"type":["null","string"]}`},
		{"all", Canonicalize, `{"_meta":{"k":["c","d"]},"const":{"required":["x","y"]},"default":[1,2],"enum":["y","z"],` +
			`"examples":[{"type":["a","b"]}],"properties":{"p":{"items":[{"enum":[1,3]}],"required":["c","d"]}},"required":["a","b"],"tags":["p","q"],"type":["null","string"]}`},
	} {
		got, err := c.f([]byte(in))
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.name, got, err, c.want)
		}
		again, _ := c.f(got)
		if string(again) != string(got) {
			t.Errorf("%s: not a fixed point", c.name)
		}
	}
}
