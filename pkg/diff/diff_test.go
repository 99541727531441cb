package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/mergepatch"
	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"

	"golang.org/x/tools/txtar"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A fixture is testdata/<behaviour>.txtar, in the vocabulary of
// internal/testkit/txtartest:
//
//	base                  what the base snapshot adds to the default one,
//	                      testdata/skeleton.json (optional: the default)
//	head                  what the head snapshot changes in base
//	                      (optional: the same as base)
//	options               optional diff.Options, as JSON (field names as in Go)
//	want                  findings of Diff(base, head), one per line:
//	                      RULE SUBJECTKIND SUBJECTNAME POINTER
//	want.reverse          findings of Diff(head, base), same format
//	want.witness          witness-*.txtar: schema findings with level and witness (witness_test.go)
//
// base and head are JSON merge patches (RFC 7386, see internal/base/
// mergepatch) in which an item list (tools, prompts, resources,
// resourceTemplates) may be an object keyed by the items' identity (name,
// uri, uriTemplate), so that a fixture states only the change: "tools":
// {"get_user": null} removes a tool, "tools": {"get_user": {"title": "x"}}
// sets one member of it. The want sections are rewritten with -update.
type fixture struct {
	*txtartest.Fixture
	base, head *manifest.Manifest
	opts       Options
}

// sections are the sections a diff fixture may have.
var sections = []string{"base", "head", "options", "want", "want.reverse", "want.witness"}

// skeletonPath is the default snapshot every fixture amends.
var skeletonPath = filepath.Join("testdata", "skeleton.json")

// itemKeys are the item lists a fixture may key by identity.
func itemKeys() mergepatch.Keys {
	keys := mergepatch.Keys{}
	for _, k := range manifest.ItemKinds {
		keys[k.List] = k.Identity
	}
	return keys
}

// snapshots expands a fixture's base and head sections into the snapshot
// files they stand for.
func snapshots(skeleton []byte, a *txtar.Archive) (base, head []byte, err error) {
	base = skeleton
	if patch, ok := txtartest.Section(a, "base"); ok {
		if base, err = mergepatch.Apply(skeleton, patch, itemKeys()); err != nil {
			return nil, nil, fmt.Errorf("base: %w", err)
		}
	}
	head = base
	if patch, ok := txtartest.Section(a, "head"); ok {
		if head, err = mergepatch.Apply(base, patch, itemKeys()); err != nil {
			return nil, nil, fmt.Errorf("head: %w", err)
		}
	}
	return base, head, nil
}

func loadFixtures(t testing.TB) []*fixture {
	t.Helper()
	skeleton, err := os.ReadFile(skeletonPath)
	if err != nil {
		t.Fatal(err)
	}
	var fs []*fixture
	for _, f := range txtartest.Load(t, "testdata", sections...) {
		fx := &fixture{Fixture: f}
		if o, ok := txtartest.Section(f.Archive, "options"); ok {
			if err := json.Unmarshal(o, &fx.opts); err != nil {
				t.Fatalf("%s: options: %v", f.Path, err)
			}
		}
		base, head, err := snapshots(skeleton, f.Archive)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if fx.base, err = manifest.FromCanonicalJSON(base); err != nil {
			t.Fatalf("%s: base: %v", f.Path, err)
		}
		if fx.head, err = manifest.FromCanonicalJSON(head); err != nil {
			t.Fatalf("%s: head: %v", f.Path, err)
		}
		fs = append(fs, fx)
	}
	return fs
}

func field(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"") {
		return strconv.Quote(s)
	}
	return s
}

func render(fs []finding.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %s\n", f.Rule, f.Subject.Kind, field(f.Subject.Name), field(f.Pointer))
	}
	return b.String()
}

func TestFixtures(t *testing.T) {
	txtartest.Run(t, loadFixtures(t), func(t *testing.T, fx *fixture) []txtartest.Got {
		return []txtartest.Got{
			{Section: "want", Text: render(Diff(fx.base, fx.head, fx.opts).Findings)},
			{Section: "want.reverse", Text: render(Diff(fx.head, fx.base, fx.opts).Findings)},
		}
	})
}

// Every snapshot compared with itself gives nothing, and a diff is
// deterministic to the byte.
func TestSelfAndDeterminism(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		for _, m := range []*manifest.Manifest{fx.base, fx.head} {
			if r := Diff(m, m, fx.opts); len(r.Findings) != 0 && !m.Incomplete() { // a partial one reports its failed list (listfailed_test.go)
				t.Errorf("%s: Diff(m, m) = %s", fx.Path, render(r.Findings))
			}
		}
		a, _ := json.Marshal(Diff(fx.base, fx.head, fx.opts))
		b, _ := json.Marshal(Diff(fx.base, fx.head, fx.opts))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs differ", fx.Path)
		}
	}
}

// Rules the snapshots cannot show (see each rule's help).
var unobservable = map[string]string{
	rules.ToolListOrderChanged:    "snapshots are sorted by name",
	rules.PromptMessagesChanged:   "snapshots do not record rendered prompts yet",
	rules.ResourceContentsChanged: "snapshots do not record resource contents yet",
}

// ownRule reports whether a change rule is one this package implements
// itself; input-* and output-* come from the schema comparer.
func ownRule(r rules.Rule) bool {
	if r.Kind != rules.KindChange {
		return false
	}
	return !strings.HasPrefix(r.ID, "input-") && !strings.HasPrefix(r.ID, "output-")
}

func TestEveryRuleHasAFixture(t *testing.T) {
	seen := map[string]bool{}
	for _, fx := range loadFixtures(t) {
		for _, r := range []*Result{Diff(fx.base, fx.head, fx.opts), Diff(fx.head, fx.base, fx.opts)} {
			for _, f := range r.Findings {
				seen[f.Rule] = true
			}
		}
	}
	var missing []string
	for _, r := range rules.All() {
		if ownRule(r) && !seen[r.ID] && unobservable[r.ID] == "" {
			missing = append(missing, r.ID)
		}
	}
	for id := range unobservable {
		if seen[id] {
			t.Errorf("%s is listed as unobservable but a fixture triggers it", id)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("%d rules are triggered by no fixture:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// Every finding's fields are filled as the JSON report promises.
func TestFindingShape(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		r := Diff(fx.base, fx.head, fx.opts)
		for _, f := range r.Findings {
			rule, ok := rules.Lookup(f.Rule)
			if !ok {
				t.Errorf("%s: unknown rule %s", fx.Path, f.Rule)
				continue
			}
			if !levelFits(f, rule) || f.Message == "" || len(f.Fingerprint) != 16 {
				t.Errorf("%s: malformed finding %+v", fx.Path, f)
			}
			if f.Fingerprint != finding.Fingerprint(f.Rule, f.Subject, f.Pointer, f.Before, f.After) {
				t.Errorf("%s: %s: fingerprint is not computed from identity", fx.Path, f.Rule)
			}
			for _, v := range []json.RawMessage{f.Before, f.After} {
				if v == nil {
					continue
				}
				// Items keep the order of data arrays (default, _meta):
				// their values are canonical in the items' form.
				c, err := canonjson.CanonicalizeOrdered(v)
				if err != nil || !bytes.Equal(c, v) {
					t.Errorf("%s: %s: value %s is not canonical JSON", fx.Path, f.Rule, v)
				}
			}
			// Renderers show a text diff from before and after: both
			// must be there for a changed text.
			if (strings.HasSuffix(f.Rule, "-description-changed") || strings.HasSuffix(f.Rule, "instructions-changed")) &&
				(f.Before == nil || f.After == nil || textdiff.Diff(string(f.Before), string(f.After)) == "") {
				t.Errorf("%s: %s has no text to diff", fx.Path, f.Rule)
			}
		}
		if r.WorstSeverity.Bump() != r.SuggestedBump {
			t.Errorf("%s: bump %q does not follow worst severity %q", fx.Path, r.SuggestedBump, r.WorstSeverity)
		}
	}
}

// A fixture states only the change: no member of its base section
// repeats what the default snapshot already has, and no member of its head
// section repeats what base has.
func TestFixturesStateOnlyTheChange(t *testing.T) {
	skeleton, err := os.ReadFile(skeletonPath)
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, p := range paths {
		a, err := txtartest.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base, _, err := snapshots(skeleton, a)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, s := range []struct {
			section string
			over    []byte
		}{{"base", skeleton}, {"head", base}} {
			patch, ok := txtartest.Section(a, s.section)
			if !ok {
				continue
			}
			var pv, dv any
			if err := json.Unmarshal(patch, &pv); err != nil {
				t.Fatalf("%s: %s: %v", p, s.section, err)
			}
			if err := json.Unmarshal(s.over, &dv); err != nil {
				t.Fatal(err)
			}
			for _, r := range restated(pv, dv, "", true) {
				t.Errorf("%s: %s section: %s is already %s: leave it out", p, s.section, r, map[string]string{"base": "the default (testdata/skeleton.json)", "head": "so in base"}[s.section])
			}
		}
	}
}

// restated lists the JSON Pointers of patch members whose value the
// document already has. top says patch is the whole patch, whose item
// lists may be keyed by identity.
func restated(patch, doc any, at string, top bool) []string {
	po, ok := patch.(map[string]any)
	if !ok {
		return nil
	}
	do, _ := doc.(map[string]any)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(po)) {
		pv, dv := po[k], do[k]
		p := ptr(at, k)
		if key, keyed := itemKeys()[k]; top && keyed {
			if _, isObj := pv.(map[string]any); isObj {
				out = append(out, restatedItems(pv.(map[string]any), dv, key, p)...)
				continue
			}
		}
		if dv != nil && reflect.DeepEqual(pv, dv) {
			out = append(out, p)
			continue
		}
		out = append(out, restated(pv, dv, p, false)...)
	}
	return out
}

// restatedItems is restated for an item list keyed by identity.
func restatedItems(patch map[string]any, list any, key, at string) []string {
	byID := map[string]any{}
	items, _ := list.([]any)
	for _, it := range items {
		if o, ok := it.(map[string]any); ok {
			if id, ok := o[key].(string); ok {
				byID[id] = o
			}
		}
	}
	var out []string
	for _, id := range slices.Sorted(maps.Keys(patch)) {
		out = append(out, restated(patch[id], byID[id], ptr(at, id), false)...)
	}
	return out
}

// Tool arguments and structuredContent are always JSON objects, so every
// witness of an inputSchema or outputSchema finding is one, in every
// fixture and both directions.
func TestWitnessesAreObjects(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		for _, fs := range [][]finding.Finding{Diff(fx.base, fx.head, fx.opts).Findings, Diff(fx.head, fx.base, fx.opts).Findings} {
			for _, f := range fs {
				if f.Witness == nil || !(strings.HasPrefix(f.Pointer, "/inputSchema") || strings.HasPrefix(f.Pointer, "/outputSchema")) {
					continue
				}
				if v := bytes.TrimSpace(f.Witness.Value); len(v) == 0 || v[0] != '{' {
					t.Errorf("%s: %s %s: the witness %s is not an object", fx.Path, f.Rule, f.Pointer, f.Witness.Value)
				}
			}
		}
	}
}
