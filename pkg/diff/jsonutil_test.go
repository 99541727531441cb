package diff

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// stdObject and stdArray are parseObject and parseArray through
// encoding/json alone: the reference the scanner's fast path must equal.
func stdObject(raw json.RawMessage) object {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var o object
	if json.Unmarshal(raw, &o) != nil {
		return nil
	}
	return o
}

func stdArray(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var a []json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return nil
	}
	return a
}

func checkSameParse(t *testing.T, raw []byte) {
	t.Helper()
	if got, want := parseObject(raw), stdObject(raw); !reflect.DeepEqual(got, want) {
		t.Errorf("parseObject(%.120q) = %v, encoding/json gives %v", raw, got, want)
	}
	if got, want := parseArray(raw), stdArray(raw); !reflect.DeepEqual(got, want) {
		t.Errorf("parseArray(%.120q) = %v, encoding/json gives %v", raw, got, want)
	}
	if len(raw) > 0 && raw[0] == '"' {
		var want string
		wantOK := json.Unmarshal(raw, &want) == nil
		if got, ok := stringValue(raw); ok != wantOK || got != want {
			t.Errorf("stringValue(%.120q) = %q, %v, encoding/json gives %q, %v", raw, got, ok, want, wantOK)
		}
	}
}

// FuzzParseObject checks that the scanner's split of an object or array
// is exactly encoding/json's, for any bytes.
func FuzzParseObject(f *testing.F) {
	for _, s := range parseCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkSameParse(t, raw) })
}

var parseCases = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":null,"b":[1,{"c":"d"}],"e":true}`, `{ "a" : 1 , "b" : { } }`,
	`{"a":1,"a":2}`, `{"a\u0062":1,"ab":2}`, `{"ab":2,"a\u0062":1}`, `{"\ud800":1}`, "{\"\xff\":1}",
	`{"a":"\xff"}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":truex}`, `{"a":1,}`, `[1,]`,
	`{"a":1} `, `{"a":1} x`, `{"a":1}{}`, `{"a":"x\"y"}`, `{"a":"\u00e9","é":"\n"}`, `{"a":[[[[]]]]}`,
	`[1, "a" ,{"b":null}, [ ] ]`, `{"a":"` + "\x01" + `"}`, `{"a":1`, `[`, `{"a"}`, `{1:2}`,
	`{"a":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
	`{"a":{"\u0041":1,"\u0041":2}}`, `"abc"`, `"a\"b"`, `"é"`, "\"\xff\"", `"a" `, `"a"x`, `"\ud800"`, `""`, `{"a":-0.5E+3,"b":1e-7,"c":-0}`, `{"a":nul}`, `{"a":"\q"}`,
}

func TestParseObjectIsEncodingJSON(t *testing.T) {
	for _, s := range parseCases {
		checkSameParse(t, []byte(s))
	}
	// Every object and array of every fixture, at every depth.
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	var docs [][]byte
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range a.Files {
			if data := bytes.TrimSpace(af.Data); len(data) > 0 && (data[0] == '{' || data[0] == '[') {
				docs = append(docs, data)
			}
		}
	}
	if len(docs) < 100 {
		t.Fatalf("only %d JSON documents in the fixtures", len(docs))
	}
	for _, data := range docs {
		var walk func(raw json.RawMessage, depth int)
		walk = func(raw json.RawMessage, depth int) {
			checkSameParse(t, raw)
			if depth > 64 {
				return
			}
			for _, v := range stdObject(raw) {
				walk(v, depth+1)
			}
			for _, v := range stdArray(raw) {
				walk(v, depth+1)
			}
		}
		walk(data, 0)
	}
}

// TestParseObjectValuesAreCapped checks that appending to a member value
// never writes into the bytes it was split from.
func TestParseObjectValuesAreCapped(t *testing.T) {
	raw := []byte(`{"a":"x","b":"y"}`)
	o := parseObject(raw)
	_ = append(o["a"], 'Z')
	if string(raw) != `{"a":"x","b":"y"}` {
		t.Fatalf("raw changed: %s", raw)
	}
}
