package rulesdoc

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
)

// copyFixtures copies the two fixture directories (and the diff
// fixtures' default snapshot) under a new root.
func copyFixtures(t *testing.T) string {
	t.Helper()
	root, tmp := sharedtest.Root(t), t.TempDir()
	for _, dir := range []string{diffFixtures, schemadiffFixtures} {
		src := os.DirFS(filepath.Join(root, filepath.FromSlash(dir)))
		if err := os.CopyFS(filepath.Join(tmp, filepath.FromSlash(dir)), src); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// A new fixture smaller than a rule's example does not become its
// example: the examples are chosen in the rules' rows, and a fixture
// that would have won as the smallest changes no rule's documentation.
func TestNewFixtureChangesNoExample(t *testing.T) {
	root := copyFixtures(t)
	before, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	// One tool, removed: smaller than any example of tool-removed.
	small := "A tool is removed.\n-- base --\n{\"tools\": {\"a\": {\"inputSchema\": {\"type\": \"object\"}}}}\n-- head --\n{\"tools\": {\"a\": null}}\n" +
		"-- want --\ntool-removed tool a \"\"\nserver-version-not-bumped server \"\" /serverInfo/version\n-- want.reverse --\ntool-added tool a \"\"\n"
	name := path.Join(diffFixtures, "a-new-small-fixture.txtar")
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(small), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("a new fixture changed the examples (-before +after):\n%s", d)
	}
	// It would have won as the smallest for some rule.
	all, err := readAll(root)
	if err != nil {
		t.Fatal(err)
	}
	won := 0
	for rule, e := range smallestExamples(all) {
		if e.Fixture == name {
			won++
			if before[rule].Fixture == name {
				t.Errorf("%s: the new fixture is its example", rule)
			}
		}
	}
	if won == 0 {
		t.Error("the new fixture is the smallest for no rule: the test shows nothing")
	}
}

// An example that does not report its rule, and a reported rule without
// an example, are errors that say what to write.
func TestExampleErrors(t *testing.T) {
	root := copyFixtures(t)
	// Remove the fixture tool-removed's row names: other fixtures still
	// report the rule.
	ex, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	chosen := ex["tool-removed"].Fixture
	if chosen == "" {
		t.Fatal("tool-removed has no example")
	}
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(chosen))); err != nil {
		t.Fatal(err)
	}
	_, err = examples(root)
	if err == nil || !strings.Contains(err.Error(), "rule tool-removed") || !strings.Contains(err.Error(), "example") {
		t.Errorf("examples without tool-removed's fixture: %v", err)
	}
}
