// Package gitrepo answers the questions mcp-surface asks a git repository to
// find its baseline, by running the git command line: read a file as it was
// at a commit without checking anything out (ReadFile), resolve revisions
// (ResolveCommit, MergeBase), fetch a missing base commit into a shallow
// clone (Fetch), build the base in a temporary detached worktree that is
// always removed (Worktree), list tracked files (TrackedFiles), and list the
// lines a pull request adds or modifies (ChangedLines), which keeps review
// comments inside the diff.
//
// Every call takes a context that bounds the git process, and every failure
// of git carries its command line and standard error (*Error). What callers
// branch on has a type: a path missing at a revision is a *NotFoundError
// (errors.Is(err, fs.ErrNotExist)), a revision that does not name a commit
// is an *UnknownRevisionError (errors.Is(err, ErrUnknownRevision)).
//
// The git CLI rather than a Go implementation: it is what the checkout
// action leaves behind (shallow clones, partial clones, alternates,
// SHA-256 object formats, worktrees), and it is on every runner.
// Revisions given to this package must not start with '-', so that a value
// from an event payload or an input is never read as an option.
package gitrepo
