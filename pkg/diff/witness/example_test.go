package witness_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
)

// A required suffix narrows a pattern: the shortest name the old pattern
// matches and the new one does not. The other way round is a proof.
func ExamplePatternDifference() {
	s, found, _ := witness.PatternDifference(`^[a-z]+$`, `^[a-z]+\.png$`, 10000)
	fmt.Printf("%q %v\n", s, found)
	_, _, proven := witness.PatternDifference(`^[a-z]+\.png$`, `^[a-z.]+$`, 10000)
	fmt.Println(proven)
	// Output:
	// "a" true
	// true
}

// The witness of a raised minimum is a call with the old minimum, which
// Check confirms.
func ExamplePair_Find() {
	base := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`)
	head := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":5}},"required":["n"]}`)
	p := witness.NewPair(base, head, schemadiff.Input, witness.Options{})
	for _, c := range schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{}) {
		w, ok := p.Find(c)
		if !ok {
			continue
		}
		baseOK, headOK, err := p.Check(w.Value)
		fmt.Println(c.Rule, string(w.Value), w.Accepts, w.Rejects, baseOK, headOK, err)
	}
	// Output:
	// input-minimum-increased {"n":1} base head true false <nil>
}
