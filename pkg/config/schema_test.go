package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// The published schema for editors, schema/config.schema.json, is held
// against the loader: the same keys at every level, the same enumerations,
// and the same verdict on the examples and on a few broken files.

var schemaPath = filepath.Join("..", "..", "schema", "config.schema.json")

func rawSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	return doc
}

func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// at walks the raw schema by keys, following a $ref found on the way.
func at(t *testing.T, root map[string]any, path ...string) map[string]any {
	t.Helper()
	cur := root
	for _, k := range path {
		next, ok := cur[k].(map[string]any)
		if !ok {
			t.Fatalf("schema: no object at %q of %v", k, path)
		}
		cur = next
		if ref, ok := cur["$ref"].(string); ok {
			cur = root
			for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
				cur, ok = cur[part].(map[string]any)
				if !ok {
					t.Fatalf("schema: dangling $ref %q", ref)
				}
			}
		}
	}
	return cur
}

func TestSchemaKeysMatchTheLoader(t *testing.T) {
	root := rawSchema(t)
	p := &parser{file: "test"}
	for _, tc := range []struct {
		name   string
		loader map[string]func(*yaml.Node)
		path   []string
	}{
		{"the file", p.fileKeys(&Config{}), nil},
		{"an acknowledgement", p.ackKeys(&Ack{}), []string{"properties", "acknowledged", "items"}},
		{"lifecycle", p.lifecycleKeys(&Lifecycle{}), []string{"properties", "lifecycle"}},
		{"rename", p.renameKeys(&Rename{}), []string{"properties", "rename"}},
		{"text", p.textKeys(&Text{}), []string{"properties", "text"}},
		{"cost", p.costKeys(&Cost{}), []string{"properties", "cost"}},
		{"cost.budget", p.budgetKeys(&Budget{}), []string{"properties", "cost", "properties", "budget"}},
		{"a server", p.serverKeys(&serverEntry{}), []string{"properties", "servers", "items"}},
		{"a probe", p.probeKeys(&Probe{}), []string{"properties", "servers", "items", "properties", "probes", "items"}},
	} {
		obj := at(t, root, tc.path...)
		if obj["additionalProperties"] != false {
			t.Errorf("%s: the schema must refuse unknown keys (additionalProperties: false), as the loader does", tc.name)
		}
		props, _ := obj["properties"].(map[string]any)
		var inSchema []string
		for k := range props {
			inSchema = append(inSchema, k)
		}
		slices.Sort(inSchema)
		if d := cmp.Diff(slices.Sorted(maps.Keys(tc.loader)), inSchema); d != "" {
			t.Errorf("%s: keys of the loader (-) and of the schema (+):\n%s", tc.name, d)
		}
	}
}

func enumOf(t *testing.T, obj map[string]any) []string {
	t.Helper()
	var out []string
	for _, v := range obj["enum"].([]any) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func TestSchemaEnumsMatchTheLoader(t *testing.T) {
	root := rawSchema(t)
	server := []string{"properties", "servers", "items"}
	probe := append(slices.Clone(server), "properties", "probes", "items")
	for _, tc := range []struct {
		name   string
		loader []string
		path   []string
	}{
		{"profile", []string{ProfileDefault, ProfileStrict, ProfileLenient}, []string{"properties", "profile"}},
		{"protocolVersion", Revisions, append(slices.Clone(server), "properties", "protocolVersion")},
		{"require-probes", requireNames, []string{"$defs", "requireProbe"}},
		{"probe method", ProbeMethods, append(slices.Clone(probe), "properties", "method")},
		{"expect", Expectations, append(slices.Clone(probe), "properties", "expect")},
		{"cost.encoding", Encodings, []string{"properties", "cost", "properties", "encoding"}},
		{"cost.budget.level", budgetLevels, []string{"properties", "cost", "properties", "budget", "properties", "level"}},
	} {
		got := enumOf(t, at(t, root, tc.path...))
		if d := cmp.Diff(tc.loader, got); d != "" {
			t.Errorf("%s: values of the loader (-) and of the schema (+):\n%s", tc.name, d)
		}
	}
	overrides := enumOf(t, at(t, root, "$defs", "override"))
	for _, s := range append(slices.Clone(severityNames), "false") {
		if _, err := parseOverride(s); err != nil || !slices.Contains(overrides, s) {
			t.Errorf("severity %q: the loader (%v) and the schema (listed: %v) disagree", s, err, slices.Contains(overrides, s))
		}
	}
	for _, s := range overrides {
		if _, err := parseOverride(s); err != nil {
			t.Errorf("the schema offers severity %q, which the loader refuses: %v", s, err)
		}
	}
	if got := at(t, root, append(slices.Clone(probe), "properties", "pin")...)["const"]; got != PinShape {
		t.Errorf("pin: schema %v, loader %q", got, PinShape)
	}
	headerNames := at(t, root, append(slices.Clone(server), "properties", "headers", "propertyNames")...)["pattern"]
	if headerNames != httpToken().String() {
		t.Errorf("header names: schema %v, loader %s", headerNames, httpToken())
	}
	ack := []string{"properties", "acknowledged", "items", "properties"}
	if got := at(t, root, append(ack, "fingerprint")...)["pattern"]; got != hex16().String() {
		t.Errorf("fingerprint: schema %v, loader %s", got, hex16())
	}
	increase := at(t, root, "properties", "cost", "properties", "budget", "properties", "increase")["oneOf"].([]any)
	if got := increase[1].(map[string]any)["pattern"]; got != percentage().String() {
		t.Errorf("cost.budget.increase: schema %v, loader %s", got, percentage())
	}
	ruleID := regexp.MustCompile(at(t, root, "$defs", "ruleID")["pattern"].(string))
	for _, r := range rules.All() {
		if !ruleID.MatchString(r.ID) {
			t.Errorf("rule %s does not match the schema's rule ID pattern", r.ID)
		}
	}
}

// jsonOf converts YAML to the JSON an editor's YAML 1.2 language server
// validates: dates stay strings, keys are strings.
func jsonOf(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return jsonOf(n.Content[0])
	case yaml.AliasNode:
		return jsonOf(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := jsonOf(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := []any{}
		for _, e := range n.Content {
			v, err := jsonOf(e)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	}
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return n.Value, nil
}

func schemaVerdict(t *testing.T, sch *jsonschema.Schema, src string) error {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return err
	}
	v, err := jsonOf(&doc)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// exampleConfigs gathers the configuration files the project shows: the
// test files, testdata and every YAML block of the README and docs/ (the
// reference, docs/config.md, among them) whose top-level keys are all
// configuration keys.
func exampleConfigs(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"config_test.go full": full, "servers_test.go serversSrc": serversSrc}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no testdata/*.yaml")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(data)
	}
	keys := (&parser{}).fileKeys(&Config{})
	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	docs = append(docs, filepath.Join("..", "..", "README.md"))
	fence := regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range fence.FindAllStringSubmatch(string(data), -1) {
			var top map[string]any
			if yaml.Unmarshal([]byte(m[1]), &top) != nil || len(top) == 0 {
				continue
			}
			isConfig := true
			for k := range top {
				if _, ok := keys[k]; !ok {
					isConfig = false
				}
			}
			if isConfig {
				out[fmt.Sprintf("%s yaml block %d", filepath.Base(path), i+1)] = m[1]
			}
		}
	}
	return out
}

func TestSchemaAcceptsTheExamples(t *testing.T) {
	sch := compiledSchema(t)
	examples := exampleConfigs(t)
	fromDocs := 0
	for name, src := range examples {
		if strings.Contains(name, "yaml block") {
			fromDocs++
		}
		if _, err := Parse(name, []byte(src)); err != nil {
			t.Errorf("%s: the loader refuses it: %v", name, err)
		}
		if err := schemaVerdict(t, sch, src); err != nil {
			t.Errorf("%s: the schema refuses it: %v", name, err)
		}
	}
	t.Logf("%d examples, %d of them from README.md and docs/", len(examples), fromDocs)
	if fromDocs == 0 {
		t.Error("found no configuration example in README.md and docs/")
	}
}

func TestSchemaAndLoaderRefuseTheSameMistakes(t *testing.T) {
	sch := compiledSchema(t)
	for _, tc := range []struct{ name, src string }{
		{"unknown top-level key", "severty:\n  tool-removed: off\n"},
		{"version 2", "version: 2\n"},
		{"unknown profile", "profile: strictt\n"},
		{"unknown severity", "severity:\n  tool-removed: braking\n"},
		{"severity as a list", "severity: [tool-removed]\n"},
		{"acknowledgement without a reason", "acknowledged:\n  - rule: tool-removed\n"},
		{"TODO reason", "acknowledged:\n  - rule: tool-removed\n    reason: TODO\n"},
		{"acknowledgement without rule or fingerprint", "acknowledged:\n  - tool: x\n    reason: ok\n"},
		{"short fingerprint", "acknowledged:\n  - fingerprint: abc\n    reason: ok\n"},
		{"date not YYYY-MM-DD", "acknowledged:\n  - rule: tool-removed\n    reason: ok\n    expires: 31/01/2030\n"},
		{"misspelt acknowledgement key", "acknowledged:\n  - rule: tool-removed\n    reson: ok\n"},
		{"rename threshold above 1", "rename:\n  threshold: 2\n"},
		{"rename enabled not a boolean", "rename:\n  enabled: sometimes\n"},
		{"length spike ratio below 1", "text:\n  lengthSpikeRatio: 0.5\n"},
		{"encoded length below 8", "text:\n  encodedMinLength: 4\n"},
		{"unknown encoding", "cost:\n  encoding: p50k_base\n"},
		{"misspelt budget key", "cost:\n  budget:\n    per_tool: 100\n"},
		{"budget of zero tokens", "cost:\n  budget:\n    total: 0\n"},
		{"budget as a float", "cost:\n  budget:\n    perTool: 1.5\n"},
		{"increase without a unit", "cost:\n  budget:\n    increase: \"10\"\n"},
		{"increase as a fraction", "cost:\n  budget:\n    increase: 0.1\n"},
		{"negative percentage", "cost:\n  budget:\n    increase: -5%\n"},
		{"budget level none", "cost:\n  budget:\n    level: none\n"},
		{"server without a name", "servers:\n  - command: [node, server.js]\n"},
		{"server with command and url", "servers:\n  - name: a\n    command: run\n    url: https://example.com/mcp\n"},
		{"server with neither", "servers:\n  - name: a\n"},
		{"headers on a command", "servers:\n  - name: a\n    command: run\n    headers: {X-Key: v}\n"},
		{"shell on a url", "servers:\n  - name: a\n    url: https://example.com/mcp\n    shell: true\n"},
		{"shutdownGrace on a url", "servers:\n  - name: a\n    url: https://example.com/mcp\n    shutdownGrace: 1s\n"},
		{"shutdownGrace without a unit", "servers:\n  - name: a\n    command: run\n    shutdownGrace: \"500\"\n"},
		{"unknown revision", "servers:\n  - name: a\n    command: run\n    protocolVersion: 2024-01-01\n"},
		{"unknown require-probes entry", "servers:\n  - name: a\n    command: run\n    require-probes: [tools/list]\n"},
		{"probe method unknown", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: prompt/get\n        name: x\n"},
		{"tools/call probe without a name", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: tools/call\n"},
		{"resources/read probe without uri", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: resources/read\n"},
		{"resources/read probe with both", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: resources/read\n        uri: file:///a\n        allResources: true\n"},
		{"completion probe without ref", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: completion/complete\n        argumentName: x\n"},
		{"is-error outside tools/call", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: prompts/get\n        name: p\n        expect: is-error\n"},
		{"unknown pin", "servers:\n  - name: a\n    command: run\n    probes:\n      - method: tools/call\n        name: t\n        pin: bytes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse(".mcp-surface.yaml", []byte(tc.src)); err == nil {
				t.Error("the loader accepts it")
			}
			if err := schemaVerdict(t, sch, tc.src); err == nil {
				t.Error("the schema accepts it")
			}
		})
	}
}
