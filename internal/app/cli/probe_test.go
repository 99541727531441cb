package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
)

// probeConfig writes a .mcp-surface.yaml with one server, this test
// binary in the given mode, and returns its path. body is indented under
// the server entry.
func probeConfig(t *testing.T, mode, body string) string {
	t.Helper()
	dir := t.TempDir()
	src := fmt.Sprintf("servers:\n  - name: %s\n    command: [%s]\n    env: {%s: %s}\n    snapshot: mcp-surface.json\n%s",
		mode, strconv.Quote(os.Args[0]), testserver.EnvVar, mode, body)
	path := filepath.Join(dir, ".mcp-surface.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type probeReport struct {
	Findings []struct {
		Rule    string `json:"rule"`
		Level   string `json:"level"`
		Subject struct{ Kind, Name string }
		Pointer string `json:"pointer"`
		Message string `json:"message"`
	} `json:"findings"`
	Servers []struct {
		Notes []string `json:"notes"`
	} `json:"servers"`
}

func runProbeJSON(t *testing.T, env []string, args ...string) (probeReport, result) {
	t.Helper()
	r := run(t, env, append([]string{"probe", "--format", "json", "--schema-dir", spectest.SchemaDir(t)}, args...)...)
	var rep probeReport
	if r.code != frontend.ExitFailure {
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("report is not JSON (exit %d): %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
	}
	return rep, r
}

// lines renders findings as "level rule kind name pointer".
func (rep probeReport) lines() []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, fmt.Sprintf("%s %s %s %q %q", f.Level, f.Rule, f.Subject.Kind, f.Subject.Name, f.Pointer))
	}
	return out
}

const allProbes = `    require-probes: all-advertised
    probes:
      - {id: echo, method: tools/call, name: echo, arguments: {message: hi}}
      - {id: add, method: tools/call, name: add, arguments: {a: 1, b: 2}}
      - {id: weather, method: tools/call, name: weather, arguments: {city: Paris}}
      - {id: chart, method: tools/call, name: chart}
      - {id: speak, method: tools/call, name: speak}
      - {id: find_file, method: tools/call, name: find_file, arguments: {name: readme}}
      - {id: attach, method: tools/call, name: attach}
      - {id: fail, method: tools/call, name: fail, expect: is-error}
      - {id: unknown tool, method: tools/call, name: no_such_tool, expect: rpc-error}
      - {id: greet, method: prompts/get, name: greet, arguments: {name: Ada, language: en}}
      - {id: greet without name, method: prompts/get, name: greet, expect: rpc-error}
      - {id: show_logo, method: prompts/get, name: show_logo}
      - {id: with_readme, method: prompts/get, name: with_readme}
      - {id: every resource, method: resources/read, allResources: true}
      - {id: item, method: resources/read, uri: "test://probes/items/2"}
      - {id: language, method: completion/complete, ref: {type: ref/prompt, name: greet}, argumentName: language, argumentValue: e}
      - {id: item id, method: completion/complete, ref: {type: ref/resource, uri: "test://probes/items/{id}"}, argumentName: id, argumentValue: "1"}
`

// A well-behaved server probed everywhere passes clean at every revision
// that has resource links, and the coverage names everything as
// exercised. 2025-03-26 has no resource_link content: the one the SDK
// sends anyway is found.
func TestProbeWellBehavedServerIsClean(t *testing.T) {
	t.Parallel()
	cfg := probeConfig(t, testserver.ModeProbes, allProbes)
	rep, r := runProbeJSON(t, nil, "--config", cfg, "--protocol-version", "2025-03-26")
	if d := cmp.Diff([]string{`error schema-violation tool "find_file" "/content/1"`}, rep.lines()); d != "" || r.code != frontend.ExitFindings {
		t.Errorf("2025-03-26: exit %d, findings (-want +got):\n%s", r.code, d)
	}
	// The same run twice gives the same bytes.
	if _, again := runProbeJSON(t, nil, "--config", cfg, "--protocol-version", "2025-03-26"); again.stdout != r.stdout {
		t.Errorf("two runs differ:\n%s", cmp.Diff(r.stdout, again.stdout))
	}
	for _, rev := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			rep, r := runProbeJSON(t, nil, "--config", cfg, "--protocol-version", rev, "--fail-on", "warning")
			if r.code != frontend.ExitOK || len(rep.Findings) != 0 {
				t.Fatalf("exit %d, findings:\n%s\n%s", r.code, strings.Join(rep.lines(), "\n"), r.stderr)
			}
			notes := strings.Join(rep.Servers[0].Notes, "\n")
			wantIn(t, "notes", notes,
				"probes: 19 calls answered",
				"probes exercised 8 of 8 tools: add, attach, chart, echo, fail, find_file, speak, weather",
				"probes exercised 3 of 3 prompts",
				"probes exercised 3 of 3 resources",
				"probes exercised 1 of 1 resource template: test://probes/items/{id}",
				"probes made 2 completion/complete calls",
			)
		})
	}
}

// Every deliberately wrong answer of probe-wrong is found, by rule,
// subject and pointer.
func TestProbeWrongResults(t *testing.T) {
	t.Parallel()
	cfg := probeConfig(t, testserver.ModeProbeWrong, `    protocolVersion: 2025-06-18
    require-probes: [tools/call, prompts/get, resources/read]
    probes:
      - {id: echo, method: tools/call, name: echo, arguments: {message: hi}}
      - {id: weather, method: tools/call, name: weather, arguments: {city: Paris}}
      - {id: snapshot, method: tools/call, name: snapshot}
      - {id: record, method: tools/call, name: record}
      - {id: link, method: tools/call, name: link}
      - {id: flaky, method: tools/call, name: flaky, expect: is-error}
      - {id: unknown, method: tools/call, name: no_such_tool, expect: rpc-error}
      - {id: greet, method: prompts/get, name: greet, arguments: {name: Ada}}
      - {id: readme, method: resources/read, uri: "test://wrong/readme.md"}
`)
	rep, r := runProbeJSON(t, nil, "--config", cfg)
	if r.code != frontend.ExitFindings {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	want := []string{
		`error schema-violation prompt "greet" "/messages/0/role"`,
		`error probe-coverage-incomplete resource "test://wrong/logo.png" ""`,
		`error probe-expectation-failed tool "flaky" "/probe/flaky"`,
		`error schema-violation tool "link" "/content/0/uri"`,
		`error probe-expectation-failed tool "no_such_tool" "/probe/unknown"`,
		`error content-block-invalid tool "record" "/content/0/mimeType"`,
		`error schema-violation tool "snapshot" "/content/0/mimeType"`,
		`error tool-result-structured-content-invalid tool "weather" "/structuredContent/temp"`,
		`error tool-result-structured-content-invalid tool "weather" "/structuredContent/unit"`,
		`warning resource-contents-mime-type-mismatch resource "test://wrong/readme.md" "/contents/0/mimeType"`,
		`warning tool-call-failure-as-rpc-error tool "flaky" ""`,
		`warning tool-call-unknown-tool-not-rpc-error tool "no_such_tool" ""`,
	}
	if d := cmp.Diff(want, rep.lines()); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	for _, f := range rep.Findings {
		if f.Rule == "probe-expectation-failed" && f.Subject.Name == "flaky" &&
			f.Message != `probe "flaky" (tools/call flaky) expected a result with isError: true, got JSON-RPC error -32603 ("database unavailable")` {
			t.Errorf("message: %s", f.Message)
		}
	}
}

// A probe that never gets an answer, or whose answer is too big, stops
// the run with exit 2 and names the flag that raises the bound.
func TestProbeBounds(t *testing.T) {
	for _, tc := range []struct{ mode, flag, value, want string }{
		{testserver.ModeProbeHang, "--request-timeout", "300ms", "request timeout limit of 300ms reached; raise it with --request-timeout"},
		{testserver.ModeProbeHuge, "--max-bytes", "1000000", "total bytes limit of 1000000 bytes reached; raise it with --max-bytes"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			r := run(t, []string{testserver.EnvFor(tc.mode)}, "probe", "--schema-dir", spectest.SchemaDir(t), tc.flag, tc.value,
				"--call", `echo={"message":"x"}`, "--", os.Args[0])
			if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "probe --call echo (tools/call echo)") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
		})
	}
}

// Argument values taken from the environment appear in no report format,
// not on stderr, and not in --frames.
func TestProbeSecretsAreNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "tok-3f9a1c2e-never-print"
	cfg := probeConfig(t, testserver.ModeProbes, `    probes:
      - {id: echo, method: tools/call, name: echo, arguments: {message: "${PROBE_SECRET}"}, expect: is-error}
`)
	frames := filepath.Join(t.TempDir(), "frames.jsonl")
	env := []string{"PROBE_SECRET=" + secret}
	for _, format := range []string{"text", "json", "markdown", "sarif", "github", "junit"} {
		r := run(t, env, "probe", "--config", cfg, "--schema-dir", spectest.SchemaDir(t), "--format", format, "--frames", frames,
			"--call", `fail={"token":"${PROBE_SECRET}"}`)
		if r.code != frontend.ExitFindings {
			t.Fatalf("%s: exit %d\n%s", format, r.code, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("%s: the secret was printed:\n%s\n%s", format, r.stdout, r.stderr)
		}
		if format == "text" && (!strings.Contains(r.stdout, `probe "echo" (tools/call echo with arguments message)`) ||
			!strings.Contains(r.stdout, `probe "--call fail" (tools/call fail with arguments token)`)) {
			t.Errorf("the probes are not named with their argument names:\n%s", r.stdout)
		}
	}
	data, err := os.ReadFile(frames)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), `"message":"[redacted]"`) {
		t.Errorf("--frames is not redacted:\n%s", data)
	}
	r := run(t, nil, "probe", "--config", cfg, "--schema-dir", spectest.SchemaDir(t))
	if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "environment variable PROBE_SECRET is not set") {
		t.Errorf("unset variable: exit %d\n%s", r.code, r.stderr)
	}
}

// pin: shape: no pins yet is a warning; --update writes them (the same
// bytes every time); a changed shape is an output-* change.
func TestProbePinnedShapes(t *testing.T) {
	t.Parallel()
	cfg := probeConfig(t, testserver.ModeProbes, `    probes:
      - {id: sum, method: tools/call, name: add, arguments: {a: 1, b: 2}, pin: shape}
      - {id: weather, method: tools/call, name: weather, arguments: {city: Paris}, pin: shape}
`)
	pins := filepath.Join(filepath.Dir(cfg), probe.DefaultPinsFile)
	rep, r := runProbeJSON(t, nil, "--config", cfg)
	if d := cmp.Diff([]string{
		`warning probe-shape-not-pinned tool "add" "/probe/sum"`,
		`warning probe-shape-not-pinned tool "weather" "/probe/weather"`,
	}, rep.lines()); d != "" || r.code != frontend.ExitOK {
		t.Errorf("exit %d, findings (-want +got):\n%s", r.code, d)
	}
	var first []byte
	for i := range 2 {
		rep, r = runProbeJSON(t, nil, "--config", cfg, "--update")
		if r.code != frontend.ExitOK || len(rep.Findings) != 0 || !strings.Contains(r.stderr, "wrote "+pins+" (2 pinned probes)") {
			t.Fatalf("--update: exit %d %v\n%s", r.code, rep.lines(), r.stderr)
		}
		data, err := os.ReadFile(pins)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = data
		} else if string(data) != string(first) {
			t.Errorf("two updates wrote different bytes")
		}
	}
	if !strings.Contains(string(first), `"sum": {`) || strings.Contains(string(first), "21.5") {
		t.Errorf("pins file:\n%s", first)
	}
	rep, r = runProbeJSON(t, nil, "--config", cfg)
	if r.code != frontend.ExitOK || len(rep.Findings) != 0 {
		t.Errorf("against its own pins: exit %d %v", r.code, rep.lines())
	}
	// The pinned result had a string "sum" and a "currency"; now it is a
	// number and there is no currency.
	changed := strings.Replace(string(first), `"sum": {
              "type": "number"
            }`, `"currency": {"type": "string"}, "sum": {"type": "string"}`, 1)
	changed = strings.Replace(changed, `"required": [
            "sum"
          ]`, `"required": ["currency", "sum"]`, 1)
	if changed == string(first) {
		t.Fatalf("the test's edit of the pins file did not apply:\n%s", first)
	}
	if err := os.WriteFile(pins, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, r = runProbeJSON(t, nil, "--config", cfg)
	if d := cmp.Diff([]string{
		`error output-required-property-removed tool "add" "/probe/sum/properties/currency"`,
		`error output-type-changed tool "add" "/probe/sum/properties/sum/type"`,
	}, rep.lines()); d != "" || r.code != frontend.ExitFindings {
		t.Errorf("exit %d, findings (-want +got):\n%s", r.code, d)
	}
}

func TestProbeUsage(t *testing.T) {
	t.Parallel()
	cfg := probeConfig(t, testserver.ModeProbes, "    probes:\n      - {method: tools/call, name: echo, arguments: {message: hi}}\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", cfg, "--server", "nope"}, "--server nope: " + cfg + " has no such server (servers: probes)"},
		{[]string{"--call", "echo={not json}", "--", "x"}, "the arguments must be a JSON object"},
		{[]string{"--get", `greet={"n":1}`, "--", "x"}, "prompt argument n must be a string"},
		{[]string{"--require", "tool/call", "--config", cfg}, `--require "tool/call"`},
		{[]string{"--config", filepath.Join(t.TempDir(), "missing.yaml")}, "configuration"},
		{[]string{"--", "x"}, "nothing to probe"},
	} {
		r := run(t, nil, append([]string{"probe", "--schema-dir", spectest.SchemaDir(t)}, tc.args...)...)
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %s", tc.args, r.code, r.stderr)
		}
	}
}
