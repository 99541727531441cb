package github

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// unshallowDepth is the depth git uses for --unshallow.
const unshallowDepth = 0x7fffffff

// DiffReviewComments are the review comments on changed lines of a pull
// request that define a subject with findings: the report's source
// locations inside the diff between base and head in the work tree repo,
// worst first, at most one comment per line, and the diff's lines. Lines
// are numbered in the work tree; a file whose content differs at the head
// commit (a merge checkout whose base changed it too) is left out. A
// shallow checkout is fetched with its whole history first. logf gets the
// progress lines; the error says git could not compute the diff.
func DiffReviewComments(ctx context.Context, repo, baseSHA, headSHA string, r *report.Report, logf func(format string, args ...any)) ([]ReviewComment, LineSet, error) {
	head := headSHA
	if _, err := gitrepo.ResolveCommit(ctx, repo, head); err != nil {
		head = "HEAD"
	}
	lines, err := gitrepo.ChangedLines(ctx, repo, baseSHA, head)
	if shallow, _ := gitrepo.IsShallow(ctx, repo); err != nil && shallow {
		// A shallow checkout: fetch both sides with their whole history
		// (git's own "infinite" depth, what --unshallow asks for).
		logf("fetching the history of the pull request for its diff")
		if ferr := gitrepo.Fetch(ctx, repo, "origin", unshallowDepth, baseSHA, headSHA); ferr == nil {
			head = headSHA
			lines, err = gitrepo.ChangedLines(ctx, repo, baseSHA, head)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	same := map[string]bool{}
	sameAtHead := func(path string) bool {
		if v, ok := same[path]; ok {
			return v
		}
		work, err1 := os.ReadFile(filepath.Join(repo, filepath.FromSlash(path)))
		at, err2 := gitrepo.ReadFile(ctx, repo, headSHA, path)
		same[path] = err1 == nil && err2 == nil && bytes.Equal(work, at)
		return same[path]
	}
	var outside []string // path:line of subjects defined outside the diff
	seen := map[string]bool{}
	comments := report.ReviewComments(r, func(path string, line int) bool {
		ok := lines.Contains(path, line) && sameAtHead(path)
		if at := fmt.Sprintf("%s:%d", path, line); !ok && !seen[at] {
			seen[at] = true
			outside = append(outside, at)
		}
		return ok
	}, MaxBundleReviewComments)
	if len(outside) > 0 {
		// Without this line the missing review comments look like a bug.
		const show = 10
		list := strings.Join(outside[:min(show, len(outside))], ", ")
		if len(outside) > show {
			list += fmt.Sprintf(" and %d more", len(outside)-show)
		}
		logf("review comments: %d line(s) that define a subject with findings are outside the pull request's diff, so GitHub takes no review comment there (they are in the comment and the annotations): %s",
			len(outside), report.LogLine(list, report.MaxText))
	}
	return ReviewCommentsOf(comments), lines, nil
}
