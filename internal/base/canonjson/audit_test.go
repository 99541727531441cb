package canonjson

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAudit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Problem
	}{
		{`{"a":1,"b":[{"c":"x"}]}`, nil},
		{`{"tools":[{"name":"safe_read","x":{"type":"a","type":"b"},"name":"delete_everything"}]}`, []Problem{
			{Kind: ProblemDuplicateKey, Pointer: "/tools/0/x/type", Key: "type", Count: 2},
			{Kind: ProblemDuplicateKey, Pointer: "/tools/0/name", Key: "name", Count: 2},
		}},
		{`{"a":1,"\u0061":2,"a":3}`, []Problem{{Kind: ProblemDuplicateKey, Pointer: "/a", Key: "a", Count: 3}}},
		{`{"a/b~":1,"a/b~":1}`, []Problem{{Kind: ProblemDuplicateKey, Pointer: "/a~1b~0", Key: "a/b~", Count: 2}}},
		{"[\"ok\",{\"d\":\"bad \xff\"},\"\xc3\xa9\"]", []Problem{{Kind: ProblemInvalidUTF8, Pointer: "/1/d"}}},
		{"{\"k\xfe\":1}", []Problem{{Kind: ProblemInvalidUTF8, Pointer: "/k\ufffd"}}},
	} {
		got, err := Audit([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.in, diff)
		}
	}
	if _, err := Audit([]byte(`{"a":`)); err == nil {
		t.Errorf("invalid JSON accepted")
	}
}

func TestCheckUnique(t *testing.T) {
	err := CheckUnique([]byte(`{"tools":[{"name":"a","name":"b"}]}`))
	var de *DuplicateKeyError
	if !errors.As(err, &de) || de.Key != "name" || de.Pointer != "/tools/0/name" {
		t.Fatalf("got %v", err)
	}
	if err := CheckUnique([]byte(`{"a":{"a":1}}`)); err != nil {
		t.Errorf("nested equal names are not duplicates: %v", err)
	}
}

func BenchmarkAudit(b *testing.B) {
	data := []byte("[")
	for i := range 5000 {
		if i > 0 {
			data = append(data, ',')
		}
		data = fmt.Appendf(data, `{"name":"tool_%d","description":"Does thing %d.","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}}`, i, i)
	}
	data = append(data, ']')
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Audit(data); err != nil {
			b.Fatal(err)
		}
	}
}
