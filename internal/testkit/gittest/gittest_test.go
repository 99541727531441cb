package gittest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
)

// TestIsolated commits, tags and clones under a user configuration that
// would break all three (signing that cannot work, a hook that always
// fails, another first branch) and an inherited GIT_DIR that points
// elsewhere: none of it reaches gittest's git.
func TestIsolated(t *testing.T) {
	home := t.TempDir()
	hooks := filepath.Join(home, "hooks")
	os.MkdirAll(hooks, 0o755)
	for _, h := range []string{"pre-commit", "commit-msg", "post-checkout"} {
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	userConfig := "[commit]\n\tgpgsign = true\n[tag]\n\tgpgsign = true\n[gpg]\n\tprogram = false\n" +
		"[core]\n\thooksPath = " + filepath.ToSlash(hooks) + "\n[init]\n\tdefaultBranch = trunk\n[user]\n\tname = Someone Else\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(userConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_DIR", filepath.Join(home, "elsewhere.git"))

	r := gittest.New(t)
	r.Write("dir/a.txt", []byte("a\n"))
	first := r.Commit("first")
	r.Git("tag", "-a", "-m", "v1", "v1")
	second := r.CommitFiles("second", map[string][]byte{"dir/a.txt": nil, "b.txt": []byte("b\n"), "absent": nil})
	if got := r.Git("rev-parse", "--abbrev-ref", "HEAD"); got != "main" {
		t.Errorf("branch %q, want main", got)
	}
	if got := r.Git("log", "-1", "--format=%an <%ae>"); got != "Test <test@example.com>" {
		t.Errorf("author %q", got)
	}
	if got := r.Git("ls-files"); got != "b.txt" {
		t.Errorf("tracked after CommitFiles: %q", got)
	}
	if got := r.Git("rev-parse", "v1^{commit}"); got != first {
		t.Errorf("v1 = %s, want %s", got, first)
	}

	parent := t.TempDir()
	gittest.Run(t, parent, "clone", "-q", "file://"+r.Dir, "clone")
	clone := gittest.Open(t, filepath.Join(parent, "clone"))
	if got := clone.Git("rev-parse", "HEAD"); got != second {
		t.Errorf("clone HEAD = %s, want %s", got, second)
	}
	if _, err := os.Stat(filepath.Join(home, "elsewhere.git")); err == nil {
		t.Error("the inherited GIT_DIR was used")
	}
}
