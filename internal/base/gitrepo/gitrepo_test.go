package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
)

func TestMain(m *testing.M) {
	// Hermetic git for the code under test too (gittest isolates the
	// tests' own git): no user or system configuration, no prompt.
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_TERMINAL_PROMPT": "0",
	} {
		os.Setenv(k, v)
	}
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Println("gitrepo tests need git:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestReadFile(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t)
	r.Write("README.md", []byte("hello\n"))
	first := r.Commit("first")
	r.Write("server/mcp-surface.json", []byte(`{"tools":[]}`+"\n"))
	second := r.Commit("snapshot")
	r.Write("server/mcp-surface.json", []byte(`{"tools":["changed in the work tree"]}`+"\n"))

	got, err := ReadFile(ctx, r.Dir, second, "server/mcp-surface.json")
	if err != nil || string(got) != `{"tools":[]}`+"\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	// Relative to a subdirectory of the work tree.
	got, err = ReadFile(ctx, filepath.Join(r.Dir, "server"), "HEAD", "mcp-surface.json")
	if err != nil || string(got) != `{"tools":[]}`+"\n" {
		t.Fatalf("ReadFile from a subdirectory = %q, %v", got, err)
	}
	got, err = ReadFile(ctx, filepath.Join(r.Dir, "server"), "main", "../README.md")
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("ReadFile ../README.md = %q, %v", got, err)
	}

	_, err = ReadFile(ctx, r.Dir, first, "server/mcp-surface.json")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, fs.ErrNotExist) || nf.Rev != first {
		t.Errorf("missing path: err = %v", err)
	}
	if ok, err := FileExists(ctx, r.Dir, first, "server/mcp-surface.json"); ok || err != nil {
		t.Errorf("FileExists(first) = %v, %v", ok, err)
	}
	if ok, err := FileExists(ctx, r.Dir, second, "server/mcp-surface.json"); !ok || err != nil {
		t.Errorf("FileExists(second) = %v, %v", ok, err)
	}

	_, err = ReadFile(ctx, r.Dir, "no-such-branch", "README.md")
	if !errors.Is(err, ErrUnknownRevision) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("unknown revision: err = %v", err)
	}
	_, err = ReadFile(ctx, r.Dir, strings.Repeat("0", 40), "README.md")
	if !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("absent commit: err = %v", err)
	}
	if _, err := ReadFile(ctx, r.Dir, "HEAD", "server"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("directory: err = %v", err)
	}
	for _, rev := range []string{"--output=x", "HEAD:README.md", ""} {
		if _, err := ReadFile(ctx, r.Dir, rev, "README.md"); err == nil || errors.Is(err, ErrUnknownRevision) {
			t.Errorf("rev %q: err = %v", rev, err)
		}
	}
	if _, err := ReadFile(ctx, r.Dir, "HEAD", "/etc/passwd"); err == nil {
		t.Error("absolute path accepted")
	}

	// Other failures are neither of the typed errors and carry git's stderr.
	_, err = ReadFile(ctx, t.TempDir(), "HEAD", "README.md")
	var ge *Error
	if !errors.As(err, &ge) || errors.Is(err, ErrUnknownRevision) || errors.Is(err, fs.ErrNotExist) ||
		!strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("not a repository: err = %v", err)
	}
}

func TestResolveAndMergeBase(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t)
	r.Write("a.txt", []byte("a\n"))
	root := r.Commit("root")
	r.Git("switch", "--quiet", "-c", "feature")
	r.Write("a.txt", []byte("a\nfeature\n"))
	feat := r.Commit("feature")
	r.Git("switch", "--quiet", "main")
	r.Write("b.txt", []byte("b\n"))
	mainTip := r.Commit("main moves on")

	if got, err := ResolveCommit(ctx, r.Dir, "feature"); err != nil || got != feat {
		t.Errorf("ResolveCommit(feature) = %q, %v", got, err)
	}
	if got, err := ResolveCommit(ctx, r.Dir, "HEAD~1"); err != nil || got != root {
		t.Errorf("ResolveCommit(HEAD~1) = %q, %v", got, err)
	}
	if got, err := MergeBase(ctx, r.Dir, mainTip, "feature"); err != nil || got != root {
		t.Errorf("MergeBase = %q, %v", got, err)
	}
	r.Git("switch", "--quiet", "--orphan", "unrelated")
	r.Write("c.txt", []byte("c\n"))
	r.Commit("unrelated")
	if _, err := MergeBase(ctx, r.Dir, "main", "unrelated"); !errors.Is(err, ErrNoMergeBase) {
		t.Errorf("MergeBase(unrelated) err = %v", err)
	}
	if top, err := TopLevel(ctx, r.Dir); err != nil || top == "" {
		t.Errorf("TopLevel = %q, %v", top, err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ResolveCommit(cctx, r.Dir, "main"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func worktreeCount(t *testing.T, r *gittest.Repo) int {
	t.Helper()
	return strings.Count(r.Git("worktree", "list", "--porcelain"), "worktree ")
}

func TestWorktreeRemovedAfterCallerFails(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t)
	base := r.CommitFiles("v1", map[string][]byte{"server/main.go": []byte("package main // v1\n")})
	r.CommitFiles("v2", map[string][]byte{"server/main.go": []byte("package main // v2\n")})

	var seen string
	errBuild := errors.New("build failed")
	work := func() (err error) {
		dir, cleanup, err := Worktree(ctx, r.Dir, base)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, cleanup()) }()
		seen = dir
		b, err := os.ReadFile(filepath.Join(dir, "server", "main.go"))
		if err != nil {
			return err
		}
		if string(b) != "package main // v1\n" {
			t.Errorf("worktree content = %q", b)
		}
		if n := worktreeCount(t, r); n != 2 {
			t.Errorf("%d worktrees while in use, want 2", n)
		}
		return errBuild
	}
	if err := work(); !errors.Is(err, errBuild) {
		t.Fatalf("work err = %v", err)
	}
	if _, err := os.Stat(seen); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("worktree directory %s still there: %v", seen, err)
	}
	if _, err := os.Stat(filepath.Dir(seen)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary parent still there: %v", err)
	}
	if n := worktreeCount(t, r); n != 1 {
		t.Errorf("%d worktrees after cleanup, want 1", n)
	}
	// The main work tree is untouched.
	if b, _ := os.ReadFile(filepath.Join(r.Dir, "server", "main.go")); string(b) != "package main // v2\n" {
		t.Errorf("main work tree changed: %q", b)
	}
}

func TestWorktreeCleanupAfterPanicCancelAndTwice(t *testing.T) {
	r := gittest.New(t)
	r.Write("x", []byte("x\n"))
	r.Commit("x")

	ctx, cancel := context.WithCancel(context.Background())
	dir, cleanup, err := Worktree(ctx, r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { _ = recover() }()
		defer cleanup()
		cancel() // the caller's context is gone before cleanup runs
		panic("caller's work panicked")
	}()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("worktree %s survived a panic: %v", dir, err)
	}
	if err := cleanup(); err != nil {
		t.Errorf("second cleanup = %v", err)
	}
	if n := worktreeCount(t, r); n != 1 {
		t.Errorf("%d worktrees, want 1", n)
	}

	// A revision that does not exist: error, nothing created, cleanup safe.
	dir, cleanup, err = Worktree(context.Background(), r.Dir, "nope")
	if !errors.Is(err, ErrUnknownRevision) || dir != "" || cleanup == nil || cleanup() != nil {
		t.Errorf("Worktree(nope) = %q, %v", dir, err)
	}

	// Removed even when the caller deleted files or left junk in it.
	dir, cleanup, err = Worktree(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "build-output"), []byte("junk"), 0o644)
	os.Remove(filepath.Join(dir, "x"))
	if err := cleanup(); err != nil {
		t.Fatalf("cleanup = %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dirty worktree survived: %v", err)
	}
}

func TestTrackedFiles(t *testing.T) {
	r := gittest.New(t)
	r.Write("a.go", []byte(""))
	r.Write("dir/with space.txt", []byte(""))
	r.Write("dir/ünï\tcode.ts", []byte(""))
	r.Write("untracked-later", []byte(""))
	r.Commit("files")
	r.Write("new-untracked", []byte(""))
	got, err := TrackedFiles(context.Background(), r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.go", "dir/with space.txt", "dir/ünï\tcode.ts", "untracked-later"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TrackedFiles (-want +got):\n%s", diff)
	}
	sub, err := TrackedFiles(context.Background(), filepath.Join(r.Dir, "dir"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[1:3], sub); diff != "" {
		t.Errorf("TrackedFiles(dir) (-want +got):\n%s", diff)
	}
}

func numbered(n int, tag string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", tag, i)
	}
	return b.String()
}

func TestChangedLines(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t)
	r.Write("tools.go", []byte(numbered(10, "base")))
	r.Write("gone.go", []byte("package gone\n"))
	r.Write("old/name.go", []byte(numbered(20, "moved")))
	r.Write("main-only.go", []byte("x\n"))
	base := r.Commit("base")

	r.Git("switch", "--quiet", "-c", "feature")
	lines := strings.SplitAfter(numbered(10, "base"), "\n")
	lines[1] = "changed line 2\n"            // modify line 2
	lines[4] = "changed line 5\n++ b/fake\n" // modify line 5, add a line that looks like a header
	lines = append(lines[:8], lines[9:]...)  // delete base line 9
	r.Write("tools.go", []byte(strings.Join(lines, "")))
	r.Git("rm", "--quiet", "gone.go")
	r.Write("new/file.py", []byte("a\nb\nc\n"))
	r.Write(`we"ird name.txt`, []byte("one\n"))
	r.Git("rm", "--quiet", "old/name.go")
	moved := strings.SplitAfter(numbered(20, "moved"), "\n")
	moved[14] = "edited after the move\n" // line 15
	r.Write("renamed/name.go", []byte(strings.Join(moved, "")))
	head := r.Commit("feature")

	// The base branch moves on after the branch point: not in the PR.
	r.Git("switch", "--quiet", "main")
	r.Write("main-only.go", []byte("x\ny\n"))
	r.Write("tools.go", []byte("main rewrote everything\n"))
	mainTip := r.Commit("main moves")

	got, err := ChangedLines(ctx, r.Dir, mainTip, head)
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{
		"tools.go":        {{2, 2}, {5, 6}},
		"new/file.py":     {{1, 3}},
		`we"ird name.txt`: {{1, 1}},
		"renamed/name.go": {{15, 15}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ChangedLines (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		path string
		line int
		want bool
	}{
		{"tools.go", 1, false}, {"tools.go", 2, true}, {"tools.go", 5, true}, {"tools.go", 6, true},
		{"tools.go", 7, false}, {"gone.go", 1, false}, {"renamed/name.go", 15, true}, {"old/name.go", 15, false},
	} {
		if got.Contains(c.path, c.line) != c.want {
			t.Errorf("Contains(%s, %d) = %v", c.path, c.line, !c.want)
		}
	}
	if got.Count() != 8 {
		t.Errorf("Count = %d, want 8", got.Count())
	}
	_ = base
}

func TestShallowCloneFetch(t *testing.T) {
	ctx := context.Background()
	origin := gittest.New(t)
	base := origin.CommitFiles("base", map[string][]byte{"mcp-surface.json": []byte("{\"v\":1}\n")})
	origin.CommitFiles("head", map[string][]byte{"mcp-surface.json": []byte("{\"v\":2}\n")})

	clone := t.TempDir()
	gittest.Run(t, clone, "clone", "--quiet", "--depth=1", "file://"+origin.Dir, ".")
	if shallow, err := IsShallow(ctx, clone); err != nil || !shallow {
		t.Fatalf("IsShallow = %v, %v", shallow, err)
	}
	if _, err := ReadFile(ctx, clone, base, "mcp-surface.json"); !errors.Is(err, ErrUnknownRevision) {
		t.Fatalf("base before fetch: err = %v", err)
	}
	if err := Fetch(ctx, clone, "origin", 1, base); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(ctx, clone, base, "mcp-surface.json")
	if err != nil || string(got) != "{\"v\":1}\n" {
		t.Fatalf("base after fetch = %q, %v", got, err)
	}
	if err := Fetch(ctx, clone, "--upload-pack=touch pwned", 1, base); err == nil {
		t.Error("option-like remote accepted")
	}
}

func TestParseUnifiedDiff(t *testing.T) {
	diff := `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,4 @@ func context()
 keep
-old
+new
+newer
 keep
\ No newline at end of file
diff --git a/b.bin b/b.bin
Binary files a/b.bin and b/b.bin differ
diff --git "a/q\"\303\274\t.txt" "b/q\"\303\274\t.txt"
--- "a/q\"\303\274\t.txt"
+++ "b/q\"\303\274\t.txt"
@@ -10,0 +11,2 @@
+x
+y
@@ -20 +22 @@
-z
+Z
`
	got, err := ParseUnifiedDiff(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{"a.txt": {{2, 3}}, "q\"ü\t.txt": {{11, 12}, {22, 22}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{
		"+++ b/x\n@@ -1 +1,2 @@\n+a\n",       // ends inside a hunk
		"+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n", // longer than the header
		"+++ b/x\n@@ bogus @@\n",             // bad header
		"+++ \"b/x\\q\"\n",                   // bad escape
		"+++ x\n",                            // no prefix
		"+++ b/x\n@@ -1 +1 @@\n?what\n",      // unknown hunk line
	} {
		if _, err := ParseUnifiedDiff(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
