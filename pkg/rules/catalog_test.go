package rules

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
)

func TestCatalogParses(t *testing.T) {
	if err := theCatalog().err; err != nil {
		t.Fatal(err)
	}
}

// Every file under catalog/ is read: an area's file is listed in
// areaFiles, and every shared paragraph is included by some rule.
func TestCatalogFilesAreUsed(t *testing.T) {
	areaMD, _ := fs.Glob(catalogFS, "catalog/*.md")
	var listed []string
	for _, files := range areaFiles {
		for _, f := range files {
			listed = append(listed, f.name)
		}
	}
	for _, f := range areaMD {
		if !slices.Contains(listed, path.Base(f)) {
			t.Errorf("%s is not listed in areaFiles, so its rules are not in the table", f)
		}
	}
	shared, _ := fs.Glob(catalogFS, "catalog/shared/*.md")
	for _, f := range shared {
		inc := includePrefix + strings.TrimSuffix(path.Base(f), ".md") + includeSuffix
		used := false
		for _, a := range listed {
			used = used || strings.Contains(readCatalog("catalog/"+a), inc)
		}
		if !used {
			t.Errorf("%s: no rule includes it", f)
		}
	}
}

func TestParseArea(t *testing.T) {
	shared := func(name string) (string, bool) { return "Shared " + name + ".", name == "x" }
	const src = `# Things

What the area covers.

## thing-removed

- summary: A thing is gone
- kind: change
- severity: breaking
- direction: surface
- tags: wire, sec
- action: removed
- producer: pkg/diff
- breaks: Calls fail
- fix: Keep the thing

Why it matters.

<!-- include: x -->

## thing-noted

- summary: A thing is odd
- kind: lint
- level: warning
- producer: pkg/spec

**What to do.** Look.
`
	a, err := parseArea("t.md", src, shared)
	if err != nil {
		t.Fatal(err)
	}
	if a.title != "Things" || a.intro != "What the area covers." || len(a.rules) != 2 {
		t.Fatalf("area = %q %q, %d rules", a.title, a.intro, len(a.rules))
	}
	r := a.rules[0]
	if r.ID != "thing-removed" || r.Level != LevelError || r.Action != ActionRemoved ||
		!slices.Equal(r.Tags, []string{"wire", "sec"}) || !slices.Equal(r.Producers, []string{"pkg/diff"}) {
		t.Errorf("row = %+v", r)
	}
	// An error rule without advice gets its fix, before the shared text.
	if want := "Why it matters.\n\n**What to do.** Keep the thing.\n\nShared x."; r.Help != want {
		t.Errorf("help = %q, want %q", r.Help, want)
	}
	if want := "**What to do.** Look."; a.rules[1].Help != want {
		t.Errorf("help = %q, want %q", a.rules[1].Help, want)
	}

	for name, bad := range map[string]string{
		"no title":              "## a-b\n\n- kind: lint\n",
		"unknown key":           "# T\n\n## a-b\n\n- colour: red\n",
		"repeated key":          "# T\n\n## a-b\n\n- kind: lint\n- kind: spec\n",
		"unknown severity":      "# T\n\n## a-b\n\n- kind: change\n- severity: awful\n",
		"unknown action":        "# T\n\n## a-b\n\n- kind: change\n- action: moved\n",
		"example not a fixture": "# T\n\n## a-b\n\n- kind: change\n- example: ../x.txtar\n",
		"unknown include":       "# T\n\n## a-b\n\n- kind: lint\n\nText.\n\n<!-- include: y -->\n",
		"text after include":    "# T\n\n## a-b\n\n- kind: lint\n\n<!-- include: x -->\n\nMore.\n",
		"empty value":           "# T\n\n## a-b\n\n- kind:\n",
	} {
		if _, err := parseArea("bad.md", bad, shared); err == nil || !strings.Contains(err.Error(), "bad.md:") {
			t.Errorf("%s: err = %v, want one naming the file and line", name, err)
		}
	}
}
