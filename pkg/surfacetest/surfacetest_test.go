package surfacetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeTB records what Check reports instead of failing the test.
type fakeTB struct {
	name                 string // testing.TB's Name, when set
	logs, errors, fatals []string
}

func (f *fakeTB) Name() string { return f.name }

func (f *fakeTB) Helper() {}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

func (f *fakeTB) failed() bool { return len(f.errors)+len(f.fatals) > 0 }

// notesServer is a small server with the given tools.
func notesServer(version string, tools ...string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: version}, nil)
	for _, name := range tools {
		s.AddTool(&mcp.Tool{
			Name:        name,
			Description: "The " + name + " tool of the notebook.",
			InputSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"id": map[string]any{"type": "string"}},
				"required":   []string{"id"},
			},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	}
	return s
}

// A removed tool fails the check with the diff in the message; after an
// update the same server passes.
func TestRemovedToolFailsUntilUpdate(t *testing.T) {
	dir := spectest.SchemaDir(t)
	snap := filepath.Join(t.TempDir(), "testdata", "mcp-surface.json")
	o := Options{Snapshot: snap, SchemaDir: dir, NoDownload: true}

	var tb fakeTB
	Check(&tb, notesServer("1.0.0", "get_note", "delete_note"), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Update: true})
	if tb.failed() {
		t.Fatalf("update failed: %q %q", tb.errors, tb.fatals)
	}
	if _, err := os.Stat(snap); err != nil || !strings.Contains(strings.Join(tb.logs, "\n"), "wrote "+snap) {
		t.Fatalf("no snapshot written (%v): %q", err, tb.logs)
	}

	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note", "delete_note"), o)
	if tb.failed() || len(tb.logs) != 0 {
		t.Errorf("an unchanged server: errors %q fatals %q logs %q", tb.errors, tb.fatals, tb.logs)
	}

	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note"), o)
	if len(tb.errors) != 1 || len(tb.fatals) != 0 {
		t.Fatalf("a removed tool: errors %q fatals %q", tb.errors, tb.fatals)
	}
	msg := tb.errors[0]
	for _, want := range []string{"tool-removed", "delete_note", "-surfacetest.update", UpdateEnv + "=1", snap} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure does not say %q:\n%s", want, msg)
		}
	}
	t.Logf("the failure reads:\n%s", msg)

	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note"), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Update: true})
	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note"), o)
	if tb.failed() {
		t.Errorf("after the update: errors %q fatals %q", tb.errors, tb.fatals)
	}
}

// A change below FailOn (an added tool is minor: a note) only logs.
func TestNoteLevelChangeOnlyLogs(t *testing.T) {
	dir := spectest.SchemaDir(t)
	snap := filepath.Join(t.TempDir(), "mcp-surface.json")
	var tb fakeTB
	Check(&tb, notesServer("1.0.0", "get_note"), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Update: true})
	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note", "add_note"), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true})
	if tb.failed() {
		t.Fatalf("an added tool failed: %q %q", tb.errors, tb.fatals)
	}
	if logs := strings.Join(tb.logs, "\n"); !strings.Contains(logs, "tool-added") || !strings.Contains(logs, "add_note") {
		t.Errorf("the added tool is not logged: %q", tb.logs)
	}
	// At note, the same change fails.
	tb = fakeTB{}
	Check(&tb, notesServer("1.0.0", "get_note", "add_note"), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, FailOn: "note"})
	if len(tb.errors) != 1 {
		t.Errorf("FailOn note: errors %q", tb.errors)
	}
}

// Without a snapshot, or without schemas, the failure says what to do.
func TestMissingSnapshotAndSchemas(t *testing.T) {
	dir := spectest.SchemaDir(t)
	var tb fakeTB
	Check(&tb, notesServer("1.0.0", "get_note"), Options{Snapshot: filepath.Join(t.TempDir(), "none.json"), SchemaDir: dir, NoDownload: true})
	if len(tb.fatals) != 1 || !strings.Contains(tb.fatals[0], "-surfacetest.update") {
		t.Errorf("no snapshot: %q", tb.fatals)
	}
	tb = fakeTB{}
	empty := t.TempDir()
	Check(&tb, notesServer("1.0.0", "get_note"), Options{Snapshot: filepath.Join(empty, "s.json"), SchemaDir: empty, CacheDir: empty, NoDownload: true})
	if len(tb.fatals) != 1 || !strings.Contains(tb.fatals[0], "mcp-surface schemas fetch") || !strings.Contains(tb.fatals[0], SchemaDirEnv) {
		t.Errorf("no schemas: %q", tb.fatals)
	}
}

// A client profile's findings are reported like any other: the lint
// names what Gemini refuses, and the comparison the tool it now loses.
func TestClients(t *testing.T) {
	dir := spectest.SchemaDir(t)
	snap := filepath.Join(t.TempDir(), "mcp-surface.json")
	server := func(extra map[string]any) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
		schema := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}
		for k, v := range extra {
			schema[k] = v
		}
		s.AddTool(&mcp.Tool{Name: "get", Description: "Get a note.", InputSchema: schema},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
		return s
	}
	o := Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Clients: []string{"gemini"}, FailOn: "warning"}
	var tb fakeTB
	up := o
	up.Update = true
	Check(&tb, server(nil), up)
	if tb.failed() {
		t.Fatalf("a schema Gemini accepts: %q %q", tb.errors, tb.fatals)
	}
	tb = fakeTB{}
	Check(&tb, server(map[string]any{"additionalProperties": false}), o)
	if len(tb.errors) != 1 {
		t.Fatalf("errors %q fatals %q", tb.errors, tb.fatals)
	}
	for _, want := range []string{"client-schema-keyword-unsupported", "tool-became-client-incompatible", "https://ai.google.dev/api/caching#Schema"} {
		if !strings.Contains(tb.errors[0], want) {
			t.Errorf("the failure does not say %q:\n%s", want, tb.errors[0])
		}
	}
}

// converter is a server whose next version removes an enum value, renames
// a tool and adds a required argument (next).
func converter(next bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "units", Version: "1.0.0"}, nil)
	units := []string{"C", "F", "K"}
	name, required := "convert_temp", []string{"value"}
	if next {
		units, name, required = []string{"C", "K"}, "convert_temperature", []string{"value", "precision"}
	}
	nop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	s.AddTool(&mcp.Tool{Name: "convert_unit", Description: "Convert a value between units.", InputSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"unit": map[string]any{"type": "string", "enum": units}, "value": map[string]any{"type": "number"}},
		"required":   []string{"unit", "value"},
	}}, nop)
	s.AddTool(&mcp.Tool{Name: name, Description: "Convert a temperature between scales.", InputSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"value": map[string]any{"type": "number"}},
	}}, nop)
	s.AddTool(&mcp.Tool{Name: "round", Description: "Round a number.", InputSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"value": map[string]any{"type": "number"}, "precision": map[string]any{"type": "integer"}},
		"required":   required,
	}}, nop)
	return s
}

// The failure reads as `snapshot --check` and the npm and Python helpers
// read: the verdict first, a line per change with the call that now
// fails, a rename as a rename, and how to rewrite the snapshot in go
// test's terms.
func TestFailureIsTheBrief(t *testing.T) {
	dir := spectest.SchemaDir(t)
	snap := filepath.Join(t.TempDir(), "mcp-surface.json")
	var tb fakeTB
	Check(&tb, converter(false), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Update: true})
	tb = fakeTB{name: t.Name()}
	Check(&tb, converter(true), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true})
	if len(tb.errors) != 1 {
		t.Fatalf("errors %q fatals %q", tb.errors, tb.fatals)
	}
	msg := tb.errors[0]
	lines := strings.Split(msg, "\n")
	if want := "3 tools break existing clients: " + snap + " is out of date"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	for _, want := range []string{
		`  tool convert_temp: renamed to convert_temperature: calls with the old name fail [tool-renamed]`,
		`  tool convert_unit: "unit": enum value "F" removed; this call was accepted before and is rejected now: {"unit":"F","value":0} [input-enum-value-removed]`,
		`  tool round: property "precision" became required; this call was accepted before and is rejected now: {"value":0} [input-property-became-required]`,
	} {
		if !strings.Contains(msg, "\n"+want+"\n") {
			t.Errorf("the failure lacks\n%s\nin\n%s", want, msg)
		}
	}
	if last := lines[len(lines)-1]; last != "If the change is intended: run `go test -run '^TestFailureIsTheBrief$' -surfacetest.update` (or "+UpdateEnv+"=1) and commit "+snap {
		t.Errorf("last line: %s", last)
	}
	t.Logf("the failure reads:\n%s", msg)

	// The update says what it rewrote.
	tb = fakeTB{}
	Check(&tb, converter(true), Options{Snapshot: snap, SchemaDir: dir, NoDownload: true, Update: true})
	if logs := strings.Join(tb.logs, "\n"); !strings.Contains(logs, "surfacetest: rewrote "+snap+": 3 tools break existing clients\n  tool convert_temp: renamed to convert_temperature") {
		t.Errorf("the update does not say what it rewrote:\n%s", logs)
	}
}
