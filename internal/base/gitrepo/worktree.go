package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// cleanupTimeout bounds the git calls of a worktree's cleanup, which runs
// on a context detached from the caller's (often already cancelled).
const cleanupTimeout = 2 * time.Minute

// Worktree checks rev out, detached, into a new temporary directory linked
// to the repository at repoDir, and returns that directory (the root of the
// checkout; join Prefix to reach the subdirectory repoDir corresponds to)
// and a cleanup that removes it: the worktree, its directory and git's
// record of it. Submodules are not checked out, and the repository's hooks
// do not run.
//
// cleanup is never nil, runs once (later calls return the first call's
// result) and works after ctx is cancelled; defer it right away. When err
// is not nil, whatever was created is already removed.
func Worktree(ctx context.Context, repoDir, rev string) (dir string, cleanup func() error, err error) {
	noop := func() error { return nil }
	commit, err := ResolveCommit(ctx, repoDir, rev)
	if err != nil {
		return "", noop, err
	}
	parent, err := os.MkdirTemp("", "mcp-surface-worktree-")
	if err != nil {
		return "", noop, fmt.Errorf("worktree for %s: %w", rev, err)
	}
	dir = filepath.Join(parent, "src")

	var once sync.Once
	var cleanupErr error
	cleanup = func() error {
		once.Do(func() {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
			defer cancel()
			var errs []error
			if _, statErr := os.Stat(dir); statErr == nil {
				// Twice --force: also removes a worktree left locked.
				if _, err := run(cctx, repoDir, "worktree", "remove", "--force", "--force", dir); err != nil {
					errs = append(errs, err)
				}
			}
			if err := os.RemoveAll(parent); err != nil {
				errs = append(errs, err)
			}
			// Drops git's record of the worktree even when remove failed.
			if _, err := run(cctx, repoDir, "worktree", "prune"); err != nil {
				errs = append(errs, err)
			}
			if err := errors.Join(errs...); err != nil {
				cleanupErr = fmt.Errorf("remove worktree %s: %w", dir, err)
			}
		})
		return cleanupErr
	}

	_, err = run(ctx, repoDir, "-c", "core.hooksPath="+os.DevNull,
		"worktree", "add", "--detach", "--quiet", dir, commit)
	if err != nil {
		if cerr := cleanup(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return "", cleanup, fmt.Errorf("worktree for %s: %w", rev, err)
	}
	return dir, cleanup, nil
}
