package rulesdoc

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/mcp-surface/mcp-surface/internal/base/mergepatch"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// The fixture directories, relative to the repository root. Each fixture
// is a txtar archive with the compared files and the findings the
// comparison gives, one per line starting with the rule ID.
//
// Both kinds speak the vocabulary of internal/testkit/txtartest. A diff
// fixture's base and head sections say how the two snapshots differ from
// the default one, diffSkeleton (see pkg/diff's tests), and its options are
// diff options as JSON; it has want for base → head and want.reverse for
// head → base. A schemadiff fixture's base and head are the two schemas,
// its options a "dialect: NAME" line; it is compared as an inputSchema and
// as an outputSchema, with want.input and want.output for base → head and
// want.input.reverse and want.output.reverse for head → base.
const (
	diffFixtures       = "pkg/diff/testdata"
	diffSkeleton       = "pkg/diff/testdata/skeleton.json"
	schemadiffFixtures = "pkg/diff/schemadiff/testdata"
)

// compared gives the two files a fixture compares.
type compared func(sections map[string][]byte) (before, after []byte, err error)

// schemas are a schemadiff fixture's two schemas, as written.
func schemas(sections map[string][]byte) (before, after []byte, err error) {
	before, okB := sections["base"]
	after, okH := sections["head"]
	if !okB || !okH {
		return nil, nil, errors.New("needs base and head")
	}
	return before, after, nil
}

// diffSnapshots expands a diff fixture's base and head sections over the
// default snapshot, as pkg/diff's tests do.
func diffSnapshots(skeleton []byte) compared {
	keys := mergepatch.Keys{}
	for _, k := range manifest.ItemKinds {
		keys[k.List] = k.Identity
	}
	return func(sections map[string][]byte) (before, after []byte, err error) {
		before = skeleton
		if patch, ok := sections["base"]; ok {
			if before, err = mergepatch.Apply(skeleton, patch, keys); err != nil {
				return nil, nil, fmt.Errorf("base: %w", err)
			}
		}
		after = before
		if patch, ok := sections["head"]; ok {
			if after, err = mergepatch.Apply(before, patch, keys); err != nil {
				return nil, nil, fmt.Errorf("head: %w", err)
			}
		}
		return before, after, nil
	}
}

// example is one real comparison that reports a rule.
type example struct {
	// Fixture is the archive's path from the repository root.
	Fixture string
	// Schema is "inputSchema" or "outputSchema" for a schema comparison,
	// "" for a comparison of two snapshots.
	Schema string
	// Before and After are the compared files (swapped when the rule is
	// reported head → base).
	Before, After string
	// Reversed says the example is the fixture read head → base.
	Reversed bool
	// Findings are the fixture's expected lines for this direction.
	Findings []string
	// Options says how the fixture compares, in markdown: its options.json
	// (diff) or its dialect (schemadiff).
	Options string
}

func (e example) size() int { return len(e.Before) + len(e.After) }

// examples reads every fixture under root and gives each change rule the
// comparison its row chooses (rules.Rule.ExampleFixture): the fixture its
// example key names, or else the one named after the rule; of that
// fixture's directions that report the rule, the one with the fewest
// findings, base → head first. So a new fixture never changes another
// rule's example. A change rule that some fixture reports but whose
// chosen fixture does not is an error naming a fixture to choose.
func examples(root string) (map[string]example, error) {
	all, err := readAll(root)
	if err != nil {
		return nil, err
	}
	byFixture := map[string][]example{}
	for _, e := range all {
		byFixture[e.Fixture] = append(byFixture[e.Fixture], e)
	}
	smallest := smallestExamples(all)
	best := map[string]example{}
	var errs []error
	for _, r := range rules.All() {
		if r.Kind != rules.KindChange {
			continue
		}
		fx := r.ExampleFixture()
		if e, ok := pick(byFixture[fx], r.ID); ok {
			best[r.ID] = e
			continue
		}
		s, reported := smallest[r.ID]
		switch {
		case r.Example != "" && reported:
			errs = append(errs, fmt.Errorf("rule %s: its example %s does not report it; %s does", r.ID, fx, s.Fixture))
		case r.Example != "":
			errs = append(errs, fmt.Errorf("rule %s: its example %s does not report it", r.ID, fx))
		case reported:
			errs = append(errs, fmt.Errorf("rule %s has no example: add \"- example: %s\" to its row, or name a fixture %s", r.ID, s.Fixture, fx))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("choosing the rules' examples:\n%w", err)
	}
	return best, nil
}

// readAll gives every direction of every fixture under root as an
// example.
func readAll(root string) ([]example, error) {
	var all []example
	diffs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(diffFixtures), "*.txtar"))
	if err != nil {
		return nil, err
	}
	skeleton, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(diffSkeleton)))
	if err != nil {
		return nil, fmt.Errorf("reading the diff fixtures' default snapshot: %w", err)
	}
	for _, p := range diffs {
		ex, err := readFixture(root, p, "", "want", diffSnapshots(skeleton))
		if err != nil {
			return nil, err
		}
		all = append(all, ex...)
	}
	schemadiffs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(schemadiffFixtures), "*.txtar"))
	if err != nil {
		return nil, err
	}
	for _, p := range schemadiffs {
		for _, dir := range []struct{ want, schema string }{{"want.input", "inputSchema"}, {"want.output", "outputSchema"}} {
			ex, err := readFixture(root, p, dir.schema, dir.want, schemas)
			if err != nil {
				return nil, err
			}
			all = append(all, ex...)
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("reading fixtures: none under %s and %s", diffFixtures, schemadiffFixtures)
	}
	return all, nil
}

// pick is the best of exs that reports rule.
func pick(exs []example, rule string) (example, bool) {
	var best example
	found := false
	for _, e := range exs {
		if slices.Contains(ruleIDs(e.Findings), rule) && (!found || better(e, best)) {
			best, found = e, true
		}
	}
	return best, found
}

// smallestExamples gives, per rule, the smallest comparison that reports
// it: the fixture to suggest for a rule without an example.
func smallestExamples(all []example) map[string]example {
	best := map[string]example{}
	for _, e := range all {
		for _, rule := range ruleIDs(e.Findings) {
			if cur, ok := best[rule]; !ok || better(e, cur) {
				best[rule] = e
			}
		}
	}
	return best
}

// better says a is the smaller example: fewest findings (so the rule is
// not lost among others), then fewest bytes compared, then base → head
// before head → base, then the fixture's path.
func better(a, b example) bool {
	if c := cmp.Compare(len(a.Findings), len(b.Findings)); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(a.size(), b.size()); c != 0 {
		return c < 0
	}
	if a.Reversed != b.Reversed {
		return !a.Reversed
	}
	return a.Fixture < b.Fixture
}

// ruleIDs are the distinct rules of a fixture's finding lines.
func ruleIDs(lines []string) []string {
	var out []string
	for _, l := range lines {
		if id, _, _ := strings.Cut(l, " "); id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// readFixture gives the fixture's one or two directions as examples: the
// findings of section wantName for base → head, of wantName.reverse for
// head → base.
func readFixture(root, p, schema, wantName string, files compared) ([]example, error) {
	a, err := txtar.ParseFile(p)
	if err != nil {
		return nil, fmt.Errorf("reading fixture %s: %w", p, err)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return nil, err
	}
	base := example{Fixture: path.Clean(filepath.ToSlash(rel)), Schema: schema}
	data := map[string][]byte{}
	sections := map[string]string{}
	for _, f := range a.Files {
		data[f.Name] = f.Data
		sections[f.Name] = string(f.Data)
	}
	b, h, err := files(data)
	if err != nil {
		return nil, fmt.Errorf("reading fixture %s: %w", p, err)
	}
	before, after := string(b), string(h)
	if o, ok := sections["options"]; ok {
		if v, ok := strings.CutPrefix(strings.TrimSpace(o), "dialect:"); ok {
			base.Options = "the JSON Schema dialect `" + strings.TrimSpace(v) + "`"
		} else {
			var c bytes.Buffer
			if err := json.Compact(&c, []byte(o)); err != nil {
				return nil, fmt.Errorf("reading fixture %s: options: %w", p, err)
			}
			base.Options = "the diff options `" + c.String() + "`"
		}
	}
	var out []example
	if want := lines(sections[wantName]); len(want) > 0 {
		e := base
		e.Before, e.After, e.Findings = before, after, want
		out = append(out, e)
	}
	if rev := lines(sections[wantName+".reverse"]); len(rev) > 0 {
		e := base
		e.Before, e.After, e.Findings, e.Reversed = after, before, rev, true
		out = append(out, e)
	}
	return out, nil
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
