package manifest

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The streaming indenter must write what json.Indent writes, however the
// compact JSON is cut into writes.
func TestIndenterMatchesIndent(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `{"a":{}}`, `{"a":[],"b":[{}],"c":[[]]}`,
		`{"a":"x\"y","b":"\\","c":"{[,:]}","d":"\u00e9\\\"","e":[1,-2.5e3,true,false,null]}`,
		`[{"k":{"n":[1,{"m":"v"}]}},"s"]`,
	}
	for _, doc := range docs {
		want, err := Indent([]byte(doc))
		if err != nil {
			t.Fatalf("Indent(%s): %v", doc, err)
		}
		for _, piece := range []int{1, 2, 3, 7, len(doc)} {
			var buf bytes.Buffer
			bw := bufio.NewWriter(&buf)
			d := &indenter{w: bw}
			for i := 0; i < len(doc); i += piece {
				d.Write([]byte(doc[i:min(i+piece, len(doc))]))
			}
			bw.WriteByte('\n')
			bw.Flush()
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s in pieces of %d (-json.Indent +indenter):\n%s", doc, piece, diff)
			}
		}
	}
}

// EncodeTo streams exactly the bytes of Encode.
func TestEncodeToMatchesEncode(t *testing.T) {
	m, err := FromCanonicalJSON([]byte(`{"snapshotVersion":1,"protocolVersion":"2025-11-25","handshake":"initialize",
		"serverInfo":{"name":"s","version":"1"},"capabilities":{"tools":{},"prompts":{"listChanged":true}},
		"tools":[{"name":"b","inputSchema":{"type":"object","properties":{}}},{"name":"a","description":"say \"hi\"\n","inputSchema":{"type":"object","required":[]}}],
		"prompts":[{"name":"p","arguments":[{"name":"x"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := mustCanonical(t, m)
	want, err := Indent(c)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := EncodeTo(&got, m); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("EncodeTo differs from Indent(CanonicalJSON) (-want +got):\n%s", diff)
	}
}
