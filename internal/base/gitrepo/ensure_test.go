package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
)

func TestWithinAndResolveBranch(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t)
	r.Write("sub/dir/a.txt", []byte("a\n"))
	tip := r.Commit("root")

	repo, real, rel, err := Within(ctx, filepath.Join(r.Dir, "sub", "dir"))
	want, _ := filepath.EvalSymlinks(r.Dir)
	if err != nil || repo != want || rel != "sub/dir" || real != filepath.Join(want, "sub", "dir") {
		t.Errorf("Within(sub/dir) = %q, %q, %q, %v", repo, real, rel, err)
	}
	if _, _, rel, err := Within(ctx, r.Dir); err != nil || rel != "." {
		t.Errorf("Within(top) rel %q, %v", rel, err)
	}
	if sha, ok := ResolveBranch(ctx, r.Dir, "main"); !ok || sha != tip {
		t.Errorf("ResolveBranch(main) = %q, %v", sha, ok)
	}
	if _, ok := ResolveBranch(ctx, r.Dir, "no-such-branch"); ok {
		t.Error("ResolveBranch found a branch that does not exist")
	}
	fetched := ""
	if err := EnsureCommit(ctx, r.Dir, tip, func(sha string) { fetched = sha }); err != nil || fetched != "" {
		t.Errorf("EnsureCommit of a present commit: %v, fetched %q", err, fetched)
	}

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(r.Dir, "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, _, _, err := Within(ctx, filepath.Join(r.Dir, "link")); err == nil {
		t.Error("a directory outside the repository by a link was accepted")
	}
}

func TestRelPath(t *testing.T) {
	repo := filepath.FromSlash("/r")
	for _, tc := range []struct{ cwd, p, want string }{
		{"/r/sub", "snap.json", "sub/snap.json"},
		{"/r", "", ""},
		{"/elsewhere", "snap.json", "snap.json"},
		{"/r/sub", "/r/x/y.json", "x/y.json"},
	} {
		if got := RelPath(repo, filepath.FromSlash(tc.cwd), filepath.FromSlash(tc.p)); got != tc.want {
			t.Errorf("RelPath(%q, %q) = %q, want %q", tc.cwd, tc.p, got, tc.want)
		}
	}
}
