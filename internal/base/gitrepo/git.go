package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// ErrUnknownRevision is wrapped by *UnknownRevisionError.
var ErrUnknownRevision = errors.New("unknown revision")

// ErrNoMergeBase is returned by MergeBase when the two commits share no
// history (or the shared part is missing from a shallow clone).
var ErrNoMergeBase = errors.New("no merge base")

// Error is a git command that failed.
type Error struct {
	Args     []string // git's arguments, without "git"
	ExitCode int      // -1 when git did not exit on its own (not found, killed, context done)
	Stderr   string   // git's standard error, trimmed and bounded
	Err      error    // from os/exec, or the context's error
}

func (e *Error) Error() string {
	msg := "git " + strings.Join(e.Args, " ")
	if e.Stderr != "" {
		return msg + ": " + e.Stderr
	}
	return msg + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// NotFoundError is a path that does not exist at a revision (the revision
// itself exists).
type NotFoundError struct {
	Rev  string
	Path string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s does not exist at %s", e.Path, e.Rev)
}

// Is makes errors.Is(err, fs.ErrNotExist) true.
func (e *NotFoundError) Is(target error) bool { return target == fs.ErrNotExist }

// UnknownRevisionError is a revision that does not name a commit in the
// repository: mistyped, or missing from a shallow clone (Fetch it).
type UnknownRevisionError struct {
	Rev string
}

func (e *UnknownRevisionError) Error() string {
	return fmt.Sprintf("revision %s is not a commit in this repository (in a shallow clone, fetch it first)", e.Rev)
}

// Is makes errors.Is(err, ErrUnknownRevision) true.
func (e *UnknownRevisionError) Is(target error) bool { return target == ErrUnknownRevision }

// maxStderr bounds the standard error kept in an *Error.
const maxStderr = 8 << 10

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// run runs git in dir and returns its standard output.
func run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: maxStderr}
	cmd.Stdout = &stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	ge := &Error{Args: args, ExitCode: -1, Stderr: strings.TrimSpace(string(stderr.buf)), Err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		ge.ExitCode = ee.ExitCode()
	}
	if ctx.Err() != nil {
		ge.Err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		ge.ExitCode = -1
	}
	return stdout.Bytes(), ge
}

// exitCode returns the exit code of a git failure, or -1.
func exitCode(err error) int {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.ExitCode
	}
	return -1
}

func checkRev(rev string) error {
	if rev == "" {
		return errors.New("empty revision")
	}
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n\r:") {
		return fmt.Errorf("revision %q is not allowed", rev)
	}
	return nil
}

// ResolveCommit returns the full commit id rev names (a branch, tag, sha,
// HEAD~1, ...). A revision that names no commit is an
// *UnknownRevisionError.
func ResolveCommit(ctx context.Context, repoDir, rev string) (string, error) {
	if err := checkRev(rev); err != nil {
		return "", err
	}
	out, err := run(ctx, repoDir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if exitCode(err) == 1 {
			return "", &UnknownRevisionError{Rev: rev}
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBase returns the best common ancestor of a and b (what the
// three-dot diff of a pull request starts from).
func MergeBase(ctx context.Context, repoDir, a, b string) (string, error) {
	ca, err := ResolveCommit(ctx, repoDir, a)
	if err != nil {
		return "", err
	}
	cb, err := ResolveCommit(ctx, repoDir, b)
	if err != nil {
		return "", err
	}
	out, err := run(ctx, repoDir, "merge-base", ca, cb)
	if err != nil {
		if exitCode(err) == 1 {
			return "", fmt.Errorf("merge base of %s and %s: %w", a, b, ErrNoMergeBase)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// TopLevel returns the root of the work tree that contains dir.
func TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// IsShallow reports whether the repository is a shallow clone (what
// actions/checkout makes by default, with only the head commit).
func IsShallow(ctx context.Context, repoDir string) (bool, error) {
	out, err := run(ctx, repoDir, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) == "true", nil
}

// Fetch fetches revs (commit ids or refs) from remote (a remote's name or
// URL), without tags or submodules; depth > 0 limits the history fetched.
// Use it when ResolveCommit reports the PR's base commit missing from a
// shallow clone: Fetch(ctx, dir, "origin", 1, baseSHA).
func Fetch(ctx context.Context, repoDir, remote string, depth int, revs ...string) error {
	if remote == "" || strings.HasPrefix(remote, "-") {
		return fmt.Errorf("remote %q is not allowed", remote)
	}
	if len(revs) == 0 {
		return errors.New("fetch: no revisions")
	}
	args := []string{"fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head"}
	if depth > 0 {
		args = append(args, fmt.Sprintf("--depth=%d", depth))
	}
	args = append(args, "--", remote)
	for _, r := range revs {
		if err := checkRev(r); err != nil {
			return err
		}
		args = append(args, r)
	}
	_, err := run(ctx, repoDir, args...)
	return err
}

// TrackedFiles lists the files git tracks under dir, as paths relative to
// the repository root, slash-separated, in git's order.
func TrackedFiles(ctx context.Context, dir string) ([]string, error) {
	out, err := run(ctx, dir, "ls-files", "-z", "--full-name", "--cached")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	return files, nil
}

// ReadFile returns the content of path as it is at rev, without touching
// the work tree. path is relative to repoDir (which may be a subdirectory
// of the work tree), slash- or OS-separated. A path missing at rev is a
// *NotFoundError; a rev that names no commit an *UnknownRevisionError;
// a path naming a directory is an error.
func ReadFile(ctx context.Context, repoDir, rev, path string) ([]byte, error) {
	oid, commit, err := lookup(ctx, repoDir, rev, path)
	if err != nil {
		return nil, err
	}
	typ, err := run(ctx, repoDir, "cat-file", "-t", oid)
	if err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(string(typ)); t != "blob" {
		return nil, fmt.Errorf("%s at %s is a %s, not a file", path, shortRev(rev, commit), t)
	}
	return run(ctx, repoDir, "cat-file", "blob", oid)
}

// FileExists reports whether path exists at rev (as a file or a
// directory); see ReadFile for the arguments.
func FileExists(ctx context.Context, repoDir, rev, path string) (bool, error) {
	_, _, err := lookup(ctx, repoDir, rev, path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// lookup returns the object id of path at rev, and the commit rev names.
func lookup(ctx context.Context, repoDir, rev, path string) (oid, commit string, err error) {
	commit, err = ResolveCommit(ctx, repoDir, rev)
	if err != nil {
		return "", "", err
	}
	p, err := cleanPath(path)
	if err != nil {
		return "", "", err
	}
	// "./" makes git read the path relative to repoDir rather than to the
	// root of the work tree.
	out, err := run(ctx, repoDir, "rev-parse", "--verify", "--quiet", commit+":./"+p)
	if err != nil {
		if exitCode(err) == 1 {
			return "", commit, &NotFoundError{Rev: rev, Path: path}
		}
		return "", commit, err
	}
	return strings.TrimSpace(string(out)), commit, nil
}

func cleanPath(path string) (string, error) {
	p := strings.ReplaceAll(path, string(os.PathSeparator), "/")
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\n") {
		return "", fmt.Errorf("path %q must be relative and non-empty", path)
	}
	return strings.TrimPrefix(p, "./"), nil
}

func shortRev(rev, commit string) string {
	if rev == commit || len(commit) < 12 {
		return rev
	}
	return rev + " (" + commit[:12] + ")"
}
