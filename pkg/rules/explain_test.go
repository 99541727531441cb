package rules

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteTextAndJSON(t *testing.T) {
	r := All()[0]
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil || !strings.HasPrefix(b.String(), r.ID+"\n") || !strings.HasSuffix(b.String(), r.Help+"\n") {
		t.Errorf("text: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteList(&b, true); err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	if err := json.Unmarshal(b.Bytes(), &docs); err != nil || len(docs) != len(All()) {
		t.Fatalf("list: %v, %d docs", err, len(docs))
	}
	for _, d := range docs {
		if d.Tags == nil {
			t.Errorf("%s: tags null", d.ID)
		}
	}
}
