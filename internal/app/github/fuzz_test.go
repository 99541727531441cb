package github

import (
	"bytes"
	"testing"
)

// FuzzReadBundle: untrusted bytes are read or refused, never a panic, and
// what is accepted survives a write and a second read.
func FuzzReadBundle(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteBundle(&buf, validBundle()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBundle(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteBundle(&out, b); err != nil {
			t.Fatalf("accepted bundle does not write: %v", err)
		}
		if _, err := ReadBundle(&out); err != nil {
			t.Fatalf("written bundle does not read: %v", err)
		}
	})
}
