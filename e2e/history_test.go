package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

var updateHistory = flag.Bool("update-history", false, "rewrite the finding lines of testdata/history.txt (comments are kept only for lines that stay)")

// historyFile lists, for each consecutive pair of published versions of a
// reference server, the error-level findings of `mcp-surface diff`: one
// "PAIR RULE SUBJECT POINTER" line each, with a comment above it that
// justifies the error from the two versions' raw surfaces.
const historyFile = "testdata/history.txt"

// histories are the published versions diffed, oldest first; the last
// is the pinned current package.
var histories = []struct {
	server   string
	versions []string // npm aliases (package.json), then "" for the current pin
	args     func(t *testing.T, entry string) []string
	entry    string // the server's script in its package; "" is dist/index.js
}{
	{"everything", []string{"everything-2026.1.26", "everything-2026.7.4", "everything-2026.8.18", ""}, func(t *testing.T, e string) []string {
		return []string{"--", "node", e, "stdio"}
	}, ""},
	{"filesystem", []string{"filesystem-2026.1.14", "filesystem-2026.7.4", "filesystem-2026.7.10", ""}, func(t *testing.T, e string) []string {
		return []string{"--", "node", e, "/"}
	}, ""},
	{"memory", []string{"memory-2025.11.25", "memory-2026.1.26", "memory-2026.7.4", ""}, func(t *testing.T, e string) []string {
		return []string{"--env", "MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl"), "--", "node", e}
	}, ""},
	// Two servers from outside the reference set that list their tools
	// offline (a dummy key is never sent: nothing is called).
	{"tavily", []string{"tavily-0.2.9", "tavily-0.2.16"}, func(t *testing.T, e string) []string {
		return []string{"--env", "TAVILY_API_KEY=dummy", "--", "node", e}
	}, "build/index.js"},
	{"context7", []string{"context7-1.0.14", "context7-2.0.0"}, func(t *testing.T, e string) []string {
		return []string{"--", "node", e}
	}, ""},
}

func aliasEntry(alias, server string) string { return aliasEntryAt(alias, server, "") }

// aliasEntryAt is the script entry (relative to the package; "" is
// dist/index.js) of an aliased package.
func aliasEntryAt(alias, server, entry string) string {
	if alias == "" {
		return serverPath("server-" + server)
	}
	if entry == "" {
		entry = "dist/index.js"
	}
	abs, _ := filepath.Abs(filepath.Join("node_modules", alias, filepath.FromSlash(entry)))
	return abs
}

func label(alias, server string) string {
	if alias == "" {
		return server + "-current"
	}
	return alias
}

// Real history: each consecutive pair of published versions is captured
// and diffed, and its errors must be exactly the justified list.
func TestPublishedHistory(t *testing.T) {
	t.Parallel()
	requireNode(t)
	var got []string
	// Each snapshot is read once, however many witnesses it is asked for.
	read := map[string]*manifest.Manifest{}
	for _, h := range histories {
		var snaps []string
		for _, v := range h.versions {
			m := captureTo(t, "2025-11-25", h.args(t, aliasEntryAt(v, h.server, h.entry))...)
			p := filepath.Join(t.TempDir(), label(v, h.server)+".json")
			if err := manifest.WriteFile(p, m); err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, p)
		}
		for i := 1; i < len(snaps); i++ {
			pair := label(h.versions[i-1], h.server) + ".." + label(h.versions[i], h.server)
			r := mcpSurface(t, "diff", "--format", "json", "--fail-on", "none", snaps[i-1], snaps[i])
			if r.code != 0 {
				t.Fatalf("%s: diff exit %d: %s", pair, r.code, r.stderr)
			}
			var rep struct {
				Findings []struct {
					Rule, Level, Pointer string
					Subject              struct{ Kind, Name string }
					Witness              *finding.Witness
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("%s: %v", pair, err)
			}
			for _, f := range rep.Findings {
				if f.Level == "error" {
					got = append(got, strings.Join([]string{pair, f.Rule, f.Subject.Kind + ":" + f.Subject.Name, f.Pointer}, " "))
				}
				checkWitness(t, read, pair, snaps[i-1], snaps[i], f.Rule, f.Level, f.Subject.Name, f.Pointer, f.Witness)
			}
		}
	}
	slices.Sort(got)
	data, err := os.ReadFile(historyFile)
	if err != nil && !*updateHistory {
		t.Fatal(err)
	}
	var want []string
	comments := map[string][]string{}
	var pending []string
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
			pending = append(pending, l)
		case strings.TrimSpace(l) != "":
			want = append(want, l)
			comments[l] = pending
			pending = nil
		}
	}
	if *updateHistory {
		var b strings.Builder
		b.WriteString("# Errors of `mcp-surface diff` between consecutive published versions of the\n# reference servers and two others (e2e/history_test.go); each is justified by the comment above it.\n")
		for _, l := range got {
			for _, c := range comments[l] {
				if !strings.HasPrefix(c, "# Errors of") && !strings.HasPrefix(c, "# reference servers") {
					b.WriteString(c + "\n")
				}
			}
			b.WriteString(l + "\n")
		}
		if err := os.WriteFile(historyFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("errors on the published history differ from %s (-want +got):\n%s", historyFile, d)
	}
}

// checkWitness holds a schema finding of a real pair to its proof: an
// error of a schema rule carries a witness (unless the rule is one of the
// structural ones that keep their level without one), and every witness
// is accepted by the side it names and rejected by the other, validated
// again against the two raw schemas of the snapshots.
func checkWitness(t *testing.T, read map[string]*manifest.Manifest, pair, basePath, headPath, rule, level, tool, pointer string, w *finding.Witness) {
	t.Helper()
	r, ok := rules.Lookup(rule)
	if !ok || !slices.Contains(r.Producers, "pkg/diff/schemadiff") {
		if w != nil {
			t.Errorf("%s: %s on %s carries a witness, but it is no schema rule", pair, rule, tool)
		}
		return
	}
	if w == nil {
		if level == "error" && !diff.Structural(rule) {
			t.Errorf("%s: schema error %s on %s at %s has no witness", pair, rule, tool, pointer)
		}
		return
	}
	key, dir := "inputSchema", schemadiff.Input
	if strings.HasPrefix(pointer, "/outputSchema") {
		key, dir = "outputSchema", schemadiff.Output
	}
	schemaOf := func(path string) json.RawMessage {
		m, ok := read[path]
		if !ok {
			var err error
			if m, err = manifest.ReadFile(path); err != nil {
				t.Fatal(err)
			}
			read[path] = m
		}
		for _, it := range m.Tools {
			if it.ID == tool {
				var item map[string]json.RawMessage
				if err := json.Unmarshal(it.Raw, &item); err != nil {
					t.Fatal(err)
				}
				return item[key]
			}
		}
		return nil
	}
	p := witness.NewPair(schemaOf(basePath), schemaOf(headPath), dir, witness.Options{})
	baseOK, headOK, err := p.Check(w.Value)
	if err != nil {
		t.Errorf("%s: %s on %s: the witness cannot be checked: %v", pair, rule, tool, err)
		return
	}
	if accepts := map[string]bool{finding.SideBase: baseOK, finding.SideHead: headOK}; !accepts[w.Accepts] || accepts[w.Rejects] || w.Accepts == w.Rejects {
		t.Errorf("%s: %s on %s: witness %s claims accepts=%s rejects=%s; base accepts it: %v, head: %v", pair, rule, tool, w.Value, w.Accepts, w.Rejects, baseOK, headOK)
	}
}

// The real upgrade of server-filesystem from 2026.7.4 to 2026.7.10: one
// change (openWorldHint withdrawn) repeats across all 14 tools while
// read_media_file changes on its own. Every machine output has one
// finding per (tool, change), the comment's headline counts the tools
// that break, and the advice fits the pull request: a PR that forgot to
// refresh its snapshot is told so on a line of its own (never "spec or
// lint"), one that refreshed hears no word of refreshing. Capturing these
// servers, which fall back from server/discover to initialize, prints no
// warning.
func TestRealUpgradeOneFindingPerTool(t *testing.T) {
	requireNode(t)
	repo, root := t.TempDir(), t.TempDir()
	server := func(alias string) []string {
		return []string{"--", "node", aliasEntry(alias, "filesystem"), root}
	}
	oldServer, newServer := server("filesystem-2026.7.4"), server("filesystem-2026.7.10")
	capture := func(file string, srv []string) {
		t.Helper()
		r := runBinary(t, repo, nil, append([]string{"capture", "-o", file}, srv...)...)
		if r.code != 0 {
			t.Fatalf("capture: exit %d: %s", r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "warning:") || !strings.Contains(r.stderr, "info: the server did not accept server/discover") {
			t.Errorf("capture's stderr, for a server that falls back to initialize: %q", r.stderr)
		}
	}
	capture("base.json", oldServer)
	capture("mcp-surface.json", oldServer) // the PR forgot to refresh it
	check := func(format string) string {
		t.Helper()
		r := runBinary(t, repo, nil, append([]string{"check", "--schema-dir", spectest.SchemaDir(t), "--baseline", "base.json", "--format", format}, newServer...)...)
		if r.code != 1 {
			t.Fatalf("check --format %s: exit %d, want 1: %s", format, r.code, r.stderr)
		}
		return r.stdout
	}

	var rep struct {
		Findings []struct {
			Rule     string
			Level    string
			Category string
			Subject  struct{ Kind, Name string }
			Subjects json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(check("json")), &rep); err != nil {
		t.Fatal(err)
	}
	const shared = "tool-annotation-open-world-hint-disabled"
	perTool := map[string]int{}
	breaking := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Subjects != nil {
			t.Errorf("finding %s carries subjects: %s", f.Rule, f.Subjects)
		}
		if f.Rule == shared {
			if f.Subject.Kind != "tool" {
				t.Errorf("the shared change is reported on %s %q", f.Subject.Kind, f.Subject.Name)
			}
			perTool[f.Subject.Name]++
		}
		if f.Category == "change" && f.Level == "error" && f.Subject.Kind == "tool" {
			breaking[f.Subject.Name] = true
		}
	}
	if len(perTool) != 14 {
		t.Errorf("%s: %d tools, want one finding for each of the 14: %v", shared, len(perTool), perTool)
	}
	for name, n := range perTool {
		if n != 1 {
			t.Errorf("%s: %d findings on tool %s", shared, n, name)
		}
	}

	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Logical []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(check("sarif")), &sarif); err != nil {
		t.Fatal(err)
	}
	located := map[string]bool{}
	for _, res := range sarif.Runs[0].Results {
		if res.RuleID != shared {
			continue
		}
		if len(res.Locations) != 1 || len(res.Locations[0].Logical) != 1 {
			t.Errorf("a %s result is not located at one tool: %+v", shared, res.Locations)
			continue
		}
		located[res.Locations[0].Logical[0].FullyQualifiedName] = true
	}
	if len(located) != 14 {
		t.Errorf("SARIF: %s results at %d tools, want one at each of the 14: %v", shared, len(located), located)
	}

	md := check("markdown")
	headline := strings.SplitN(md, "\n", 3)[1]
	noun := "tools break"
	if len(breaking) == 1 {
		noun = "tool breaks"
	}
	if want := fmt.Sprintf("### ❌ %d %s existing clients", len(breaking), noun); !strings.HasPrefix(headline, want) {
		t.Errorf("headline %q, want it to start %q (the tools with an error)", headline, want)
	}
	if strings.Contains(headline, "spec or lint") || !strings.Contains(headline, "is out of date") {
		t.Errorf("forgot to refresh: headline %q", headline)
	}
	if !strings.Contains(md, "in **14 tools**") || !strings.Contains(md, "refresh the snapshot and commit it") {
		t.Errorf("the comment does not show the shared change once, or does not offer the refresh:\n%s", md)
	}

	// The PR refreshes its snapshot: no word of refreshing.
	if err := os.Remove(filepath.Join(repo, "mcp-surface.json")); err != nil {
		t.Fatal(err)
	}
	capture("mcp-surface.json", newServer)
	md = check("markdown")
	if strings.Contains(strings.ToLower(md), "refresh") || strings.Contains(md, "out of date") {
		t.Errorf("the pull request refreshed its snapshot, yet the comment says:\n%s", md)
	}
}
