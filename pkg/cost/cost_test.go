package cost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// testdata/reference.json holds texts and their token counts obtained
// from the reference implementation (OpenAI's tiktoken, see its note);
// this package must give the same counts in both encodings.
func TestReferenceCounts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Texts []struct {
			What, Text string
			O200k      int `json:"o200k_base"`
			Cl100k     int `json:"cl100k_base"`
		}
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Texts) < 10 {
		t.Fatalf("only %d reference texts", len(ref.Texts))
	}
	for i, r := range ref.Texts {
		for enc, want := range map[Encoding]int{O200kBase: r.O200k, Cl100kBase: r.Cl100k} {
			got, err := count(enc, r.Text)
			if err != nil || got != want {
				t.Errorf("text %d (%s) in %s: %d tokens (err %v), the reference counts %d: %q", i, r.What, enc, got, err, want, r.Text)
			}
		}
	}
}

func mustManifest(t testing.TB, v map[string]any) *manifest.Manifest {
	t.Helper()
	base := map[string]any{
		"snapshotVersion": 1, "protocolVersion": "2025-11-25", "handshake": "initialize",
		"serverInfo": map[string]any{"name": "demo", "version": "1.0.0"}, "capabilities": map[string]any{"tools": map[string]any{}},
	}
	for k, x := range v {
		base[k] = x
	}
	data, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	m := capturetest.Read(t, data)
	return m
}

func tool(name, desc string, props map[string]any) map[string]any {
	t := map[string]any{"name": name, "inputSchema": map[string]any{"type": "object", "properties": props}}
	if desc != "" {
		t["description"] = desc
	}
	return t
}

// The counted text has the three members in the clients' order, only
// those, and only where the tool has them.
func TestToolText(t *testing.T) {
	m := mustManifest(t, map[string]any{"tools": []any{
		map[string]any{"name": "a", "title": "A", "description": "Say <b>hi</b> & go", "annotations": map[string]any{"readOnlyHint": true},
			"inputSchema":  map[string]any{"type": "object", "required": []any{"y", "x"}, "properties": map[string]any{"y": map[string]any{}, "x": map[string]any{}}},
			"outputSchema": map[string]any{"type": "object"}, "_meta": map[string]any{"k": 1}},
		map[string]any{"name": "b", "inputSchema": map[string]any{"type": "object"}},
	}})
	for i, want := range []string{
		`{"name":"a","description":"Say <b>hi</b> & go","inputSchema":{"properties":{"x":{},"y":{}},"required":["x","y"],"type":"object"}}`,
		`{"name":"b","inputSchema":{"type":"object"}}`,
	} {
		got, err := ToolText(m.Tools[i])
		if err != nil || got != want {
			t.Errorf("ToolText(%s) = %s, %v\nwant %s", m.Tools[i].ID, got, err, want)
		}
	}
	if _, err := ToolText(manifest.Item{ID: "x", Raw: json.RawMessage(`[1]`)}); err == nil {
		t.Error("a tool that is not an object must be refused")
	}
}

func TestCompute(t *testing.T) {
	m := mustManifest(t, map[string]any{
		"instructions": "Use the notes tools. Be brief.",
		"tools": []any{
			tool("small_b", "Go.", nil),
			tool("small_a", "Go.", nil),
			tool("big", "Search every note by the words of its title and body, and return the best matches first.", map[string]any{
				"query": map[string]any{"type": "string", "description": "Words to look for."},
			}),
		},
	})
	tb, err := Compute(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Encoding != O200kBase {
		t.Errorf("encoding %s, want the default o200k_base", tb.Encoding)
	}
	var names []string
	sum := tb.Instructions
	share := tb.InstructionsShare
	for _, x := range tb.Tools {
		names = append(names, x.Name)
		sum += x.Tokens
		share += x.Share
		txt, _ := ToolText(mustFind(t, m, x.Name))
		if n, _ := count(O200kBase, txt); n != x.Tokens {
			t.Errorf("%s: %d tokens, its text counts %d", x.Name, x.Tokens, n)
		}
	}
	if want := []string{"big", "small_a", "small_b"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want largest first, ties by name: %v", names, want)
	}
	if n, _ := count(O200kBase, "Use the notes tools. Be brief."); n != tb.Instructions || n == 0 {
		t.Errorf("instructions %d tokens, want %d", tb.Instructions, n)
	}
	if sum != tb.Total || share < 0.999999 || share > 1.000001 {
		t.Errorf("total %d, parts sum to %d; shares sum to %v", tb.Total, sum, share)
	}
	cl, err := Compute(m, Options{Encoding: Cl100kBase})
	if err != nil || cl.Encoding != Cl100kBase || cl.Total == 0 {
		t.Errorf("cl100k_base: %+v, %v", cl, err)
	}
	if _, err := Compute(m, Options{Encoding: "p50k_base"}); err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Errorf("an unknown encoding must be refused with the known ones, got %v", err)
	}
	empty, err := Compute(nil, Options{})
	if err != nil || empty.Total != 0 || empty.Tools == nil {
		t.Errorf("nil manifest: %+v, %v", empty, err)
	}
	a, _ := json.Marshal(tb)
	tb2, _ := Compute(m, Options{})
	b, _ := json.Marshal(tb2)
	if string(a) != string(b) {
		t.Error("two counts differ")
	}
}

func mustFind(t *testing.T, m *manifest.Manifest, name string) manifest.Item {
	it, ok := m.Find(manifest.ListTools, name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return it
}

func TestCompare(t *testing.T) {
	base := &Table{Total: 100, Instructions: 10, Tools: []Tool{{Name: "a", Tokens: 50}, {Name: "b", Tokens: 30}, {Name: "gone", Tokens: 10}}}
	head := &Table{Total: 135, Instructions: 5, Tools: []Tool{{Name: "a", Tokens: 50}, {Name: "b", Tokens: 60}, {Name: "new", Tokens: 20}}}
	c := Compare(base, head)
	want := []Mover{
		{Kind: MoverTool, Name: "b", Before: 30, After: 60},
		{Kind: MoverTool, Name: "new", After: 20},
		{Kind: MoverTool, Name: "gone", Before: 10},
		{Kind: MoverInstructions, Before: 10, After: 5},
	}
	if d := cmp.Diff(want, c.Movers); d != "" {
		t.Errorf("movers (-want +got):\n%s", d)
	}
	if c.Delta() != 35 || c.SignedPercent() != "+35%" {
		t.Errorf("delta %d %s", c.Delta(), c.SignedPercent())
	}
	if got := Compare(nil, head); got.SignedPercent() != "new" || got.Delta() != 135 {
		t.Errorf("from nothing: %+v %s", got, got.SignedPercent())
	}
	if got := Compare(head, head); len(got.Movers) != 0 || got.Delta() != 0 {
		t.Errorf("no change: %+v", got)
	}
}

func TestBudget(t *testing.T) {
	tb := &Table{Encoding: O200kBase, Total: 1000, Tools: []Tool{{Name: "big", Tokens: 600}, {Name: "mid", Tokens: 300}, {Name: "small", Tokens: 100}}}
	var got []string
	for _, f := range (Budget{Total: 900, PerTool: 250}).Check(tb) {
		got = append(got, fmt.Sprintf("%s %s %s %s: %s %s", f.Rule, f.Level, f.Subject.Kind, f.Subject.Name, f.Message, f.After))
	}
	want := []string{
		`context-budget-exceeded warning server : the surface costs 1000 tokens per session (o200k_base), over its budget of 900 by 100 {"budget":900,"encoding":"o200k_base","tokens":1000}`,
		`tool-context-budget-exceeded warning tool big: tool "big" costs 600 tokens (o200k_base), over the per-tool budget of 250 by 350 {"budget":250,"encoding":"o200k_base","tokens":600}`,
		`tool-context-budget-exceeded warning tool mid: tool "mid" costs 300 tokens (o200k_base), over the per-tool budget of 250 by 50 {"budget":250,"encoding":"o200k_base","tokens":300}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Check (-want +got):\n%s", d)
	}
	if fs := (Budget{Total: 1000, PerTool: 600}).Check(tb); len(fs) != 0 {
		t.Errorf("a budget met exactly is not exceeded: %v", fs)
	}
	if fs := (Budget{}).Check(tb); len(fs) != 0 {
		t.Errorf("the zero budget reports nothing: %v", fs)
	}
	if fs := (Budget{Total: 1, Level: "error"}).Check(tb); len(fs) != 1 || fs[0].Level != "error" {
		t.Errorf("the configured level: %v", fs)
	}

	base := &Table{Encoding: O200kBase, Total: 800}
	for _, c := range []struct {
		b    Budget
		want bool
	}{
		{Budget{IncreaseTokens: 200}, false},
		{Budget{IncreaseTokens: 199}, true},
		{Budget{IncreasePercent: 25}, false},
		{Budget{IncreasePercent: 24.9}, true},
		{Budget{IncreaseTokens: 500, IncreasePercent: 10}, true},
		{Budget{Total: 1}, false},
	} {
		fs := c.b.CheckIncrease(base, tb)
		if (len(fs) == 1) != c.want {
			t.Errorf("%+v: %v, want exceeded %v", c.b, fs, c.want)
		}
		if rev := c.b.CheckIncrease(tb, base); len(rev) != 0 {
			t.Errorf("%+v: a decrease is never over: %v", c.b, rev)
		}
	}
	if fs := (Budget{IncreasePercent: 1}).CheckIncrease(nil, tb); len(fs) != 0 {
		t.Errorf("a percentage of nothing is not judged: %v", fs)
	}
	if fs := (Budget{IncreaseTokens: 10, Level: "note"}).CheckIncrease(nil, tb); len(fs) != 1 || fs[0].Level != "note" {
		t.Errorf("tokens from nothing: %v", fs)
	}
}

func TestShort(t *testing.T) {
	tabletest.Map(t, "Short", Short, map[int]string{0: "0", 999: "999", 1000: "1k", 1234: "1.2k", 19700: "19.7k", 99949: "99.9k",
		100_000: "100k", 488_400: "488k", 999_499: "999k", 999_500: "1M", 1_500_000: "1.5M", -1260: "-1.3k"})
	if SignedShort(1200) != "+1.2k" || SignedShort(-300) != "-300" || SignedShort(0) != "+0" {
		t.Error("SignedShort")
	}
}

func TestParseEncoding(t *testing.T) {
	for _, s := range []string{"", "o200k_base", "cl100k_base"} {
		if _, err := ParseEncoding(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseEncoding("gpt2"); err == nil {
		t.Error("gpt2 is not offered")
	}
	if e := Encodings(); e[0] != DefaultEncoding || len(e) != 2 {
		t.Errorf("Encodings() = %v", e)
	}
}

// Skills' frontmatter and groups' entries and instructions count, each
// in its own row and in the total.
func TestExtensionsCount(t *testing.T) {
	m := &manifest.Manifest{Ext: &manifest.Extensions{
		Skills: []manifest.Skill{{URI: "skill://a/SKILL.md", Frontmatter: json.RawMessage(`{"description":"Do a thing well","name":"a"}`)}},
		Groups: []manifest.Group{{Name: "g", Entry: json.RawMessage(`{"description":"Group things","name":"g"}`), Instructions: json.RawMessage(`"Fetch first, then change."`)}},
	}}
	tb, err := Compute(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Skills == 0 || tb.Groups == 0 || tb.Total != tb.Skills+tb.Groups {
		t.Errorf("skills %d, groups %d, total %d", tb.Skills, tb.Groups, tb.Total)
	}
	without := *m.Ext
	without.Groups[0].Instructions = nil
	tb2, _ := Compute(&manifest.Manifest{Ext: &without}, Options{})
	if tb2.Groups >= tb.Groups {
		t.Errorf("instructions did not count: %d, then %d without them", tb.Groups, tb2.Groups)
	}
}
