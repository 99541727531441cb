package probe

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cr3t-value", "CITY": "Paris"}
	lookup := func(k string) string { return env[k] }
	in := []capture.Probe{{
		ID: "weather", Method: capture.MethodToolsCall, Name: "${CITY}",
		Arguments:     json.RawMessage(`{"city":"${CITY}","auth":{"token":"Bearer ${TOKEN}"},"n":12345678901234567890,"list":["$${CITY}","x"]}`),
		ArgumentValue: "${CITY}",
		Context:       map[string]string{"k": "${TOKEN}"},
	}, {ID: "plain", Method: capture.MethodToolsCall, Name: "echo", Arguments: json.RawMessage(`{"message": "hi"}`)}}
	out, secrets, err := Expand(in, lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"auth":{"token":"Bearer s3cr3t-value"},"city":"Paris","list":["${CITY}","x"],"n":12345678901234567890}`
	if string(out[0].Arguments) != want {
		t.Errorf("arguments = %s\nwant %s", out[0].Arguments, want)
	}
	if out[0].Name != "${CITY}" || out[0].ArgumentValue != "Paris" || out[0].Context["k"] != "s3cr3t-value" {
		t.Errorf("expanded probe = %+v", out[0])
	}
	if in[0].Context["k"] != "${TOKEN}" {
		t.Errorf("Expand modified its input")
	}
	if string(out[1].Arguments) != `{"message": "hi"}` {
		t.Errorf("arguments without variables were rewritten: %s", out[1].Arguments)
	}
	if d := cmp.Diff([]string{"Paris", "s3cr3t-value"}, secrets); d != "" {
		t.Errorf("secrets (-want +got):\n%s", d)
	}

	_, _, err = Expand([]capture.Probe{{ID: "p", Arguments: json.RawMessage(`{"auth":{"token":"${MISSING_TOKEN}"}}`)}}, lookup)
	if err == nil || err.Error() != "probe p: argument auth.token: environment variable MISSING_TOKEN is not set" {
		t.Errorf("missing variable: %v", err)
	}
}

func TestDescribeNeverShowsValues(t *testing.T) {
	r := capture.ProbeResult{Target: "login", Probe: capture.Probe{ID: "login", Method: capture.MethodToolsCall, Name: "login",
		Arguments: json.RawMessage(`{"user":"alice","password":"hunter2-secret"}`)}}
	got := describe(r)
	if got != `probe "login" (tools/call login with arguments password, user)` {
		t.Errorf("Describe = %s", got)
	}
	if s := scrub(r.Probe, "login failed for alice: password hunter2-secret rejected"); strings.Contains(s, "alice") || strings.Contains(s, "hunter2") {
		t.Errorf("scrub kept a value: %s", s)
	}
}

func TestShapeBounds(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxShapeDepth+5) + `1` + strings.Repeat(`}`, MaxShapeDepth+5)
	s, err := valueSchema(json.RawMessage(deep))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(s), `"properties"`) != MaxShapeDepth+1 {
		t.Errorf("depth not bounded: %d levels", strings.Count(string(s), `"properties"`))
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range MaxShapeProperties + 50 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":true`)
	}
	b.WriteString("}")
	s, err = valueSchema(json.RawMessage(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(s, &v); err != nil || len(v.Properties) != MaxShapeProperties {
		t.Errorf("%d properties kept, want %d (%v)", len(v.Properties), MaxShapeProperties, err)
	}
	// Values never reach a shape.
	s, _ = valueSchema(json.RawMessage(`{"token":"s3cr3t","n":[1,2.5],"ok":true,"none":null}`))
	if strings.Contains(string(s), "s3cr3t") || strings.Contains(string(s), "2.5") {
		t.Errorf("shape holds a value: %s", s)
	}
	want := `{"properties":{"n":{"items":{"type":"number"},"type":"array"},"none":{"type":"null"},"ok":{"type":"boolean"},"token":{"type":"string"}},"required":["n","none","ok","token"],"type":"object"}`
	if string(s) != want {
		t.Errorf("shape = %s\nwant %s", s, want)
	}
}

func TestPinsPathAndFile(t *testing.T) {
	tabletest.Map(t, "PinsPath", PinsPath, map[string]string{
		"":                     "mcp-surface.probes.json",
		"mcp-surface.json":     "mcp-surface.probes.json",
		"snapshots/files.json": "snapshots/files.probes.json",
		"surface.snap":         "surface.snap.probes.json",
	})
	path := filepath.Join(t.TempDir(), "p.json")
	if _, err := ReadPins(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing pins file: %v", err)
	}
	p := &Pins{Probes: map[string]PinnedProbe{"b": {Method: "tools/call", Shapes: map[string]json.RawMessage{"t": json.RawMessage(`{"type":"string"}`)}},
		"a": {Method: "prompts/get", Shapes: map[string]json.RawMessage{"x": json.RawMessage(`{ "type" : "object" }`)}}}}
	if err := WritePins(path, p); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPins(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Encode()
	b, _ := back.Encode()
	if string(a) != string(b) || !strings.HasPrefix(string(a), "{\n  \"probes\": {\n    \"a\"") {
		t.Errorf("pins do not round-trip canonically:\n%s\n%s", a, b)
	}
	if _, err := parsePins([]byte(`{"version":2,"probes":{}}`)); err == nil {
		t.Errorf("version 2 accepted")
	}
}
