package manifest

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":{"d":[3,1,2],"c":true}}`, `{"a":{"c":true,"d":[1,2,3]},"b":1}`},
		{`[1.0, 1, 1e0, 10E-1]`, `[1,1,1,1]`},
		{`{"n":[100, 1e2, 1.00e+2]}`, `{"n":[100,100,100]}`},
		{`0.50`, `0.5`},
		{`-0`, `0`},
		{`-0.0e5`, `0`},
		{`1e21`, `1e+21`},
		{`123456789012345678901`, `123456789012345678901`},
		{`12345678901234567890123`, `1.2345678901234567890123e+22`},
		{`0.000001`, `0.000001`},
		{`0.0000001`, `1e-7`},
		{`-1.5E-3`, `-0.0015`},
		{`9007199254740993`, `9007199254740993`},
		// arrays of objects keep their order; each element canonicalized
		{`{"anyOf":[{"type":"string","a":1},{"type":"null"}]}`, `{"anyOf":[{"a":1,"type":"string"},{"type":"null"}]}`},
		// mixed primitives sort by canonical bytes
		{`["b", 2, null, true, "a", 1]`, `["a","b",1,2,null,true]`},
		// an array holding an array keeps order
		{`[[2,1],[1]]`, `[[1,2],[1]]`},
		{`"<a>&\u0041\u00e9\n\u001f"`, `"<a>&Aé\n\u001f"`},
		{` { "x" : [ ] , "y" : { } } `, `{"x":[],"y":{}}`},
	}
	for _, c := range cases {
		got, err := Canonicalize([]byte(c.in))
		if err != nil {
			t.Errorf("Canonicalize(%s): %v", c.in, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Canonicalize(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1} x`, `[1,]`, `1e9999999`, strings.Repeat("[", 600) + strings.Repeat("]", 600)} {
		if out, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%.40q) = %s, want an error", in, out)
		}
	}
}

func TestCanonicalizeValueMatchesCanonicalize(t *testing.T) {
	in := `{"z":[3,2,{"k":1.50}],"a":"x","n":null,"f":2.0}`
	var v any
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	a, err := CanonicalizeValue(v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Canonicalize([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("CanonicalizeValue = %s, Canonicalize = %s", a, b)
	}
}

// randomJSON builds a random JSON value; shuffle re-encodes it with keys and
// primitive arrays in random order and numbers in random spellings.
func randomJSON(r *rand.Rand, depth int) any {
	switch k := r.Intn(7); {
	case depth > 3 || k == 0:
		return []any{"s", 1.5, true, nil, "é\u200b", json.Number("12")}[r.Intn(6)]
	case k < 3:
		m := map[string]any{}
		for i := r.Intn(5); i > 0; i-- {
			m[string(rune('a'+r.Intn(26)))+"k"] = randomJSON(r, depth+1)
		}
		return m
	case k < 5:
		var a []any
		for i := r.Intn(5); i > 0; i-- {
			a = append(a, randomJSON(r, depth+1))
		}
		return a
	default:
		var a []any
		for i := r.Intn(5); i > 0; i-- {
			a = append(a, json.Number([]string{"1", "2", "30", "0.5"}[r.Intn(4)]))
		}
		return a
	}
}

func spell(r *rand.Rand, v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		var b strings.Builder
		b.WriteString("{ ")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(" ,\n")
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteString(":")
			b.WriteString(spell(r, x[k]))
		}
		b.WriteString("}")
		return b.String()
	case []any:
		prim := true
		for _, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				prim = false
			}
		}
		idx := r.Perm(len(x))
		var b strings.Builder
		b.WriteString("[")
		for i := range x {
			if i > 0 {
				b.WriteString(",")
			}
			e := x[i]
			if prim {
				e = x[idx[i]]
			}
			b.WriteString(spell(r, e))
		}
		b.WriteString("]")
		return b.String()
	case json.Number:
		switch r.Intn(3) {
		case 0:
			if strings.Contains(string(x), ".") {
				return string(x) + "0"
			}
			return string(x) + ".0"
		case 1:
			return string(x) + "e0"
		}
		return string(x)
	case float64:
		return []string{"1.5", "15e-1", "0.15E1", "1.50"}[r.Intn(4)]
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// Property: however a value is spelled (key order, primitive array order,
// number form, whitespace), its canonical bytes are the same, and
// canonicalizing canonical bytes changes nothing.
func TestCanonicalizeProperties(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		v := randomJSON(r, 0)
		a, err := Canonicalize([]byte(spell(r, v)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Canonicalize([]byte(spell(r, v)))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Fatalf("two spellings canonicalize differently:\n%s\n%s", a, b)
		}
		again, err := Canonicalize(a)
		if err != nil || string(again) != string(a) {
			t.Fatalf("not idempotent: %s → %s (%v)", a, again, err)
		}
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{`{"a":[1,2]}`, `[1.0e3,"x",null]`, `{"b":{"a":[{"c":1}]}}`, `-0.0`, `"\u2028"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Canonicalize(data)
		if err != nil {
			return
		}
		if !json.Valid(c) {
			t.Fatalf("canonical output is not valid JSON: %q", c)
		}
		c2, err := Canonicalize(c)
		if err != nil || string(c2) != string(c) {
			t.Fatalf("not idempotent: %q → %q (%v)", c, c2, err)
		}
		// The streaming path and the value path agree, and the fast
		// decoder agrees with encoding/json.
		v, err := decodeStd(data)
		if err != nil {
			t.Fatalf("fast path accepted what encoding/json refuses: %q: %v", data, err)
		}
		fv, err := decode(data)
		if err != nil {
			t.Fatalf("decodeFast refuses what encoding/json accepts: %q: %v", data, err)
		}
		if !reflect.DeepEqual(fv, v) {
			t.Fatalf("decoders disagree on %q:\n fast %#v\n  std %#v", data, fv, v)
		}
		c3, err := CanonicalizeValue(v)
		if err != nil || string(c3) != string(c) {
			t.Fatalf("paths disagree on %q:\n fast %q\nvalue %q (%v)", data, c, c3, err)
		}
	})
}

func BenchmarkCanonicalize(b *testing.B) {
	r := rand.New(rand.NewSource(7))
	var parts []string
	for len(strings.Join(parts, ",")) < 1<<20 {
		parts = append(parts, spell(r, map[string]any{
			"name": "tool", "description": strings.Repeat("words and more words ", 10),
			"inputSchema": randomJSON(r, 0), "x": randomJSON(r, 1),
		}))
	}
	data := []byte("[" + strings.Join(parts, ",") + "]")
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Canonicalize(data); err != nil {
			b.Fatal(err)
		}
	}
}

// appendNoDocs is CanonicalizeValue(stripDocs(x)) without the copy.
func TestAppendNoDocsMatchesStripDocs(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	schemas := []string{
		`{"type":"object","title":"T","description":"d","properties":{"description":{"type":"string","description":"x"},"a":{"anyOf":[{"title":"t","type":"integer"},{"type":"null"}]}},"$defs":{"n":{"examples":[1],"type":"number"}},"items":[{"$comment":"c"}],"dependencies":{"a":["b"],"c":{"title":"t"}}}`,
	}
	for i := 0; i < 300; i++ {
		schemas = append(schemas, spell(r, randomJSON(r, 0)))
	}
	for _, s := range schemas {
		v, err := decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		want, err := CanonicalizeValue(stripDocs(v))
		if err != nil {
			t.Fatal(err)
		}
		b, err := appendNoDocs(nil, v, 0)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(want) {
			t.Fatalf("schema %s:\n appendNoDocs %s\n   stripDocs %s", s, b, want)
		}
	}
}

// splitItems agrees with encoding/json on which items a page holds.
func FuzzSplitItems(f *testing.F) {
	for _, s := range []string{`{"tools":[{"name":"a"},{"name":"b"}]}`, `{"x":[1,"]"],"tools":[]}`, `{"tools":null}`, `{}`, `{"tools":[{"a":"\"}"}],"tools":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := splitItems(data, "tools")
		var want struct {
			Tools []json.RawMessage `json:"tools"`
		}
		werr := json.Unmarshal(data, &want)
		if werr != nil {
			// encoding/json is stricter on strings and numbers inside
			// skipped members; splitItems may accept those (items are
			// checked when canonicalized), never the reverse.
			return
		}
		if err != nil {
			t.Fatalf("splitItems refuses %q that encoding/json accepts: %v", data, err)
		}
		if len(got) != len(want.Tools) {
			t.Fatalf("%q: %d items, encoding/json %d", data, len(got), len(want.Tools))
		}
		for i := range got {
			if !bytes.Equal(bytes.TrimSpace(got[i]), bytes.TrimSpace(want.Tools[i])) {
				t.Fatalf("%q: item %d = %q, want %q", data, i, got[i], want.Tools[i])
			}
		}
	})
}
