package actioninstall

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
)

// TestActionsPinned: every third-party action in action.yml and the
// workflows is pinned by a full commit SHA with its version in a comment,
// the form Dependabot updates. A tag can be moved to other code; a commit
// cannot.
func TestActionsPinned(t *testing.T) {
	t.Parallel()
	root := sharedtest.Root(t)
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	files = append(files, filepath.Join(root, "action.yml"))
	uses := regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	comment := regexp.MustCompile(`^\s+# v\d+(\.\d+){0,2}\b`)
	seen := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := uses.FindStringSubmatch(line)
			if m == nil || strings.HasPrefix(m[1], "./") {
				continue
			}
			seen++
			where := filepath.Base(f) + ":" + strings.TrimSpace(line)
			if !pinned.MatchString(m[1]) {
				t.Errorf("%d: %s: pin the action by its full commit SHA", i+1, where)
			} else if !comment.MatchString(m[2]) {
				t.Errorf("%d: %s: name the version in a comment (# v1.2.3)", i+1, where)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no uses: found")
	}
}
