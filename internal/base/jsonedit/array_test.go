package jsonedit

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func raws(vs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v)
	}
	return out
}

// Elements go in before an element (or at the end) in the array's own
// layout, and DeleteElements takes them out to the byte: lock --wrap puts
// the guard's words in front of a server's args and --unwrap removes them.
func TestInsertAndDeleteElements(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		at        int
		want      string
	}{{
		name: "one line",
		src:  `{"args": ["-y", "pkg@1"]}`,
		want: `{"args": ["guard", "--", "npx", "-y", "pkg@1"]}`,
	}, {
		name: "empty",
		src:  `{"args": []}`,
		want: `{"args": ["guard", "--", "npx"]}`,
	}, {
		name: "over lines, with comments and a trailing comma",
		src:  "{\n  \"args\": [\n    // the package\n    \"-y\", // yes\n    \"pkg@1\",\n  ],\n}\n",
		want: "{\n  \"args\": [\n    // the package\n    \"guard\",\n    \"--\",\n    \"npx\",\n    \"-y\", // yes\n    \"pkg@1\",\n  ],\n}\n",
	}, {
		name: "empty over lines",
		src:  "{\n\t\"args\": [\n\t]\n}",
		want: "{\n\t\"args\": [\n\t\t\"guard\",\n\t\t\"--\",\n\t\t\"npx\"\n\t]\n}",
	}, {
		name: "two on a line",
		src:  "{\"args\": [\n  \"-y\", \"pkg\"\n]}",
		at:   1,
		want: "{\"args\": [\n  \"-y\", \"guard\", \"--\", \"npx\", \"pkg\"\n]}",
	}, {
		name: "at the end, over lines",
		src:  "{\"args\": [\n  \"-y\",\n  \"pkg\", // last\n]}",
		at:   2,
		want: "{\"args\": [\n  \"-y\",\n  \"pkg\",\n  \"guard\",\n  \"--\",\n  \"npx\", // last\n]}",
	}, {
		name: "objects go on one line",
		src:  `{"a": {"b": [1]}}`,
		want: `{"a": {"b": [{"x": [1, 2]}, 1]}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			path, values := []string{"args"}, raws(`"guard"`, `"--"`, `"npx"`)
			if tc.name == "objects go on one line" {
				path, values = []string{"a", "b"}, raws("{\n\"x\": [1,\n2]}")
			}
			d, err := Parse([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.InsertElements(tc.at, values, path...); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(d.Bytes())); diff != "" {
				t.Errorf("inserted (-want +got):\n%s", diff)
			}
			if err := d.DeleteElements(tc.at, len(values), path...); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.src, string(d.Bytes())); diff != "" {
				t.Errorf("deleted again (-want +got):\n%s", diff)
			}
		})
	}
}

// Delete takes out what Set added, byte for byte, whatever the object's
// layout: lock --unwrap removes the args --wrap gave a server that had
// none.
func TestDeleteUndoesSet(t *testing.T) {
	for name, src := range map[string]string{
		"over lines":                 "{\n  \"s\": {\n    \"command\": \"srv\"\n  }\n}\n",
		"trailing commas":            "{\n\t\"s\": {\n\t\t\"command\": \"srv\",\n\t},\n}\n",
		"a comment after the last":   "{\n  \"s\": {\n    \"command\": \"srv\" // the server\n  }\n}",
		"a trailing comma, then one": "{\n  \"s\": {\n    \"command\": \"srv\", /* it */\n    // end\n  }\n}",
		"one line":                   `{"s": {"command": "srv", "env": {"A": "1"}}}`,
		"empty object over lines":    "{\n  \"s\": {\n  }\n}",
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Set(json.RawMessage(`["a"]`), "s", "args"); err != nil {
				t.Fatal(err)
			}
			added := string(d.Bytes())
			if err := d.Delete("s", "args"); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(src, string(d.Bytes())); diff != "" {
				t.Errorf("after Set:\n%s\nDelete (-want +got):\n%s", added, diff)
			}
		})
	}
}

// A member that is not the last goes with its comma and its line.
func TestDeleteAMember(t *testing.T) {
	for _, tc := range []struct {
		src  string
		path []string
		want string
	}{
		{"{\n  \"a\": 1,\n  \"b\": 2\n}", []string{"a"}, "{\n  \"b\": 2\n}"},
		{"{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}", []string{"b"}, "{\n  \"a\": 1,\n  \"c\": 3\n}"},
		{`{"a": 1, "b": 2, "c": 3}`, []string{"b"}, `{"a": 1, "c": 3}`},
		{`{"a": 1, "b": 2}`, []string{"a"}, `{"b": 2}`},
		{`{"a": 1}`, []string{"a"}, `{}`},
		{`{"a": 1}`, []string{"x"}, `{"a": 1}`},
	} {
		d, err := Parse([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Delete(tc.path...); err != nil {
			t.Fatal(err)
		}
		if got := string(d.Bytes()); got != tc.want {
			t.Errorf("Delete(%v) of %q = %q, want %q", tc.path, tc.src, got, tc.want)
		}
	}
}

// Bad element edits are errors that name the array, and leave the
// document as it was.
func TestElementErrors(t *testing.T) {
	src := `{"a": 1, "l": ["x"]}`
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{d.InsertElements(0, raws(`"y"`), "a"), "jsonedit: a is not an array"},
		{d.InsertElements(0, raws(`"y"`), "m"), "jsonedit: there is no m"},
		{d.InsertElements(2, raws(`"y"`), "l"), "jsonedit: l has 1 elements: no place 2"},
		{d.InsertElements(0, raws(`{`), "l"), "jsonedit: value 0 for l is not JSON"},
		{d.DeleteElements(0, 2, "l"), "jsonedit: l has 1 elements: no 2 from 0"},
		{d.DeleteElements(0, 1, "a", "b"), "a is not an object"},
		{d.Delete(), "jsonedit: Delete needs a path"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("got %v, want %q", tc.err, tc.want)
		}
	}
	if string(d.Bytes()) != src {
		t.Errorf("failed edits changed the document: %s", d.Bytes())
	}
}
