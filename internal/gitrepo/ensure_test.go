package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestWithinAndResolveBranch(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("sub/dir/a.txt", "a\n")
	tip := r.commit("root")

	repo, real, rel, err := Within(ctx, filepath.Join(r.dir, "sub", "dir"))
	want, _ := filepath.EvalSymlinks(r.dir)
	if err != nil || repo != want || rel != "sub/dir" || real != filepath.Join(want, "sub", "dir") {
		t.Errorf("Within(sub/dir) = %q, %q, %q, %v", repo, real, rel, err)
	}
	if _, _, rel, err := Within(ctx, r.dir); err != nil || rel != "." {
		t.Errorf("Within(top) rel %q, %v", rel, err)
	}
	if sha, ok := ResolveBranch(ctx, r.dir, "main"); !ok || sha != tip {
		t.Errorf("ResolveBranch(main) = %q, %v", sha, ok)
	}
	if _, ok := ResolveBranch(ctx, r.dir, "no-such-branch"); ok {
		t.Error("ResolveBranch found a branch that does not exist")
	}
	fetched := ""
	if err := EnsureCommit(ctx, r.dir, tip, func(sha string) { fetched = sha }); err != nil || fetched != "" {
		t.Errorf("EnsureCommit of a present commit: %v, fetched %q", err, fetched)
	}

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(r.dir, "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, _, _, err := Within(ctx, filepath.Join(r.dir, "link")); err == nil {
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
