package manifest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// The set and instructions vectors of "tool definition hash, version 1"
// (docs/tool-definition-hash-vectors.json in the GitHub repository
// GautamTalksDev/mcp-pin, MIT license), reconstructed: pages are JSON
// text, lines and digests the published outputs. The definition vectors
// are in internal/base/canonjson.
const (
	weather = `{"name":"weather","description":"Get the current weather for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}`
	alerts  = `{"name":"alerts","description":"Weather alerts for a state.","inputSchema":{"type":"object","properties":{"state":{"type":"string"}}}}`
)

var setVectors = []struct {
	about  string
	pages  []string
	lines  []string
	digest string
}{
	{"two tools, sorted by name whatever the order served", []string{"[" + weather + "," + alerts + "]"},
		[]string{"alerts:d5c24fc1d6b0b6f4364bb161840a535e38c8c1d90aaff5f7e3e99c993d7fc5c0", "weather:f6d1913a45f2a5ea95ceb161b4e08eed245a1808044f3a358705d2641b6fb37d"},
		"dbc6a9bbec4bcc2a77ce357dc0d96d15a053da10ddefc0b4bdc1a48507df7521"},
	{"the same two over two pages, in the other order", []string{"[" + alerts + "]", "[" + weather + "]"},
		[]string{"alerts:d5c24fc1d6b0b6f4364bb161840a535e38c8c1d90aaff5f7e3e99c993d7fc5c0", "weather:f6d1913a45f2a5ea95ceb161b4e08eed245a1808044f3a358705d2641b6fb37d"},
		"dbc6a9bbec4bcc2a77ce357dc0d96d15a053da10ddefc0b4bdc1a48507df7521"},
	{"an empty listing hashes the empty string", []string{"[]"}, []string{},
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"two definitions sharing a name are ordered by their hashes", []string{`[{"name":"dup","description":"b"},{"name":"dup","description":"a"}]`},
		[]string{"dup:2eddc6b62f4f9a7ed78070e4dbb2289cec5bec57dbaa87d44a3a36ae2fc57014", "dup:b29fe56abb672c5329735553cbd1fc543ef75a3a2fa401352d17bb3d2f68d1ce"},
		"46c3adb41d72d87a89a0365e361324499dddc4f352feee3083c173602063a23b"},
	{"a prompts/list listing, the same construction", []string{`[{"name":"forecast","description":"Ask for a forecast.","arguments":[{"name":"city","required":true}]}]`},
		[]string{"forecast:ee0adede61653c724c5cd5aa105c652e72d6485e4c8c7a5ad501ccf4482fdcba"},
		"771716d5e841d853ebb9fb3f8d18bf6a5e8e8470f151a2b0ec0848955f53a92a"},
}

func TestSetDigestPublishedVectors(t *testing.T) {
	for _, v := range setVectors {
		pages := make([][]byte, len(v.pages))
		var defs []namedHash
		for i, p := range v.pages {
			pages[i] = []byte(p)
			var items []json.RawMessage
			if err := json.Unmarshal(pages[i], &items); err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				var n struct{ Name string }
				_ = json.Unmarshal(it, &n)
				h, err := canonjson.JCSHash(it)
				if err != nil {
					t.Fatal(err)
				}
				defs = append(defs, namedHash{n.Name, h})
			}
		}
		d, lines := setDigest(defs)
		if d != v.digest || strings.Join(lines, "\n") != strings.Join(v.lines, "\n") {
			t.Errorf("%s: digest %s lines %q, want %s %q", v.about, d, lines, v.digest, v.lines)
		}
		if d, err := setDigestOf(pages...); err != nil || d != v.digest {
			t.Errorf("%s: SetDigestOf = %s, %v", v.about, d, err)
		}
	}
	// The invalid listings: no set digest.
	for _, page := range []string{`[{"description":"no name"}]`, `[{"name":7}]`, `[{"name":"x","description":"a","description":"b"}]`} {
		if _, err := setDigestOf([]byte(page)); !errors.Is(err, errNoSetDigest) {
			t.Errorf("%s: %v, want ErrNoSetDigest", page, err)
		}
	}
}

func TestInstructionsHashPublishedVectors(t *testing.T) {
	for in, want := range map[string]string{
		`"Use the weather tool for forecasts."`:                   "59b91e0aff7e5e13f5c7eb890497066a703efae55ff61eee2151081704b8ff64",
		`"Prévisions météo ☀\nUse the tool."`:                     "bf762870f070b82a778d486b45b868640990266fed5decd5af715722381acf42",
		`"Pr\u00e9visions m\u00e9t\u00e9o \u2600\nUse the tool."`: "bf762870f070b82a778d486b45b868640990266fed5decd5af715722381acf42",
	} {
		if got := instructionsHash(json.RawMessage(in)); got == nil || *got != want {
			t.Errorf("%s: %v, want %s", in, got, want)
		}
	}
	for _, in := range []string{"", "null", "7"} {
		if got := instructionsHash(json.RawMessage(in)); got != nil {
			t.Errorf("%q: %s, want no hash", in, *got)
		}
	}
}

// A capture records each item's definition hash from its bytes as
// served and the set digests; the file keeps them; the manifest hash is
// the one the snapshot had without them.
func TestBuildRecordsTheInteroperableDigests(t *testing.T) {
	c := &capture.Capture{Handshake: capture.HandshakeInitialize, ProtocolVersion: "2025-06-18",
		HandshakeResult: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"},"instructions":"Use the weather tool for forecasts."}`),
		Pages: []capture.Page{
			{Method: capture.MethodToolsList, Index: 0, Result: json.RawMessage(`{"tools":[` + alerts + `],"nextCursor":"2"}`)},
			{Method: capture.MethodToolsList, Index: 1, Result: json.RawMessage(`{"tools":[` + weather + `]}`)},
		}}
	m := mustBuild(t, c)
	fp := m.Fingerprints
	if fp.Tools["weather"].JCS != "f6d1913a45f2a5ea95ceb161b4e08eed245a1808044f3a358705d2641b6fb37d" || fp.JCS == nil ||
		fp.JCS.Tools != "dbc6a9bbec4bcc2a77ce357dc0d96d15a053da10ddefc0b4bdc1a48507df7521" ||
		fp.JCS.Prompts != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" ||
		fp.JCS.Instructions == nil || *fp.JCS.Instructions != "59b91e0aff7e5e13f5c7eb890497066a703efae55ff61eee2151081704b8ff64" {
		t.Fatalf("digests: %+v %+v", fp.Tools, fp.JCS)
	}
	data := mustEncode(t, m)
	back := mustRead(t, data)
	if back.Fingerprints.Tools["alerts"].JCS != fp.Tools["alerts"].JCS || back.Fingerprints.JCS.Tools != fp.JCS.Tools || back.Fingerprints.Manifest != fp.Manifest {
		t.Errorf("read back: %+v %+v", back.Fingerprints.Tools, back.Fingerprints.JCS)
	}
	// Without the recorded digests (a file written before them) the
	// snapshot reads, hashes the same and writes back without them.
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	fps := doc["fingerprints"].(map[string]any)
	delete(fps, "jcs")
	for _, p := range fps["tools"].(map[string]any) {
		delete(p.(map[string]any), "jcs")
	}
	old, _ := json.Marshal(doc)
	om := mustRead(t, old)
	if om.Fingerprints.Manifest != fp.Manifest || om.Fingerprints.JCS != nil || om.Fingerprints.Tools["weather"].JCS != "" {
		t.Errorf("an old file: %+v %+v", om.Fingerprints.Manifest, om.Fingerprints.JCS)
	}
	if again, _ := Encode(om); strings.Contains(string(again), `"jcs"`) {
		t.Error("an old file gained digests it never recorded")
	}
	bad := strings.Replace(string(data), `"jcs": "`+fp.Tools["weather"].JCS, `"jcs": "not-a-digest`, 1)
	if _, err := FromCanonicalJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), `fingerprints.tools["weather"].jcs is not a SHA-256 hex digest`) {
		t.Errorf("a broken digest: %v", err)
	}
}

// The definition hash is of the item as served: a schema's required
// served out of order hashes apart from its canonical (sorted) form, and
// an item with a repeated member has none, nor has its list a set digest.
func TestDefinitionHashIsOfTheItemAsServed(t *testing.T) {
	served := `{"name":"t","inputSchema":{"type":"object","required":["b","a"]}}`
	c := &capture.Capture{Handshake: capture.HandshakeInitialize, ProtocolVersion: "2025-06-18",
		HandshakeResult: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"s","version":"1"}}`),
		Pages: []capture.Page{
			{Method: capture.MethodToolsList, Result: json.RawMessage(`{"tools":[` + served + `]}`)},
			{Method: capture.MethodPromptsList, Result: json.RawMessage(`{"prompts":[{"name":"p","description":"a","description":"b"}]}`)},
		}}
	m := mustBuild(t, c)
	want, _ := canonjson.JCSHash([]byte(served))
	canon, _ := canonjson.JCSHash(m.Tools[0].Raw)
	if got := m.Fingerprints.Tools["t"].JCS; got != want || got == canon {
		t.Errorf("jcs %s, want %s (the canonical item's is %s)", got, want, canon)
	}
	if m.Fingerprints.Prompts["p"].JCS != "" || m.Fingerprints.JCS.Prompts != "" || m.Fingerprints.JCS.Tools == "" || m.Fingerprints.JCS.Instructions != nil {
		t.Errorf("a repeated member: %+v %+v", m.Fingerprints.Prompts, m.Fingerprints.JCS)
	}
}
