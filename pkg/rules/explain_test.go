package rules

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestNearestFindsATypo(t *testing.T) {
	r := All()[0]
	typo := r.ID[:len(r.ID)-1] + "x"
	if got := Nearest(typo); len(got) == 0 || got[0] != r.ID {
		t.Errorf("Nearest(%q) = %v, want %s first", typo, got, r.ID)
	}
	if got := Nearest("nothing-like-any-rule-at-all-zzzz"); len(got) > 3 {
		t.Errorf("more than three suggestions: %v", got)
	}
}

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
