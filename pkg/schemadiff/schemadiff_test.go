package schemadiff

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*/*.txtar")

// fixture is one testdata/<input|output>/<behaviour>.txtar: sections
// base.json, head.json, want (one change per line: RULE basePointer
// headPointer) and optionally reverse (the expectations for head → base).
// The archive comment may set "dialect: draft-07".
type fixture struct {
	path    string
	dir     Direction
	ar      *txtar.Archive
	base    []byte
	head    []byte
	want    string
	reverse *string
	opts    Options
}

func loadFixtures(t testing.TB) []*fixture {
	t.Helper()
	var out []*fixture
	for _, d := range []struct {
		name string
		dir  Direction
	}{{"input", Input}, {"output", Output}} {
		files, err := filepath.Glob(filepath.Join("testdata", d.name, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fx := &fixture{path: f, dir: d.dir, ar: ar}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "dialect:"); ok {
					fx.opts.Dialect = strings.TrimSpace(v)
				}
			}
			for _, s := range ar.Files {
				switch s.Name {
				case "base.json":
					fx.base = s.Data
				case "head.json":
					fx.head = s.Data
				case "want":
					fx.want = string(s.Data)
				case "reverse":
					r := string(s.Data)
					fx.reverse = &r
				default:
					t.Fatalf("%s: unknown section %q", f, s.Name)
				}
			}
			if fx.base == nil || fx.head == nil {
				t.Fatalf("%s: needs base.json and head.json", f)
			}
			out = append(out, fx)
		}
	}
	if len(out) == 0 {
		t.Fatal("no fixtures")
	}
	return out
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
	for _, fx := range loadFixtures(t) {
		t.Run(strings.TrimSuffix(filepath.ToSlash(fx.path), ".txtar"), func(t *testing.T) {
			got := Compare(fx.base, fx.head, fx.dir, fx.opts)
			checkChanges(t, got)
			gotS := render(got)
			var gotR string
			if fx.reverse != nil {
				rev := Compare(fx.head, fx.base, fx.dir, fx.opts)
				checkChanges(t, rev)
				gotR = render(rev)
			}
			if *update {
				txtartest.Set(fx.ar, "want", gotS)
				if _, ok := txtartest.Section(fx.ar, "reverse"); ok {
					txtartest.Set(fx.ar, "reverse", gotR)
				}
				if err := os.WriteFile(fx.path, txtar.Format(fx.ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if d := cmp.Diff(fx.want, gotS); d != "" {
				t.Errorf("base → head (-want +got):\n%s\nmessages:\n%s", d, messages(got))
			}
			if fx.reverse != nil {
				if d := cmp.Diff(*fx.reverse, gotR); d != "" {
					t.Errorf("head → base (-want +got):\n%s", d)
				}
			}
		})
	}
}

func messages(cs []Change) string {
	var sb strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&sb, "  %s: %s\n", c.Rule, c.Message)
	}
	return sb.String()
}

// checkChanges asserts what every change must satisfy: a known rule of the
// right direction, a message, canonical before/after.
func checkChanges(t *testing.T, cs []Change) {
	t.Helper()
	for _, c := range cs {
		r, ok := rules.Lookup(c.Rule)
		if !ok {
			t.Errorf("unknown rule %q", c.Rule)
			continue
		}
		if r.Kind != rules.KindChange || (r.Direction != "input" && r.Direction != "output") {
			t.Errorf("%s: not a schema rule", c.Rule)
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
	if *update {
		t.Skip("updating")
	}
	seen := map[string]bool{}
	for _, fx := range loadFixtures(t) {
		for _, c := range Compare(fx.base, fx.head, fx.dir, fx.opts) {
			seen[c.Rule] = true
		}
		if fx.reverse != nil {
			for _, c := range Compare(fx.head, fx.base, fx.dir, fx.opts) {
				seen[c.Rule] = true
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
					t.Errorf("%s: %s self-compare:\n%s", fx.path, dir, messages(got))
				}
				if got := Compare(s, reorder(t, s), dir, fx.opts); len(got) > 0 {
					t.Errorf("%s: %s compare with reordered keys:\n%s", fx.path, dir, messages(got))
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
		a := Compare(fx.base, fx.head, fx.dir, fx.opts)
		b := Compare(fx.base, fx.head, fx.dir, fx.opts)
		if d := cmp.Diff(a, b); d != "" {
			t.Errorf("%s: two runs differ:\n%s", fx.path, d)
		}
		c := Compare(reorder(t, fx.base), reorder(t, fx.head), fx.dir, fx.opts)
		if d := cmp.Diff(a, c); d != "" {
			t.Errorf("%s: key order changes the result:\n%s", fx.path, d)
		}
	}
}
