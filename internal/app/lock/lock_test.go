package lock

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func snapshot(t *testing.T) *manifest.Manifest {
	t.Helper()
	m, err := manifest.FromCanonicalJSON([]byte(`{"snapshotVersion":1,"protocolVersion":"2025-06-18","serverInfo":{"name":"s","version":"1"},"capabilities":{"tools":{}},"tools":[{"name":"b","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	l := &Lock{}
	l.Put(Entry{Config: ".vscode/mcp.json", Name: "z", EntryHash: "sha256:1", Transport: "stdio", Launch: "node x.js", Snapshot: snapshot(t)})
	l.Put(Entry{Config: ".mcp.json", Name: "b", EntryHash: "sha256:2", Transport: "http", Launch: "https://h/mcp", Snapshot: snapshot(t)})
	l.Put(Entry{Config: ".mcp.json", Name: "a", EntryHash: "sha256:3", Transport: "stdio", Launch: "x", Snapshot: snapshot(t)})
	v1, err := Encode(l)
	if err != nil || !strings.HasPrefix(string(v1), "{\n  \"lockVersion\": 1,") {
		t.Fatalf("a lock without packages is not lockVersion 1: %v\n%.60s", err, v1)
	}
	l.Entries[0].Package = &Package{Ecosystem: EcosystemNPM, Registry: "http://127.0.0.1:1", Name: "x", Version: "1.2.3", Integrity: "sha512-x"}
	if got := []string{l.Entries[0].Key(), l.Entries[1].Key(), l.Entries[2].Key()}; got[0] != ".mcp.json › a" || got[2] != ".vscode/mcp.json › z" {
		t.Fatalf("order: %q", got)
	}
	data, err := Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(back)
	if err != nil || !bytes.Equal(data, again) {
		t.Fatalf("round trip changed the bytes: %v", err)
	}
	if e, ok := back.Find(".mcp.json", "b"); !ok || e.Transport != "http" || len(e.Snapshot.Tools) != 2 {
		t.Errorf("Find: %+v %v", e, ok)
	}
	if !back.Remove(".mcp.json", "b") || back.Remove(".mcp.json", "b") || len(back.Entries) != 2 {
		t.Error("Remove")
	}
	if p := back.Entries[0].Package; p == nil || p.Integrity != "sha512-x" {
		t.Errorf("package: %+v", p)
	}
	if !strings.HasPrefix(string(data), "{\n  \"lockVersion\": 2,\n  \"servers\": [\n") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("layout:\n%.200s", data)
	}
}

func TestDecodeRefuses(t *testing.T) {
	snap := `{"snapshotVersion":1,"protocolVersion":"2025-06-18","serverInfo":{"name":"s"},"capabilities":{}}`
	entry := func(config, name string) string {
		return `{"config":"` + config + `","name":"` + name + `","entryHash":"h","launch":"x","transport":"stdio","snapshot":` + snap + `}`
	}
	for want, doc := range map[string]string{
		"no lockVersion 1 or 2":         `{"servers":[]}`,
		"lockVersion":                   `{"lockVersion":3,"servers":[]}`,
		"unknown field":                 `{"lockVersion":1,"servers":[],"extra":1}`,
		"duplicate key":                 `{"lockVersion":1,"lockVersion":1,"servers":[]}`,
		"out of order or repeated":      `{"lockVersion":1,"servers":[` + entry("b", "x") + `,` + entry("a", "x") + `]}`,
		"needs config, name":            `{"lockVersion":1,"servers":[{"config":"a"}]}`,
		"a › x":                         `{"lockVersion":1,"servers":[{"config":"a","name":"x","snapshot":{"tools":[]}}]}`,
		"data after the object":         `{"lockVersion":1,"servers":[]} {}`,
		"a package needs lockVersion 2": `{"lockVersion":1,"servers":[{"config":"a","name":"x","entryHash":"h","launch":"x","transport":"stdio","package":{"ecosystem":"npm","registry":"r","name":"p","version":"1.0.0"},"snapshot":` + snap + `}]}`,
		"is not a lock":                 `[]`,
	} {
		if _, err := Decode([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", doc, err)
		}
	}
}

func TestMarkdownEscapesAndNamesTheFix(t *testing.T) {
	o := &Outcome{Config: ".mcp.json", Name: "files|@team", Status: StatusDrifted, Launch: "node `x`.js"}
	o.Section.Findings = append(o.Section.Findings, finding.New(rules.ToolDescriptionChanged, finding.Subject{Kind: finding.KindTool, Name: "read_file"}, "/description",
		"description changed: <IMPORTANT> @everyone see https://evil.example </IMPORTANT>", nil, nil))
	ConsumerLevel(&o.Section.Findings[0])
	md := Markdown([]*Outcome{o, {Config: ".mcp.json", Name: "ok", Status: StatusUnchanged}}, DefaultFile)
	for _, want := range []string{
		"## mcp-surface: 1 of 2 servers changed",
		"**drifted**: 1 other change",
		"<code>mcp-surface lock --update .mcp.json:files&#124;@&#8203;team</code>",
		"&lt;IMPORTANT&gt; @&#8203;everyone",
		"| warning | <code>tool-description-changed</code>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"<IMPORTANT>", "@everyone", "https://evil"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown holds %q unescaped:\n%s", bad, md)
		}
	}
	if md != Markdown([]*Outcome{o, {Config: ".mcp.json", Name: "ok", Status: StatusUnchanged}}, DefaultFile) {
		t.Error("not deterministic")
	}
}
