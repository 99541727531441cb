package mergepatch

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var items = Keys{"tools": "name"}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		name, doc, patch, want string
	}{
		{"RFC 7386 members", `{"a":"b","c":{"d":"e","f":"g"}}`, `{"a":"z","c":{"f":null}}`,
			"{\n  \"a\": \"z\",\n  \"c\": {\n    \"d\": \"e\"\n  }\n}\n"},
		{"a patch that is not an object replaces", `{"a":1}`, `[1,2]`, "[\n  1,\n  2\n]\n"},
		{"an object patch over a scalar", `{"a":1}`, `{"a":{"b":null,"c":2}}`, "{\n  \"a\": {\n    \"c\": 2\n  }\n}\n"},
		{"an array replaces an array", `{"a":[1,2,3]}`, `{"a":[{}]}`, "{\n  \"a\": [\n    {}\n  ]\n}\n"},
		{"members sorted, spellings kept", `{"z":1e2,"a":"x\u200b","é":[]}`, `{"m":"\u0435"}`,
			"{\n  \"a\": \"x\\u200b\",\n  \"m\": \"\\u0435\",\n  \"z\": 1e2,\n  \"é\": []\n}\n"},
		{"a keyed list: change, remove, add at the end", `{"tools":[{"name":"b","x":1},{"name":"a","x":2},{"name":"c"}]}`,
			`{"tools":{"a":{"x":3},"c":null,"get_us\u0435r":{"y":true}}}`,
			"{\n  \"tools\": [\n    {\n      \"name\": \"b\",\n      \"x\": 1\n    },\n    {\n      \"name\": \"a\",\n      \"x\": 3\n    },\n    {\n      \"name\": \"get_us\\u0435r\",\n      \"y\": true\n    }\n  ]\n}\n"},
		{"a keyed list that was absent", `{}`, `{"tools":{"a":{}}}`, "{\n  \"tools\": [\n    {\n      \"name\": \"a\"\n    }\n  ]\n}\n"},
		{"only top-level members are keyed", `{"x":{"tools":[1]}}`, `{"x":{"tools":{"a":{}}}}`, "{\n  \"x\": {\n    \"tools\": {\n      \"a\": {}\n    }\n  }\n}\n"},
		{"a keyed list as an array is replaced", `{"tools":[{"name":"a"}]}`, `{"tools":[]}`, "{\n  \"tools\": []\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply([]byte(tc.doc), []byte(tc.patch), items)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, string(got)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	for _, tc := range []struct {
		doc, patch, want string
	}{
		{`{"a":`, `{}`, "reading the document"},
		{`{}`, `{"a":1,}`, "reading the patch"},
		{`{"tools":[{"name":"a"}]}`, `{"tools":{"b":null}}`, `tools: no element with name "b" to remove`},
		{`{"tools":{"a":1}}`, `{"tools":{"a":{}}}`, "tools: the document's value is not an array"},
		{`{"tools":[]}`, `{"tools":{"a":1}}`, `tools: element "a": the patch is not an object or null`},
	} {
		_, err := Apply([]byte(tc.doc), []byte(tc.patch), items)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Apply(%s, %s) = %v, want an error with %q", tc.doc, tc.patch, err, tc.want)
		}
	}
}

// Applying an empty patch pretty-prints the document as encoding/json's
// indented output of the same map would, keeping each spelling.
func TestEmptyPatchIsIdentityOnPrettyDocuments(t *testing.T) {
	doc := "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"c\\n\"\n    }\n  ],\n  \"d\": {}\n}\n"
	got, err := Apply([]byte(doc), []byte(`{}`), items)
	if err != nil || string(got) != doc {
		t.Errorf("Apply(doc, {}) = %q, %v", got, err)
	}
}
