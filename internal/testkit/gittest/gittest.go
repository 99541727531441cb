// Package gittest makes real, temporary git repositories for tests: a
// repository on branch main, files written into its work tree, and commits
// whose ids the test can use as refs. Every test that builds a repository
// or runs git to set one up (a clone, a checkout, a tag) does it here, so
// that all of them run git the same way.
//
// Every git command runs isolated from the machine it runs on: no system
// or global configuration (so no user's hooks, templates, aliases or
// signing), no GIT_ variable inherited from the environment (a test run
// from a git hook inherits GIT_DIR and GIT_INDEX_FILE, which would point
// git at the outer repository), no prompt for credentials, and a fixed
// identity. Only the commands run through this package are isolated, not
// the git that the code under test runs.
package gittest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// config is given on the command line of every git command.
var config = []string{
	"user.name=Test",
	"user.email=test@example.com",
	"commit.gpgsign=false",
	"tag.gpgsign=false",
	"core.hooksPath=" + os.DevNull,
	"init.defaultBranch=main",
	// Tests clone one temporary repository into another over file://.
	"protocol.file.allow=always",
}

// environ is the environment git runs in: this process's without any GIT_
// variable, plus no system or global configuration and no prompt.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0")
}

// needGit skips the test when git is not installed.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// Run runs git, isolated, in dir (which need not be a repository: a clone
// runs in the directory that will hold it) and returns its trimmed
// standard output. A failure fails the test with git's output; a test
// skips when git is not installed.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	needGit(t)
	full := make([]string, 0, 2*len(config)+len(args))
	for _, c := range config {
		full = append(full, "-c", c)
	}
	cmd := exec.Command("git", append(full, args...)...)
	cmd.Dir = dir
	cmd.Env = environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return strings.TrimSpace(stdout.String())
}

// Repo is a git repository whose work tree the test owns.
type Repo struct {
	t testing.TB
	// Dir is the repository's work tree.
	Dir string
}

// New initializes a repository on branch main in a new temporary
// directory; it skips the test when git is not installed.
func New(t testing.TB) *Repo {
	t.Helper()
	needGit(t)
	return Init(t, t.TempDir())
}

// Init initializes a repository on branch main in dir, creating dir if it
// does not exist; files already in dir stay untracked.
func Init(t testing.TB, dir string) *Repo {
	t.Helper()
	needGit(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := Open(t, dir)
	r.Git("init", "-q", "-b", "main")
	return r
}

// Open is the repository whose work tree is dir, one the test has already
// initialized or cloned.
func Open(t testing.TB, dir string) *Repo {
	return &Repo{t: t, Dir: dir}
}

// Git runs git in the repository as Run does.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	return Run(r.t, r.Dir, args...)
}

// Write writes a file of the work tree, creating its directory; name is
// slash-separated and relative to Dir.
func (r *Repo) Write(name string, data []byte) {
	r.t.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
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

// CommitFiles writes files (a nil content removes the file, if it is
// there), commits everything in the work tree and returns the commit id.
func (r *Repo) CommitFiles(msg string, files map[string][]byte) string {
	r.t.Helper()
	for name, data := range files {
		if data != nil {
			r.Write(name, data)
			continue
		}
		if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.t.Fatal(err)
		}
	}
	return r.Commit(msg)
}
