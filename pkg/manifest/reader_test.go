package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// Snapshots of real servers, as committed.
var realSnapshots = []string{
	"../../examples/server/mcp-surface.json",
	"../../pkg/report/testdata/everything/2025.11.25.json",
	"../../pkg/report/testdata/everything/2026.1.26.json",
}

// TestReadEncodeRoundTrip: reading a snapshot file and encoding it again
// gives the file's bytes, through the file and through its compact form
// (whose items the reader keeps as sub-slices).
func TestReadEncodeRoundTrip(t *testing.T) {
	for _, path := range realSnapshots {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := FromCanonicalJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(m.Tools)+len(m.Prompts)+len(m.Resources)+len(m.ResourceTemplates) == 0 {
			t.Fatalf("%s: no items read", path)
		}
		got := mustEncode(t, m)
		if !bytes.Equal(got, data) {
			t.Errorf("%s: Encode(FromCanonicalJSON(file)) differs from the file", filepath.Base(path))
		}
		compact := mustCanonical(t, m)
		m2 := mustRead(t, compact)
		if got2, _ := Encode(m2); !bytes.Equal(got2, data) {
			t.Errorf("%s: through the compact form, the encoding differs from the file", filepath.Base(path))
		}
		if it := m2.Tools[0].Raw; cap(it) != len(it) || !bytes.Contains(compact, it) {
			t.Errorf("%s: an item of a compact file is not a sub-slice of it", filepath.Base(path))
		}
	}
}

// readerCases are inputs on which the reader must say what the old one
// said: every check it makes, in the order it made them.
var readerCases = []string{
	``,
	` `,
	`null`,
	`[]`,
	`"x"`,
	`{}`,
	`{"snapshotVersion":1}`,
	`{"snapshotVersion":1,`,
	`{"snapshotVersion":1}x`,
	`{"snapshotVersion":1} `,
	`{"snapshotVersion":null}`,
	`{"snapshotVersion":0}`,
	`{"snapshotVersion":2}`,
	`{"snapshotVersion":-0}`,
	`{"snapshotVersion":1.0}`,
	`{"snapshotVersion":1e0}`,
	`{"snapshotVersion":"1"}`,
	`{"snapshotVersion":99999999999999999999}`,
	`{"snapshotVersion":1,"protocolVersion":3}`,
	`{"snapshotVersion":1,"protocolVersion":null,"handshake":null}`,
	`{"snapshotVersion":1,"supportedVersions":["b","a",null]}`,
	`{"snapshotVersion":1,"supportedVersions":"a"}`,
	`{"snapshotVersion":1,"failedMethods":{"tools/list":-32601,"prompts/list":null}}`,
	`{"snapshotVersion":1,"failedMethods":{"tools/list":1.5}}`,
	`{"snapshotVersion":1,"failedMethods":{}}`,
	`{"snapshotVersion":1,"serverInfo":null,"capabilities":[3,1,2],"instructions":"be \u0067ood"}`,
	`{"snapshotVersion":1,"tools":null,"prompts":[],"resources":{},"resourceTemplates":1}`,
	`{"snapshotVersion":1,"tools":"x","protocolVersion":1}`,
	`{"protocolVersion":1,"snapshotVersion":"x"}`,
	`{"snapshotVersion":1,"tools":[null]}`,
	`{"snapshotVersion":1,"tools":[1]}`,
	`{"snapshotVersion":1,"tools":[{"name":1}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a"},{"name":"a"}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"b"},{"name":"a","inputSchema":{"type":"object","required":["y","x"]}}]}`,
	`{"snapshotVersion":1,"prompts":[{"name":"p","arguments":[{"name":"x","required":true}]}],"resources":[{"uri":"file:///a","name":"a"}],"resourceTemplates":[{"uriTemplate":"file:///{x}","name":"t"}]}`,
	`{"snapshotVersion":1,"resources":[{"name":"no uri"}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","name":"b"}]}`,
	`{"snapshotVersion":1,"snapshotVersion":1}`,
	`{"snapshotVersion":1,"snapshotVersio\u006e":1}`,
	`{"snapshotVersion":1,"extra":1}`,
	`{"snapshotVersion":1,"Tools":[]}`,
	`{"snapshotVersion":1,"tool\u0073":[{"name":"a"}]}`,
	"{\"snapshotVersion\":1,\"\xff\":1}",
	"{\"snapshotVersion\":1,\"tools\":[{\"name\":\"a\xff\"}]}",
	`{"snapshotVersion":1,"extra":1,"tools":[{"name":"a","name":"b"}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","name":"b"}],"fingerprints":{"x":1}`,
	`{"snapshotVersion":1,"fingerprints":{"a":1,"a":2}}`,
	`{"snapshotVersion":1,"fingerprints":"anything","protocolTrials":[]}`,
	`{"snapshotVersion":1,"protocolTrials":[{"revision":"2025-06-18","negotiated":"2025-03-26"},{"revision":"2024-11-05","error":"no"}]}`,
	`{"snapshotVersion":1,"protocolTrials":[{"revision":""}]}`,
	`{"snapshotVersion":1,"protocolTrials":[{"Revision":"x","other":1}]}`,
	`{"snapshotVersion":1,"protocolTrials":{}}`,
	`{"snapshotVersion":1,"protocolTrials":[{"revision":1}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a"}] ,"prompts" : [ {"name":"p"} , {"name":"q"} ] }`,
	"\n{\n  \"snapshotVersion\": 1,\n  \"tools\": [\n    {\n      \"name\": \"a\"\n    }\n  ]\n}\n",
	`{"snapshotVersion":1,"tools":[{"name":"a"},]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a"}}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","x":01}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","x":"` + "\x01" + `"}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","x":1e400,"y":0.50,"z":-0}]}`,
	`{"snapshotVersion":1,"tools":[{"name":"a","x":"\ud800"}]}`,
}

// deepCases nest past MaxDepth (512) and past encoding/json's limit
// (10000) in each member the old reader treated differently.
func deepCases() []string {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	var out []string
	for _, n := range []int{511, 512, 513, canonjson.MaxSyntaxDepth - 1, canonjson.MaxSyntaxDepth, canonjson.MaxSyntaxDepth + 1} {
		out = append(out,
			`{"snapshotVersion":1,"tools":[{"name":"a","x":`+nest(n)+`}]}`,
			`{"snapshotVersion":1,"capabilities":`+nest(n)+`}`,
			`{"snapshotVersion":1,"fingerprints":`+nest(n)+`}`,
			// A repeated key is refused only when nothing is too deep.
			`{"snapshotVersion":1,"fingerprints":`+nest(n)+`,"tools":[{"name":"a","name":"b"}]}`,
			nest(n+1),
		)
	}
	return out
}

// sameAsOld fails when the reader and the old one disagree on data:
// one refuses and the other not, their errors differ, or what they read
// encodes differently.
func sameAsOld(t *testing.T, data []byte) {
	t.Helper()
	got, err := FromCanonicalJSON(data)
	want, wantErr := oldFromCanonicalJSON(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%.200q: error %v, the old reader's %v", data, err, wantErr)
	}
	if err != nil {
		// With several unknown keys the old reader named any one of
		// them (a map's order); the reader names the first.
		const unknown = "snapshot has unknown top-level key"
		if err.Error() != wantErr.Error() && !(strings.HasPrefix(err.Error(), unknown) && strings.HasPrefix(wantErr.Error(), unknown)) {
			t.Fatalf("%.200q: error\n%v\nthe old reader's\n%v", data, err, wantErr)
		}
		return
	}
	a := mustEncode(t, got)
	b := mustEncode(t, want)
	if !bytes.Equal(a, b) {
		t.Fatalf("%.200q: read as\n%s\nthe old reader read\n%s", data, a, b)
	}
}

func TestReaderAgreesWithOldReader(t *testing.T) {
	for i, in := range append(readerCases, deepCases()...) {
		t.Run(fmt.Sprint(i), func(t *testing.T) { sameAsOld(t, []byte(in)) })
	}
	for _, path := range realSnapshots {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameAsOld(t, data)
	}
}

func FuzzReadSnapshot(f *testing.F) {
	for _, in := range readerCases {
		f.Add([]byte(in))
	}
	data, err := os.ReadFile(realSnapshots[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) { sameAsOld(t, data) })
}

// benchSnapshot is the file of a snapshot of n tools, each with a
// 30-property input schema, pretty-printed as written or compact.
func benchSnapshot(b *testing.B, n int, compact bool) []byte {
	b.Helper()
	var s strings.Builder
	s.WriteString(`{"snapshotVersion":1,"protocolVersion":"2025-11-25","handshake":"initialize","serverInfo":{"name":"bench","version":"1"},"capabilities":{"tools":{}},"tools":[`)
	for i := range n {
		if i > 0 {
			s.WriteByte(',')
		}
		fmt.Fprintf(&s, `{"name":"tool_%06d","description":"Tool %d reads records.","inputSchema":{"type":"object","required":["p00"],"properties":{`, i, i)
		for p := range 30 {
			if p > 0 {
				s.WriteByte(',')
			}
			fmt.Fprintf(&s, `"p%02d":{"type":"string","description":"parameter %d of tool %d"}`, p, p, i)
		}
		s.WriteString(`}}}`)
	}
	s.WriteString(`]}`)
	m := mustRead(b, []byte(s.String()))
	if compact {
		data := mustCanonical(b, m)
		return data
	}
	data := mustEncode(b, m)
	return data
}

// BenchmarkReadSnapshot reads a 5,000-tool snapshot file (20 MB
// pretty-printed, 12 MB compact), with the reader and with the old one
// it replaced.
func BenchmarkReadSnapshot(b *testing.B) {
	for _, form := range []string{"pretty", "compact"} {
		data := benchSnapshot(b, 5000, form == "compact")
		for _, r := range []struct {
			name string
			read func([]byte) (*Manifest, error)
		}{{"reader", FromCanonicalJSON}, {"old", oldFromCanonicalJSON}} {
			b.Run(form+"/"+r.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.read(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
