package schemadiff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/testkit/tabletest"
)

func TestCanonNumber(t *testing.T) {
	tabletest.Map(t, "canonNumber", canonNumber, map[string]string{
		"0": "0", "-0": "0", "0.0": "0", "1": "1", "1.0": "1", "1e0": "1", "10e-1": "1",
		"0.1e1": "1", "100": "100", "1e2": "100", "1E+2": "100", "0.50": "0.5", "-2.50": "-2.5",
		"1e20": "100000000000000000000", "1e21": "1e+21", "1000000000000000000000": "1e+21", "123456789012345678901234": "1.23456789012345678901234e+23",
		"0.000001": "0.000001", "1e-7": "1e-7", "12.5e-10": "1.25e-9", "9007199254740991": "9007199254740991",
	})
}

func TestNumCmp(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"2", "1", 1}, {"1", "1", 0}, {"-1", "1", -1}, {"-2", "-1", -1},
		{"0.5", "0.25", 1}, {"1e+400", "1e+399", 1}, {"1e-400", "0", 1}, {"-1e-400", "0", -1},
		{"1e999999", "2", 1}, {"9007199254740991", "9007199254740990", 1}, {"10", "9.99", 1},
	} {
		if got := numCmp(canonNumber(c.a), canonNumber(c.b)); got != c.want {
			t.Errorf("numCmp(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestDivides(t *testing.T) {
	for _, c := range []struct {
		a, b      string
		ok, valid bool
	}{
		{"2", "4", true, true}, {"3", "4", false, true}, {"0.25", "0.5", true, true},
		{"0.5", "0.25", false, true}, {"0.1", "1", true, true}, {"0", "1", false, false},
		{"1", "1e999999", false, false},
	} {
		ok, valid := divides(canonNumber(c.a), canonNumber(c.b))
		if ok != c.ok || valid != c.valid {
			t.Errorf("divides(%s, %s) = %v, %v; want %v, %v", c.a, c.b, ok, valid, c.ok, c.valid)
		}
	}
}

func TestCanonicalEncoding(t *testing.T) {
	a, err := parseJSON([]byte(` { "b" : [1.0, {"y":2,"x":"\u00e9\n"}], "a": null, "c": "\ud83d\ude00<&>" } `))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":null,"b":[1,{"x":"é\n","y":2}],"c":"😀<&>"}`
	if got := string(canon(a)); got != want {
		t.Errorf("canon = %s\nwant    %s", got, want)
	}
	// encoding/json agrees on validity and on the value.
	var x, y any
	if err := json.Unmarshal(canon(a), &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &y); err != nil {
		t.Fatal(err)
	}
	b, err := parseJSON([]byte(`{"c":"😀<&>","a":null,"b":[1,{"x":"é\n","y":2.0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !rawEqual(a, b) {
		t.Error("equal values in another key order are not rawEqual")
	}
}

func TestDuplicateKeysKeepLast(t *testing.T) {
	v, err := parseJSON([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(canon(v)); got != `{"a":3,"b":2}` {
		t.Errorf("got %s", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		``, `{`, `{"a"}`, `{"a":}`, `[1,]`, `01`, `1.`, `"\x"`, "\"\x01\"", `tru`, `{} x`,
		`{"a":[1,2}`, `"abc`, `{"a":"\u12"}`, strings.Repeat("[", canonjson.MaxDepth+2) + strings.Repeat("]", canonjson.MaxDepth+2),
	} {
		if _, err := parseJSON([]byte(in)); err == nil {
			t.Errorf("parseJSON(%.40q) succeeded", in)
		}
	}
}

func TestLazyLoadMatchesEager(t *testing.T) {
	doc := `{"z":{"k":[1,{"a":"b\"}"}],"j":"]"},"a":[[[]],{}],"s":"{[\\"}`
	v, err := parseJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal([]byte(doc), &x); err != nil {
		t.Fatal(err)
	}
	std, _ := json.Marshal(x)
	if got := string(canon(v)); got != string(std) {
		t.Errorf("lazy canon %s\nstdlib     %s", got, std)
	}
}

func TestPointers(t *testing.T) {
	if got := ptrJoin("", "a/b", "c~d"); got != "/a~1b/c~0d" {
		t.Errorf("ptrJoin = %q", got)
	}
	v, _ := parseJSON([]byte(`{"a/b":{"c~d":[10,20]}}`))
	if x, ok := lookupPointer(v, "/a~1b/c~0d/1"); !ok || x.s != "20" {
		t.Errorf("lookupPointer failed: %v %v", x, ok)
	}
	for _, bad := range []string{"/x", "/a~1b/c~0d/2", "/a~1b/c~0d/01", "x"} {
		if _, ok := lookupPointer(v, bad); ok {
			t.Errorf("lookupPointer(%q) resolved", bad)
		}
	}
}
