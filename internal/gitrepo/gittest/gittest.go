// Package gittest makes real, temporary git repositories for tests: a
// repository with an identity and no signing, files written into its work
// tree, and commits whose ids the test can use as refs. The tests of every
// package that reads a baseline from git (pkg/check, internal/cli) share
// it, so that they build repositories the same way.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a git repository in a temporary directory that the test owns.
type Repo struct {
	t testing.TB
	// Dir is the repository's work tree.
	Dir string
}

// New initializes a repository on branch main in a new temporary
// directory; it skips the test when git is not installed.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &Repo{t: t, Dir: t.TempDir()}
	r.Git("init", "-q", "-b", "main")
	r.Git("config", "user.email", "test@example.invalid")
	r.Git("config", "user.name", "test")
	r.Git("config", "commit.gpgsign", "false")
	return r
}

// Git runs git in the repository and returns its trimmed output; a
// failure fails the test with git's output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes a file of the work tree (name is relative to Dir).
func (r *Repo) Write(name string, data []byte) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.Dir, name), data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// Commit commits everything in the work tree and returns the commit id.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
