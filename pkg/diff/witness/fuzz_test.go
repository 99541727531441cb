package witness

import (
	"encoding/json"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
)

// FuzzFind: whatever the schemas, Find does not panic and every witness it
// returns checks as it claims.
func FuzzFind(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]+$"}}}`, `{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]+\\.png$"}}}`, false)
	f.Add(`{"oneOf":[{"type":"string"},{"$ref":"#/$defs/x"}],"$defs":{"x":{"type":"array","items":{"$ref":"#"}}}}`, `{"oneOf":[{"type":"string"},{"$ref":"#/$defs/x"},{}],"$defs":{"x":{"type":"array","items":{"$ref":"#"}}}}`, true)
	f.Add(`{"properties":{"n":{"minimum":1e30}}}`, `{"properties":{"n":{"minimum":1e31,"multipleOf":0.1}},"required":["n"]}`, false)
	f.Fuzz(func(t *testing.T, base, head string, output bool) {
		dir := schemadiff.Input
		if output {
			dir = schemadiff.Output
		}
		b, h := json.RawMessage(base), json.RawMessage(head)
		p := NewPair(b, h, dir, Options{Budget: 200})
		for _, c := range schemadiff.Compare(b, h, dir, schemadiff.Options{Budget: 5000}) {
			w, ok := p.Find(c)
			if !ok {
				continue
			}
			bOK, hOK, err := p.Check(w.Value)
			if err != nil || bOK == hOK || bOK != (dir == schemadiff.Input) {
				t.Fatalf("%s: witness %s: base %v head %v err %v", c.Rule, w.Value, bOK, hOK, err)
			}
		}
	})
}
