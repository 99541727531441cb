package jsonedit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlain(t *testing.T) {
	got, err := Plain([]byte("{\"a\": \"//not a comment, /* nor this */\", // one\n \"b\": [1, 2,], /* two\n lines */ \"c\": {\"d\": \"\\\"}\",},\n}"))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"a\": \"//not a comment, /* nor this */\",       \n \"b\": [1, 2 ],       \n          \"c\": {\"d\": \"\\\"}\" } \n}"
	if string(got) != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// edit is one Set on a document, and the document it must give.
type edit struct {
	path  []string
	value string
}

func apply(t *testing.T, src string, edits ...edit) string {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	for _, e := range edits {
		if err := d.Set(json.RawMessage(e.value), e.path...); err != nil {
			t.Fatalf("Set %v: %v", e.path, err)
		}
	}
	return string(d.Bytes())
}

// Set rewrites an entry's command and args (the whole array) in a VS
// Code configuration with comments and trailing commas, and in Claude
// Code's .mcp.json; every other byte stays.
func TestRewriteAnEntrysCommand(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		edits     []edit
		want      string
	}{{
		name: "vscode with comments",
		src: `// The team's servers.
{
	"inputs": [
		{ "type": "promptString", "id": "token", "password": true },
	],
	"servers": {
		/* the issue tracker */
		"tracker": {
			"type": "stdio",
			"command": "npx", // pinned below
			"args": ["-y", "@acme/tracker@1.2.3"], // the version we reviewed
			"env": { "TOKEN": "${input:token}" },
		},
		"search": { "url": "https://search.example/mcp" },
	},
}
`,
		edits: []edit{
			{[]string{"servers", "tracker", "command"}, `"mcp-surface"`},
			{[]string{"servers", "tracker", "args"}, `["lock","run","--name","tracker","--","npx","-y","@acme/tracker@1.2.3"]`},
		},
		want: `// The team's servers.
{
	"inputs": [
		{ "type": "promptString", "id": "token", "password": true },
	],
	"servers": {
		/* the issue tracker */
		"tracker": {
			"type": "stdio",
			"command": "mcp-surface", // pinned below
			"args": ["lock", "run", "--name", "tracker", "--", "npx", "-y", "@acme/tracker@1.2.3"], // the version we reviewed
			"env": { "TOKEN": "${input:token}" },
		},
		"search": { "url": "https://search.example/mcp" },
	},
}
`,
	}, {
		name: "claude code, args over lines, no args yet in another",
		src: `{
  "mcpServers": {
    "tracker": {
      "command": "node",
      "args": [
        "dist/index.js"
      ]
    },
    "bare": {
      "command": "bare-server"
    }
  }
}
`,
		edits: []edit{
			{[]string{"mcpServers", "tracker", "args"}, `["lock","run","--","node","dist/index.js"]`},
			{[]string{"mcpServers", "bare", "command"}, `"mcp-surface"`},
			{[]string{"mcpServers", "bare", "args"}, `["lock","run","--","bare-server"]`},
		},
		want: `{
  "mcpServers": {
    "tracker": {
      "command": "node",
      "args": [
        "lock",
        "run",
        "--",
        "node",
        "dist/index.js"
      ]
    },
    "bare": {
      "command": "mcp-surface",
      "args": [
        "lock",
        "run",
        "--",
        "bare-server"
      ]
    }
  }
}
`,
	}, {
		// The file ends its last member with a comma: the new one too.
		name:  "a member after a line comment and a trailing comma",
		src:   "{\n  \"a\": 1, // one\n  // the end\n}",
		edits: []edit{{[]string{"b"}, `{"c":[1,2]}`}},
		want:  "{\n  \"a\": 1, // one\n  \"b\": {\n    \"c\": [\n      1,\n      2\n    ]\n  },\n  // the end\n}",
	}, {
		name:  "one-line objects stay on one line",
		src:   `{"name": "x"}`,
		edits: []edit{{[]string{"scripts", "s"}, `"run it"`}},
		want:  `{"name": "x", "scripts": {"s": "run it"}}`,
	}, {
		name:  "an empty object opens",
		src:   "{\n\t\"servers\": {}\n}\n",
		edits: []edit{{[]string{"servers", "x", "command"}, `"y"`}},
		want:  "{\n\t\"servers\": {\n\t\t\"x\": {\n\t\t\t\"command\": \"y\"\n\t\t}\n\t}\n}\n",
	}, {
		name:  "strings with commas and colons keep them",
		src:   `{"a": "b"}`,
		edits: []edit{{[]string{"a"}, `["x, y: \"z\\\", w"]`}},
		want:  `{"a": ["x, y: \"z\\\", w"]}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, apply(t, tc.src, tc.edits...)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// init's edit: a script added to package.json in its order and
// indentation, or replaced where it stands.
func TestPackageJSONScript(t *testing.T) {
	src := "{\n    \"name\": \"my-server\",\n    \"scripts\": {\n        \"build\": \"tsc\"\n    },\n    \"type\": \"module\"\n}\n"
	added := apply(t, src, edit{[]string{"scripts", "snap"}, `"mcp-surface snapshot"`})
	want := "{\n    \"name\": \"my-server\",\n    \"scripts\": {\n        \"build\": \"tsc\",\n        \"snap\": \"mcp-surface snapshot\"\n    },\n    \"type\": \"module\"\n}\n"
	if d := cmp.Diff(want, added); d != "" {
		t.Errorf("added (-want +got):\n%s", d)
	}
	replaced := apply(t, added, edit{[]string{"scripts", "snap"}, `"again"`})
	if d := cmp.Diff(strings.Replace(want, `"mcp-surface snapshot"`, `"again"`, 1), replaced); d != "" {
		t.Errorf("replaced (-want +got):\n%s", d)
	}
	noScripts := apply(t, "{\n  \"name\": \"x\"\n}\n", edit{[]string{"scripts", "snap"}, `"s"`})
	if d := cmp.Diff("{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"snap\": \"s\"\n  }\n}\n", noScripts); d != "" {
		t.Errorf("no scripts (-want +got):\n%s", d)
	}
}

func TestGet(t *testing.T) {
	d, err := Parse([]byte("{\"a\": {\"b\": [1, 2,], // c\n}, \"a2\": 1, \"a2\": 2}"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := d.Get("a", "b"); !ok || string(v) != "[1, 2 ]" {
		t.Errorf("a.b = %q, %v", v, ok)
	}
	if v, ok := d.Get("a2"); !ok || string(v) != "2" {
		t.Errorf("a repeated key reads as its last value: %q, %v", v, ok)
	}
	if _, ok := d.Get("a", "x"); ok {
		t.Error("a.x is not there")
	}
	if _, ok := d.Get("a2", "x"); ok {
		t.Error("a2 is no object")
	}
}

// Bad documents and bad edits are errors that say what is wrong, and a
// failed edit leaves the document as it was.
func TestErrors(t *testing.T) {
	for src, want := range map[string]string{
		"":                 "the file is empty",
		"[1]":              "not a JSON object",
		"{\"a\": /* x":     "line 1: unterminated /* comment",
		"{\"a\": 1":        "unexpected end of JSON input",
		"{\"a\": \"x\n\"}": "line 1: unterminated string",
	} {
		if _, err := Parse([]byte(src)); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
	d, _ := Parse([]byte(`{"a": 1}`))
	for _, tc := range []struct {
		path  []string
		value string
		want  string
	}{
		{[]string{"a", "b"}, `1`, "a is not an object"},
		{[]string{"b"}, `{`, "jsonedit: the value for b is not JSON"},
		{nil, `1`, "jsonedit: Set needs a path"},
	} {
		if err := d.Set(json.RawMessage(tc.value), tc.path...); err == nil || err.Error() != tc.want {
			t.Errorf("Set(%v) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if string(d.Bytes()) != `{"a": 1}` {
		t.Errorf("failed edits changed the document: %s", d.Bytes())
	}
}
