package gitrepo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// EnsureCommit fetches the commit sha from origin (at depth 1) when the
// checkout in repoDir lacks it; fetching is called before the fetch, with
// the commit, for a progress line.
func EnsureCommit(ctx context.Context, repoDir, sha string, fetching func(sha string)) error {
	if _, err := ResolveCommit(ctx, repoDir, sha); err == nil {
		return nil
	}
	fetching(sha)
	if err := Fetch(ctx, repoDir, "origin", 1, sha); err != nil {
		return fmt.Errorf("not in the checkout and could not be fetched: %w", err)
	}
	_, err := ResolveCommit(ctx, repoDir, sha)
	return err
}

// ResolveBranch is the commit a ref names in repoDir, or failing that the
// commit of origin/ref (a branch the checkout only has as a remote one).
func ResolveBranch(ctx context.Context, repoDir, ref string) (string, bool) {
	for _, rev := range []string{ref, "origin/" + ref} {
		if sha, err := ResolveCommit(ctx, repoDir, rev); err == nil {
			return sha, true
		}
	}
	return "", false
}

// Within locates the directory dir (which must exist) in its repository:
// the repository's top level with symbolic links resolved (dir itself
// when it is in none), dir resolved, and dir relative to the top level in
// slash form ("." for the top level). A dir outside the top level (by a
// symbolic link) is an error.
func Within(ctx context.Context, dir string) (repo, realDir, rel string, err error) {
	repo, err = TopLevel(ctx, dir)
	if err != nil {
		repo = dir
	} else if repo, err = filepath.EvalSymlinks(repo); err != nil {
		return "", "", "", err
	}
	if realDir, err = filepath.EvalSymlinks(dir); err != nil {
		return "", "", "", err
	}
	rel, err = filepath.Rel(repo, realDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", "", fmt.Errorf("working-directory %s is outside the repository %s", dir, repo)
	}
	return repo, realDir, filepath.ToSlash(rel), nil
}

// RelPath makes p, given relative to cwd, relative to the repository at
// repo, in slash form. A path outside the repository is returned as it
// was given; "" stays "".
func RelPath(repo, cwd, p string) string {
	if p == "" {
		return ""
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(cwd, p)
	}
	rel, err := filepath.Rel(repo, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return filepath.ToSlash(rel)
}
