package manifest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// captureMode captures testserver's mode in process, asking for version.
func captureMode(t testing.TB, mode, version string) *capture.Capture {
	t.Helper()
	return capturetest.InProcess(t, mode, capture.Options{ProtocolVersion: version})
}

// Property: the server's ordering of lists and of schema keys changes no
// byte of the snapshot.
func TestShuffledServersGiveIdenticalSnapshots(t *testing.T) {
	want := capturetest.Encode(t, capturetest.Build(t, captureMode(t, testserver.ModeFull, "2025-11-25")))
	for seed := 1; seed <= 8; seed++ {
		got := capturetest.Encode(t, capturetest.Build(t, captureMode(t, fmt.Sprintf("shuffled-%d", seed), "2025-11-25")))
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Fatalf("seed %d changes the snapshot (-full +shuffled):\n%s", seed, diff)
		}
	}
}

// Property: shuffling the items of every page and the keys of every object
// in the raw frames changes nothing either (independent of the test
// server's own shuffling).
func TestShuffledPagesGiveIdenticalSnapshots(t *testing.T) {
	c := captureMode(t, testserver.ModeFull, "2025-06-18")
	want := capturetest.Encode(t, capturetest.Build(t, c))
	for seed := int64(1); seed <= 5; seed++ {
		cp := *c
		cp.Pages = nil
		for _, p := range c.Pages {
			p.Result = reorder(t, p.Result, seed)
			cp.Pages = append(cp.Pages, p)
		}
		// Move the items between pages as well: reverse page order.
		for i, j := 0, len(cp.Pages)-1; i < j; i, j = i+1, j-1 {
			cp.Pages[i], cp.Pages[j] = cp.Pages[j], cp.Pages[i]
		}
		if got := capturetest.Encode(t, capturetest.Build(t, &cp)); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: reordered pages change the snapshot", seed)
		}
	}
}

// reorder re-encodes JSON with object keys in reverse or rotated order and
// every array of items reversed (item arrays are sorted by identity later).
func reorder(t *testing.T, raw json.RawMessage, seed int64) json.RawMessage {
	v, err := manifest.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	writeReordered(&buf, v, seed, true)
	return buf.Bytes()
}

func writeReordered(buf *bytes.Buffer, v any, seed int64, top bool) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// A deterministic but non-sorted order.
		for i := range keys {
			j := int((seed*7919 + int64(i)*104729) % int64(len(keys)))
			keys[i], keys[j] = keys[j], keys[i]
		}
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteString(", ")
			}
			kb, _ := json.Marshal(k)
			buf.Write(kb)
			buf.WriteString(" : ")
			arr, isArr := x[k].([]any)
			if top && isArr {
				// item arrays: reverse
				rev := make([]any, len(arr))
				for i := range arr {
					rev[len(arr)-1-i] = arr[i]
				}
				writeReordered(buf, rev, seed, false)
				continue
			}
			writeReordered(buf, x[k], seed, false)
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeReordered(buf, e, seed, false)
		}
		buf.WriteByte(']')
	default:
		b, _ := json.Marshal(x)
		buf.Write(b)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, mode := range []string{testserver.ModeFull, testserver.ModeToolsOnly} {
		for _, v := range []string{"2025-03-26", "2026-07-28"} {
			m := capturetest.Build(t, captureMode(t, mode, v))
			file := capturetest.Encode(t, m)
			back := capturetest.Read(t, file)
			if diff := cmp.Diff(string(file), string(capturetest.Encode(t, back))); diff != "" {
				t.Errorf("%s %s: FromCanonicalJSON(Encode(m)) differs (-want +got):\n%s", mode, v, diff)
			}
			compact, err := m.CanonicalJSON()
			if err != nil {
				t.Fatal(err)
			}
			again, err := canonjson.CanonicalizeOrdered(compact)
			if err != nil || !bytes.Equal(again, compact) {
				t.Errorf("canonical JSON is not a fixed point of CanonicalizeOrdered")
			}
		}
	}
}

// snapshotSchema is schema/snapshot.schema.json, compiled.
func snapshotSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "schema", "snapshot.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validateSnapshot validates a snapshot file against sch.
func validateSnapshot(t testing.TB, sch *jsonschema.Schema, file []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

func TestSnapshotFileMatchesItsSchema(t *testing.T) {
	sch := snapshotSchema(t)
	for _, v := range []string{"2025-06-18", "2026-07-28"} {
		file := capturetest.Encode(t, capturetest.Build(t, captureMode(t, testserver.ModeFull, v)))
		if err := validateSnapshot(t, sch, file); err != nil {
			t.Errorf("%s: snapshot does not match schema/snapshot.schema.json: %v", v, err)
		}
	}
	// The schema is not vacuous: a broken file fails it.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"snapshotVersion":1,"tools":[{}]}`))
	if sch.Validate(bad) == nil {
		t.Errorf("schema accepts a snapshot without required members")
	}
}

func TestFromCanonicalJSONRefuses(t *testing.T) {
	base := `{"snapshotVersion":1,"protocolVersion":"2025-06-18","prompts":[],"resources":[],"resourceTemplates":[],"tools":%s}`
	cases := map[string]string{
		"duplicate":      fmt.Sprintf(base, `[{"name":"a"},{"name":"b"},{"name":"a","description":"x"}]`),
		"no identity":    fmt.Sprintf(base, `[{"description":"x"}]`),
		"unknown key":    `{"snapshotVersion":1,"protocolVersion":"x","tools":[],"timestamp":"now"}`,
		"newer":          `{"snapshotVersion":9,"protocolVersion":"x"}`,
		"not a snapshot": `{"tools":[]}`,
		"not JSON":       `{"snapshotVersion":1,`,
	}
	wants := map[string]string{
		"duplicate": `"a"`, "no identity": `no string "name"`, "unknown key": `"timestamp"`,
		"newer": "upgrade", "not a snapshot": "snapshotVersion", "not JSON": "not a JSON object",
	}
	for name, in := range cases {
		_, err := manifest.FromCanonicalJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("%s: error %v, want it to mention %s", name, err, wants[name])
		}
		if name == "duplicate" {
			var de *manifest.DuplicateError
			if !errors.As(err, &de) {
				t.Errorf("duplicate: not a *DuplicateError")
			}
		}
	}
}

func TestFingerprintsSeparateContractFromProse(t *testing.T) {
	mk := func(tool string) manifest.Prints {
		m := capturetest.Read(t, []byte(`{"snapshotVersion":1,"protocolVersion":"2025-06-18","tools":[`+tool+`]}`))
		return m.Fingerprints.Tools["t"]
	}
	base := mk(`{"name":"t","description":"Reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"}}}}`)
	for _, tc := range []struct {
		name            string
		tool            string
		contract, prose bool
	}{
		{"description", `{"name":"t","description":"Reads a file!","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"}}}}`, false, true},
		{"property description", `{"name":"t","description":"Reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where exactly"}}}}`, false, true},
		{"property type", `{"name":"t","description":"Reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"integer","description":"where"}}}}`, true, false},
		{"hint default written out", `{"name":"t","description":"Reads a file","annotations":{"destructiveHint":true,"readOnlyHint":false},"inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"}}}}`, false, false},
		{"hint changed", `{"name":"t","description":"Reads a file","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"}}}}`, true, false},
		{"a property named description", `{"name":"t","description":"Reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"},"description":{"type":"string"}}}}`, true, false},
		{"number spelling", `{"name":"t","description":"Reads a file","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where"}}},"x":1.0}`, false, false},
	} {
		got := mk(tc.tool)
		if (got.Contract != base.Contract) != tc.contract || (got.Prose != base.Prose) != tc.prose {
			t.Errorf("%s: contract changed=%v prose changed=%v, want %v %v", tc.name, got.Contract != base.Contract, got.Prose != base.Prose, tc.contract, tc.prose)
		}
		if tc.name != "hint default written out" && got.Full == base.Full && (tc.contract || tc.prose) {
			t.Errorf("%s: full hash unchanged", tc.name)
		}
	}
}

func TestWriteFileIsAtomicAndStable(t *testing.T) {
	m := capturetest.Build(t, captureMode(t, testserver.ModeFull, "2025-06-18"))
	path := filepath.Join(t.TempDir(), "mcp-surface.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 10<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := manifest.WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, capturetest.Encode(t, m)) {
		t.Errorf("written file differs from Encode (stale bytes left?)")
	}
	back, err := manifest.ReadFile(path)
	if err != nil || back.Fingerprints.Manifest != m.Fingerprints.Manifest {
		t.Errorf("ReadFile: %v", err)
	}
}

// synthetic builds a capture of n tools, each with a 50-property schema,
// spread over pages of 100.
func synthetic(n int) *capture.Capture {
	c := &capture.Capture{Handshake: capture.HandshakeInitialize, ProtocolVersion: "2025-06-18",
		HandshakeResult: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`)}
	var props strings.Builder
	for p := 0; p < 50; p++ {
		if p > 0 {
			props.WriteByte(',')
		}
		fmt.Fprintf(&props, `"p%02d":{"type":"string","description":"parameter %d of the tool","maxLength":%d}`, p, p, 100+p)
	}
	for start := 0; start < n; start += 100 {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := start; i < start+100 && i < n; i++ {
			if i > start {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"tool_%05d","description":"Does thing %d.","inputSchema":{"type":"object","properties":{%s},"required":["p01","p00"]},"annotations":{"readOnlyHint":true}}`, i, i, props.String())
		}
		b.WriteString(`]}`)
		c.Pages = append(c.Pages, capture.Page{Method: capture.MethodToolsList, Index: start / 100, Result: json.RawMessage(b.String())})
	}
	return c
}

func BenchmarkBuild5000Tools(b *testing.B) {
	c := synthetic(5000)
	var size int64
	for _, p := range c.Pages {
		size += int64(len(p.Result))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := manifest.Build(c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode5000Tools(b *testing.B) {
	m := capturetest.Build(b, synthetic(5000))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := manifest.Encode(m); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBuildRefusesMalformedPages(t *testing.T) {
	for _, tc := range []struct{ result, want string }{
		{`[1]`, "not a JSON object"},
		{`{"tools": {"a":1}}`, "not an array"},
		{`{"tools": [1]}`, "not a JSON object"},
		{`{"tools": [{"name":"a"}], }`, "invalid JSON"},
		{`{"tools": [{"name":"a"}]} x`, "unexpected data"},
		{`{"tools": [{"description":"no name"}]}`, `no string "name"`},
	} {
		c := synthetic(0)
		c.Pages = []capture.Page{{Method: capture.MethodToolsList, Result: json.RawMessage(tc.result)}}
		_, err := manifest.Build(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.result, err, tc.want)
		}
	}
	// Absent, null and empty lists are fine; a repeated key keeps the last.
	for _, ok := range []string{`{}`, `{"tools":null}`, `{"tools":[]}`, `{"tools":[{"name":"x"}],"tools":[{"name":"a"}],"nextCursor":"c","_meta":{"k":[1,{"x":"\""}]}}`} {
		c := synthetic(0)
		c.Pages = []capture.Page{{Method: capture.MethodToolsList, Result: json.RawMessage(ok)}}
		m, err := manifest.Build(c)
		if err != nil {
			t.Errorf("%s: %v", ok, err)
			continue
		}
		if strings.Contains(ok, `"x"`) && (len(m.Tools) != 1 || m.Tools[0].ID != "a") {
			t.Errorf("repeated key: tools %+v", m.Tools)
		}
	}
}

func BenchmarkRead5000Tools(b *testing.B) {
	m := capturetest.Build(b, synthetic(5000))
	data := capturetest.Encode(b, m)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := manifest.FromCanonicalJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSnapshotWithDuplicateKeyIsRefused(t *testing.T) {
	data := []byte(`{"snapshotVersion":1,"protocolVersion":"2025-06-18","tools":[{"name":"safe_read","inputSchema":{"type":"object"},"name":"delete_everything"}]}`)
	_, err := manifest.FromCanonicalJSON(data)
	if err == nil || !strings.Contains(err.Error(), `duplicate key "name" at "/tools/0/name"`) {
		t.Fatalf("got %v, want the duplicate key named with its pointer", err)
	}
}
