package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

const full = `# mcp-surface configuration
version: 1
profile: strict
severity:
  tool-description-changed: breaking
  resource-last-modified-changed: off
  server-version-not-bumped: warning
acknowledged:
  - rule: tool-removed
    tool: legacy_*
    reason: "legacy tools were announced for removal in 2.0"
    expires: 2030-01-31
  - fingerprint: 0123456789abcdef
    reason: reviewed in PR 42
  - rule: text-*
    template: "db://**"
    pointer: /description
    reason: descriptions reviewed
lifecycle:
  deprecatedMetaKey: com.example/deprecated
  sunsetMetaKey: com.example/sunset
  descriptionMarkers: ["[deprecated]"]
reservedMetaPrefixes: ["com.example/ui/"]
rename:
  threshold: 0.9
text:
  injectionPatterns: ['(?i)\bexfiltrate\b']
  defaultPatterns: true
  lengthSpikeRatio: 3
  lengthSpikeMinChars: 500
  encodedMinLength: 64
servers:
  - name: files
    command: [node, dist/server.js, --stdio]
    env: {LOG_LEVEL: debug}
    snapshot: snapshots/files.json
    probes:
      - method: prompts/get
        name: summarize
        arguments: {doc: README.md}
      - method: resources/read
        allResources: true
        maxResources: 10
  - name: remote
    url: https://mcp.example.com/mcp
`

func TestParseFull(t *testing.T) {
	c, err := Parse(".mcp-surface.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile != ProfileStrict || c.Version != 1 {
		t.Errorf("profile/version = %q/%d", c.Profile, c.Version)
	}
	wantSev := map[string]Override{
		"tool-description-changed":       {Severity: rules.SeverityBreaking, Line: 5},
		"resource-last-modified-changed": {Off: true, Line: 6},
		"server-version-not-bumped":      {Severity: rules.SeverityRisky, Line: 7},
	}
	if d := cmp.Diff(wantSev, c.Severity); d != "" {
		t.Errorf("severity (-want +got):\n%s", d)
	}
	if len(c.Acknowledged) != 3 {
		t.Fatalf("acknowledged = %d entries", len(c.Acknowledged))
	}
	a := c.Acknowledged[0]
	if a.Rule != "tool-removed" || a.SubjectKind != KindTool || a.SubjectName != "legacy_*" ||
		a.Expires.Format("2006-01-02") != "2030-01-31" || a.Line != 9 {
		t.Errorf("first acknowledgement = %+v", a)
	}
	if c.Acknowledged[2].SubjectKind != KindResourceTemplate {
		t.Errorf("template key maps to %q", c.Acknowledged[2].SubjectKind)
	}
	if c.Lifecycle.DeprecatedMetaKey != "com.example/deprecated" || len(c.Lifecycle.DescriptionMarkers) != 1 {
		t.Errorf("lifecycle = %+v", c.Lifecycle)
	}
	if c.Rename.Threshold != 0.9 || c.Text.LengthSpikeRatio != 3 || c.Text.EncodedMinLength != 64 || len(c.Text.InjectionPatterns) != 1 {
		t.Errorf("rename/text = %+v %+v", c.Rename, c.Text)
	}
	wantServers := []Server{
		{Name: "files", Command: []string{"node", "dist/server.js", "--stdio"}, Env: map[string]string{"LOG_LEVEL": "debug"}, Snapshot: "snapshots/files.json", Line: 33,
			Probes: []Probe{
				{ID: "prompts/get summarize", Method: "prompts/get", Name: "summarize", Arguments: json.RawMessage(`{"doc":"README.md"}`)},
				{ID: "resources/read", Method: "resources/read", AllResources: true, MaxResources: 10},
			}},
		{Name: "remote", URL: "https://mcp.example.com/mcp", Line: 44},
	}
	if d := cmp.Diff(wantServers, c.Servers); d != "" {
		t.Errorf("servers (-want +got):\n%s", d)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "---\n"} {
		c, err := Parse("x.yaml", []byte(src))
		if err != nil || c == nil {
			t.Errorf("Parse(%q) = %v, %v", src, c, err)
		}
	}
}

// parseErrorCase is a configuration source and the one error it gets.
type parseErrorCase struct{ name, src, want string }

// checkParseErrors parses each case's source as .mcp-surface.yaml; each
// must fail with exactly its error.
func checkParseErrors(t *testing.T, cases []parseErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(".mcp-surface.yaml", []byte(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	checkParseErrors(t, []parseErrorCase{
		{"unknown top-level key", "version: 1\nseverty:\n  tool-removed: off\n",
			`.mcp-surface.yaml:2: unknown key "severty" (did you mean "severity"?)`},
		{"unknown key without suggestion", "colour: blue\n",
			`.mcp-surface.yaml:1: unknown key "colour"`},
		{"repeated key", "profile: strict\nprofile: lenient\n",
			`.mcp-surface.yaml:2: key "profile" repeated`},
		{"bad version", "version: 2\n",
			`.mcp-surface.yaml:1: version 2 is not supported (this mcp-surface reads version 1)`},
		{"bad profile", "profile: strictt\n",
			`.mcp-surface.yaml:1: unknown profile "strictt": use default, strict or lenient (did you mean "strict"?)`},
		{"unknown rule", "severity:\n  tool-remove: off\n",
			`.mcp-surface.yaml:2: unknown rule "tool-remove" (did you mean "tool-removed"?)`},
		{"bad severity", "severity:\n  tool-removed: braking\n",
			`.mcp-surface.yaml:2: tool-removed: unknown severity "braking": use breaking, risky, minor, patch, info or off (error, warning and note are accepted) (did you mean "breaking"?)`},
		{"severity not a mapping", "severity: [a]\n",
			`.mcp-surface.yaml:1: severity must be a mapping of rule IDs to severities`},
		{"ack without reason", "acknowledged:\n  - rule: tool-removed\n    tool: x\n",
			`.mcp-surface.yaml:2: an acknowledgement needs a reason: say why the change is accepted`},
		{"ack with placeholder reason", "acknowledged:\n  - rule: tool-removed\n    reason: TODO\n",
			`.mcp-surface.yaml:2: reason is still the TODO placeholder: say why the change is accepted`},
		{"ack without rule or fingerprint", "acknowledged:\n  - tool: x\n    reason: ok\n",
			`.mcp-surface.yaml:2: an acknowledgement needs a rule or a fingerprint`},
		{"ack bad date", "acknowledged:\n  - rule: tool-removed\n    reason: ok\n    expires: 31/01/2030\n",
			`.mcp-surface.yaml:4: expires must be a date YYYY-MM-DD, not "31/01/2030"`},
		{"ack bad fingerprint", "acknowledged:\n  - fingerprint: XYZ\n    reason: ok\n",
			`.mcp-surface.yaml:2: fingerprint "XYZ" is not 16 lower-case hex digits`},
		{"ack two subjects", "acknowledged:\n  - rule: tool-removed\n    tool: a\n    prompt: b\n    reason: ok\n",
			`.mcp-surface.yaml:4: an acknowledgement names one subject (tool, prompt, resource, template or server)`},
		{"ack unknown key", "acknowledged:\n  - rule: tool-removed\n    reson: ok\n",
			`.mcp-surface.yaml:3: unknown key "reson" (did you mean "reason"?)`},
		{"ack unknown rule", "acknowledged:\n  - rule: tool-removd\n    reason: ok\n",
			`.mcp-surface.yaml:2: unknown rule "tool-removd" (did you mean "tool-removed"?)`},
		{"bad regexp", "text:\n  injectionPatterns: ['(']\n",
			`.mcp-surface.yaml:2: text.injectionPatterns: invalid regular expression: error parsing regexp: missing closing ): ` + "`(`"},
		{"bad ratio", "text:\n  lengthSpikeRatio: fast\n",
			`.mcp-surface.yaml:2: text.lengthSpikeRatio must be a number, not "fast"`},
		{"bad threshold", "rename:\n  threshold: 2\n",
			`.mcp-surface.yaml:2: rename.threshold must be in (0, 1], not 2`},
		{"probe unknown key", "servers:\n  - name: a\n    command: run\n    probes:\n      - prompt: x\n",
			`.mcp-surface.yaml:5: unknown key "prompt"`},
		{"probe bad method", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: prompt/get\n        name: x\n",
			`.mcp-surface.yaml:5: probe method "prompt/get": use tools/call, prompts/get, resources/read, completion/complete (did you mean "prompts/get"?)`},
		{"probe without uri", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: resources/read\n",
			`.mcp-surface.yaml:5: a resources/read probe needs exactly one of uri and allResources: true`},
		{"server without command", "servers:\n  - name: a\n",
			`.mcp-surface.yaml:2: server "a" needs exactly one of command and url`},
		{"yaml syntax", "severity:\n  a: b\n c: d\n",
			`.mcp-surface.yaml:2: did not find expected key`},
	})
}

func TestParseReportsEveryError(t *testing.T) {
	_, err := Parse("c.yaml", []byte("severty: 1\nprofile: x\n"))
	es, ok := err.(Errors)
	if !ok || len(es) != 2 || es[0].Line != 1 || es[1].Line != 2 {
		t.Fatalf("err = %#v", err)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		glob, s string
		want    bool
	}{
		{"/inputSchema/*", "/inputSchema/properties", true},
		{"/inputSchema/*", "/inputSchema/properties/x", false},
		{"/inputSchema/**", "/inputSchema/properties/x", true},
		{"text-*", "text-url-added", true},
		{"a?c", "abc", true},
		{"a.c", "abc", false},
	} {
		if got := glob(tc.glob).MatchString(tc.s); got != tc.want {
			t.Errorf("glob(%q).Match(%q) = %v", tc.glob, tc.s, got)
		}
	}
}
