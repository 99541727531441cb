package schemadiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A fixture is one testdata/<behaviour>.txtar, in the vocabulary of
// internal/testkit/txtartest, compared in both directions: as a tool's
// inputSchema and as its outputSchema. Sections: base and head, the two
// schemas; the expected findings (one change per line: RULE basePointer
// headPointer) of base → head, want.input and want.output; when head → base
// is a behaviour worth pinning too, its findings in want.input.reverse and
// want.output.reverse (both or neither); optionally asymmetric, one line
// per rule the fixture reports that has no counterpart in the other
// direction ("RULE: why"), and options, "dialect: draft-07".
type fixture struct {
	*txtartest.Fixture
	base []byte
	head []byte
	opts Options
	// reversed says the fixture is compared head → base too.
	reversed bool
	// asymmetric maps a rule to the reason the other direction has no
	// counterpart of it.
	asymmetric map[string]string
}

// run is one way of comparing a fixture.
type run struct {
	section string
	dir     Direction
	reverse bool
}

// runs are the comparisons of a fixture: every fixture has the base →
// head ones, a reversed fixture all four.
var runs = [...]run{
	{"want.input", Input, false},
	{"want.input.reverse", Input, true},
	{"want.output", Output, false},
	{"want.output.reverse", Output, true},
}

// has says whether the fixture is compared the way r says.
func (fx *fixture) has(r run) bool { return !r.reverse || fx.reversed }

// compare runs r on the fixture.
func (fx *fixture) compare(r run) []Change {
	if r.reverse {
		return Compare(fx.head, fx.base, r.dir, fx.opts)
	}
	return Compare(fx.base, fx.head, r.dir, fx.opts)
}

// asymmetricSection is the name of the section listing the fixture's
// rules without a counterpart in the other direction.
const asymmetricSection = "asymmetric"

// sections are the sections a schemadiff fixture may have.
func sections() []string {
	out := []string{"base", "head", "options", asymmetricSection}
	for _, r := range runs {
		out = append(out, r.section)
	}
	return out
}

func loadFixtures(t testing.TB) []*fixture {
	t.Helper()
	var out []*fixture
	for _, f := range txtartest.Load(t, "testdata", sections()...) {
		fx := &fixture{Fixture: f}
		var ok bool
		if fx.base, ok = txtartest.Section(f.Archive, "base"); !ok {
			t.Fatalf("%s: needs base and head", f.Path)
		}
		if fx.head, ok = txtartest.Section(f.Archive, "head"); !ok {
			t.Fatalf("%s: needs base and head", f.Path)
		}
		for _, line := range strings.Split(string(txtartest.Data(f.Archive, "options")), "\n") {
			if line == "" {
				continue
			}
			v, ok := strings.CutPrefix(line, "dialect:")
			if !ok {
				t.Fatalf("%s: options: %q is not \"dialect: NAME\"", f.Path, line)
			}
			fx.opts.Dialect = strings.TrimSpace(v)
		}
		if a, ok := txtartest.Section(f.Archive, asymmetricSection); ok {
			var err error
			if fx.asymmetric, err = parseAsymmetric(a); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
		}
		for _, r := range runs {
			_, ok := txtartest.Section(f.Archive, r.section)
			fx.reversed = fx.reversed || (r.reverse && ok)
		}
		out = append(out, fx)
	}
	return out
}

// parseAsymmetric reads an asymmetric section: one "RULE: why" a line.
func parseAsymmetric(data []byte) (map[string]string, error) {
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		id, why, ok := strings.Cut(line, ":")
		id, why = strings.TrimSpace(id), strings.TrimSpace(why)
		if !ok || id == "" || why == "" {
			return nil, fmt.Errorf("asymmetric section: line %q is not \"RULE: why the other direction has no counterpart\"", line)
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("asymmetric section: %s listed twice", id)
		}
		out[id] = why
	}
	return out, nil
}

func fmtPtr(p string) string {
	if p == "" || strings.ContainsAny(p, " \t\"") {
		return strconv.Quote(p)
	}
	return p
}

func render(cs []Change) string {
	var sb strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&sb, "%s %s %s\n", c.Rule, fmtPtr(c.BasePointer), fmtPtr(c.HeadPointer))
	}
	return sb.String()
}

func TestFixtures(t *testing.T) {
	txtartest.Run(t, loadFixtures(t), func(t *testing.T, fx *fixture) []txtartest.Got {
		var gots []txtartest.Got
		for _, r := range runs {
			if fx.has(r) {
				cs := fx.compare(r)
				checkChanges(t, cs, r.dir)
				gots = append(gots, txtartest.Got{Section: r.section, Text: render(cs), Context: "messages:\n" + messages(cs)})
			}
		}
		return gots
	})
}

func messages(cs []Change) string {
	var sb strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&sb, "  %s: %s\n", c.Rule, c.Message)
	}
	return sb.String()
}

// checkChanges asserts what every change must satisfy: a known rule of the
// direction compared, a message, canonical before/after.
func checkChanges(t *testing.T, cs []Change, dir Direction) {
	t.Helper()
	for _, c := range cs {
		r, ok := rules.Lookup(c.Rule)
		if !ok {
			t.Errorf("unknown rule %q", c.Rule)
			continue
		}
		if r.Kind != rules.KindChange || r.Direction != dir.String() {
			t.Errorf("%s: not a rule of %s schemas", c.Rule, dir)
		}
		if c.Message == "" || strings.Contains(c.Message, "\n") {
			t.Errorf("%s: bad message %q", c.Rule, c.Message)
		}
		for _, raw := range []json.RawMessage{c.Before, c.After} {
			if raw == nil {
				continue
			}
			if !json.Valid(raw) {
				t.Errorf("%s: invalid JSON %s", c.Rule, raw)
			}
			v, err := parseJSON(raw)
			if err != nil || !bytes.Equal(canon(v), raw) {
				t.Errorf("%s: before/after not canonical: %s", c.Rule, raw)
			}
		}
	}
}

// Every input-* and output-* rule in the table is produced by a fixture.
func TestEveryRuleHasAFixture(t *testing.T) {
	if txtartest.Updating() {
		t.Skip("updating")
	}
	seen := map[string]bool{}
	for _, fx := range loadFixtures(t) {
		for _, r := range runs {
			if fx.has(r) {
				for _, c := range fx.compare(r) {
					seen[c.Rule] = true
				}
			}
		}
	}
	n := 0
	for _, r := range rules.All() {
		if !strings.HasPrefix(r.ID, "input-") && !strings.HasPrefix(r.ID, "output-") {
			continue
		}
		n++
		if !seen[r.ID] {
			t.Errorf("no fixture triggers %s", r.ID)
		}
	}
	if n < 200 {
		t.Errorf("only %d schema rules registered", n)
	}
}

// Comparing any fixture schema with itself yields nothing, also when the
// raw-equality shortcuts are off and the keys are in another order.
func TestSelfCompare(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		for _, s := range [][]byte{fx.base, fx.head} {
			for _, dir := range []Direction{Input, Output} {
				opts := fx.opts
				opts.forceWalk = true
				if got := Compare(s, s, dir, opts); len(got) > 0 {
					t.Errorf("%s: %s self-compare:\n%s", fx.Path, dir, messages(got))
				}
				if got := Compare(s, reorder(t, s), dir, fx.opts); len(got) > 0 {
					t.Errorf("%s: %s compare with reordered keys:\n%s", fx.Path, dir, messages(got))
				}
			}
		}
	}
}

// reorder re-encodes a JSON document with every object's keys reversed.
func reorder(t testing.TB, data []byte) []byte {
	v, err := parseJSON(data)
	if err != nil {
		return data
	}
	var enc func(buf []byte, v *value) []byte
	enc = func(buf []byte, v *value) []byte {
		switch v.kind {
		case vObj:
			buf = append(buf, "{ "...)
			ms := v.members()
			for i := len(ms) - 1; i >= 0; i-- {
				buf = canonjson.AppendString(buf, ms[i].k)
				buf = append(buf, ": "...)
				buf = enc(buf, ms[i].v)
				if i > 0 {
					buf = append(buf, ", "...)
				}
			}
			return append(buf, " }"...)
		case vArr:
			buf = append(buf, '[')
			for i, e := range v.elems() {
				if i > 0 {
					buf = append(buf, ", "...)
				}
				buf = enc(buf, e)
			}
			return append(buf, ']')
		}
		return appendCanon(buf, v)
	}
	return enc(nil, v)
}

// The result is the same on every run and whatever the key order.
func TestDeterministic(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		for _, dir := range []Direction{Input, Output} {
			a := Compare(fx.base, fx.head, dir, fx.opts)
			b := Compare(fx.base, fx.head, dir, fx.opts)
			if d := cmp.Diff(a, b); d != "" {
				t.Errorf("%s: %s: two runs differ:\n%s", fx.Path, dir, d)
			}
			c := Compare(reorder(t, fx.base), reorder(t, fx.head), dir, fx.opts)
			if d := cmp.Diff(a, c); d != "" {
				t.Errorf("%s: %s: key order changes the result:\n%s", fx.Path, dir, d)
			}
		}
	}
}

// Every fixture runs in both directions and both ways round, so each pair
// of schemas is one fixture: no copy per direction (testdata/input/,
// testdata/output/), no second fixture with the same pair, swapped or
// spelled with other whitespace or key order.
func TestNoDuplicateFixtures(t *testing.T) {
	if nested, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar")); len(nested) > 0 {
		t.Errorf("fixtures in subdirectories %q: move them to testdata/ and merge the expected findings of each direction into one file", nested)
	}
	seen := map[string]string{}
	for _, fx := range loadFixtures(t) {
		b, h := canonicalFixture(fx.base), canonicalFixture(fx.head)
		for _, key := range []string{fx.opts.Dialect + "\x00" + b + "\x00" + h, fx.opts.Dialect + "\x00" + h + "\x00" + b} {
			if prev, dup := seen[key]; dup {
				t.Errorf("%s compares the same schemas as %s: merge the two fixtures", fx.Path, prev)
				break
			}
		}
		seen[fx.opts.Dialect+"\x00"+b+"\x00"+h] = fx.Path
	}
}

// canonicalFixture is a fixture schema in canonical form, or as written
// when it is not JSON (a fixture may test what a malformed schema gives).
func canonicalFixture(data []byte) string {
	v, err := parseJSON(data)
	if err != nil {
		return string(data)
	}
	return string(canon(v))
}
