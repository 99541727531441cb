package manifest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// failedCapture is a capture whose tools/list answered its first page and
// failed on the second (-32603), and whose prompts/list was never
// implemented (-32601).
func failedCapture() *capture.Capture {
	return &capture.Capture{Handshake: capture.HandshakeInitialize, ProtocolVersion: "2025-06-18",
		HandshakeResult: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"s","version":"1"}}`),
		Pages:           []capture.Page{{Method: capture.MethodToolsList, Result: json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"2"}`)}},
		Diagnostics: []capture.Diagnostic{
			{Code: capture.DiagListError, Method: capture.MethodToolsList, Page: 2, RPCCode: -32603, Message: "tools/list page 2 answered with error -32603: db down"},
			{Code: capture.DiagListError, Method: capture.MethodPromptsList, Page: 1, RPCCode: capture.CodeMethodNotFound, Message: "prompts/list page 1 answered with error -32601: nope"},
		}}
}

// A failed list makes the snapshot partial: the list holds nothing (not
// the page it did answer), Partial says how it failed, -32601 stays a
// failed method, and the file round-trips, matches its schema and hashes
// apart from the complete one.
func TestBuildMarksAFailedListPartial(t *testing.T) {
	c := failedCapture()
	if fs := c.ListFailures(); len(fs) != 1 || fs[0] != (capture.ListFailure{Method: capture.MethodToolsList, Page: 2, Code: -32603, Message: "db down"}) {
		t.Fatalf("ListFailures = %+v", fs)
	}
	m := capturetest.Build(t, c)
	want := map[string]manifest.ListFailure{capture.MethodToolsList: {Page: 2, Code: -32603, Message: "db down"}}
	if !m.Incomplete() || len(m.Tools) != 0 || len(m.Partial) != 1 || m.Partial[capture.MethodToolsList] != want[capture.MethodToolsList] {
		t.Errorf("partial %+v, %d tools", m.Partial, len(m.Tools))
	}
	if len(m.FailedMethods) != 1 || m.FailedMethods[capture.MethodPromptsList] != capture.CodeMethodNotFound {
		t.Errorf("failedMethods %v, want prompts/list -32601 only", m.FailedMethods)
	}
	if s := manifest.Summary(c, m); !strings.Contains(s, "tools unknown (tools/list failed)") || !strings.Contains(s, "PARTIAL") || strings.Contains(s, "0 tools") {
		t.Errorf("summary %q", s)
	}
	if back := checkSnapshotFile(t, m, func(m *manifest.Manifest) { m.Partial = nil }); !back.Incomplete() {
		t.Errorf("the partial snapshot reads back complete")
	}
	sch := snapshotSchema(t)
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"snapshotVersion":1,"protocolVersion":"x","tools":[],"prompts":[],"resources":[],"resourceTemplates":[],` +
		`"fingerprints":{"manifest":"` + strings.Repeat("0", 64) + `","tools":{},"prompts":{},"resources":{},"resourceTemplates":{}},"partial":{"tools/call":{"page":1,"code":1,"message":""}}}`))
	if sch.Validate(bad) == nil {
		t.Error("the schema accepts a partial member naming no list")
	}
}

// -32601 on a later page is a list that broke part-way, not one never
// implemented.
func TestMethodNotFoundOnALaterPageIsAFailure(t *testing.T) {
	c := failedCapture()
	c.Diagnostics[0].RPCCode = capture.CodeMethodNotFound
	m := capturetest.Build(t, c)
	if f, ok := m.Partial[capture.MethodToolsList]; !ok || f.Page != 2 {
		t.Errorf("partial %+v", m.Partial)
	}
	if _, ok := m.FailedMethods[capture.MethodToolsList]; ok {
		t.Errorf("failedMethods %v name a list that failed part-way", m.FailedMethods)
	}
}

// A file says a list failed only as a written one does.
func TestPartialIsReadStrictly(t *testing.T) {
	head := `{"snapshotVersion":1,"protocolVersion":"2025-06-18","prompts":[],"resources":[],"resourceTemplates":[],`
	for name, c := range map[string]struct{ in, want string }{
		"not a list":       {head + `"tools":[],"partial":{"tools/call":{"page":1,"code":-32603,"message":"x"}}}`, "not a list method"},
		"items kept":       {head + `"tools":[{"name":"a"}],"partial":{"tools/list":{"page":1,"code":-32603,"message":"x"}}}`, "holds 1 item"},
		"no page":          {head + `"tools":[],"partial":{"tools/list":{"code":-32603,"message":"x"}}}`, "needs a page"},
		"no code":          {head + `"tools":[],"partial":{"tools/list":{"page":1,"message":"x"}}}`, "needs a page (from 1) and a code"},
		"wrong value type": {head + `"tools":[],"partial":{"tools/list":"down"}}`, "partial"},
	} {
		_, err := manifest.FromCanonicalJSON([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, c.want)
		}
	}
	m := capturetest.Read(t, []byte(head+`"tools":[],"partial":{"resources/list":{"page":3,"code":-32000,"message":"slow"}}}`))
	if method, f, ok := m.FailedList(manifest.ListResources); !ok || method != capture.MethodResourcesList || f.Page != 3 {
		t.Errorf("FailedList = %s %+v %v", method, f, ok)
	}
	if _, _, ok := m.FailedList(manifest.ListTools); ok {
		t.Error("tools reported failed")
	}
	var none *manifest.Manifest
	if none.Incomplete() {
		t.Error("a nil snapshot is incomplete")
	}
}

// An item served without its identity ([{}] for resources) refuses the
// whole snapshot with Build, and is recorded (list, position, raw) by
// BuildPartial, which keeps every other item; the file round-trips,
// matches its schema, and hashes apart from the snapshot without it.
func TestBuildPartialRecordsUnidentifiedItems(t *testing.T) {
	c := &capture.Capture{Handshake: capture.HandshakeInitialize, ProtocolVersion: "2025-06-18",
		HandshakeResult: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"s","version":"1"}}`),
		Pages: []capture.Page{
			{Method: capture.MethodToolsList, Result: json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}`)},
			{Method: capture.MethodResourcesList, Result: json.RawMessage(`{"resources":[{"uri":"file:///x","name":"x"},{}]}`)},
		}}
	var ue *manifest.UnidentifiedError
	if _, err := manifest.Build(c); !errors.As(err, &ue) || ue.List != manifest.ListResources || ue.Index != 1 {
		t.Fatalf("Build: %v, want resources[1] unidentified", err)
	}
	m, err := manifest.BuildPartial(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []manifest.Unidentified{{List: manifest.ListResources, Index: 1, Item: json.RawMessage(`{}`)}}
	if len(m.Tools) != 2 || len(m.Resources) != 1 || !reflect.DeepEqual(m.Unidentified, want) {
		t.Fatalf("%d tools, %d resources, unidentified %+v", len(m.Tools), len(m.Resources), m.Unidentified)
	}
	if back := checkSnapshotFile(t, m, func(m *manifest.Manifest) { m.Unidentified = nil }); !reflect.DeepEqual(back.Unidentified, want) {
		t.Errorf("unidentified read back as %+v", back.Unidentified)
	}
}

// checkSnapshotFile encodes m and checks that the file reads back the
// same (bytes and fingerprint), hashes apart from m without what strip
// removes, and matches the snapshot schema; it returns what was read
// back.
func checkSnapshotFile(t *testing.T, m *manifest.Manifest, strip func(*manifest.Manifest)) *manifest.Manifest {
	t.Helper()
	file := capturetest.Encode(t, m)
	back := capturetest.Read(t, file)
	if !bytes.Equal(capturetest.Encode(t, back), file) || back.Fingerprints.Manifest != m.Fingerprints.Manifest {
		t.Errorf("does not round-trip:\n%s", file)
	}
	without := *m
	strip(&without)
	if again := capturetest.Read(t, capturetest.Encode(t, &without)); again.Fingerprints.Manifest == m.Fingerprints.Manifest {
		t.Errorf("hashes as the snapshot without what strip removes")
	}
	if err := validateSnapshot(t, snapshotSchema(t), file); err != nil {
		t.Errorf("does not match the snapshot schema: %v", err)
	}
	return back
}
