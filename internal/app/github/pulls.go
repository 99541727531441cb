package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// ErrNoPullRequest is returned when no open pull request has the commit as
// its head.
var ErrNoPullRequest = errors.New("no open pull request has this head commit")

// ErrAmbiguousPullRequest is returned when several open pull requests have
// the commit as their head and nothing tells them apart.
var ErrAmbiguousPullRequest = errors.New("several open pull requests have this head commit")

// maxOpenPullPages bounds the scan of open pull requests (100 a page).
const maxOpenPullPages = 10

// PullRequest is what publishing needs to know about a pull request, as
// the API reports it now.
type PullRequest struct {
	Number   int
	State    string // open, closed
	HeadSHA  string
	HeadRef  string
	HeadRepo string // "owner/name"; "" when the fork was deleted
	BaseSHA  string
	BaseRef  string
	BaseRepo string // "owner/name"
	URL      string // html URL
	// Fork is true when the head lives in another repository than the base.
	Fork bool
}

func fromGH(p *gh.PullRequest) *PullRequest {
	out := &PullRequest{
		Number:   p.GetNumber(),
		State:    p.GetState(),
		HeadSHA:  p.GetHead().GetSHA(),
		HeadRef:  p.GetHead().GetRef(),
		HeadRepo: p.GetHead().GetRepo().GetFullName(),
		BaseSHA:  p.GetBase().GetSHA(),
		BaseRef:  p.GetBase().GetRef(),
		BaseRepo: p.GetBase().GetRepo().GetFullName(),
		URL:      p.GetHTMLURL(),
	}
	out.Fork = out.HeadRepo == "" || !strings.EqualFold(out.HeadRepo, out.BaseRepo)
	return out
}

// GetPullRequest reads the pull request's current state.
func (c *Client) GetPullRequest(ctx context.Context, owner, repo string, number int) (*PullRequest, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, err
	}
	if number <= 0 {
		return nil, fmt.Errorf("pull request number %d: must be positive", number)
	}
	p, _, err := c.gh.PullRequests.Get(ctx, owner, repo, number)
	if err != nil {
		return nil, c.classify(OpGetPullRequest, err)
	}
	return fromGH(p), nil
}

// PullRequestQuery describes the pull request a workflow_run ran for.
type PullRequestQuery struct {
	HeadSHA string // required: workflow_run.head_sha
	// HeadRepo ("owner/name", workflow_run.head_repository.full_name) and
	// HeadBranch (workflow_run.head_branch), when set, must match too; they
	// tell apart several PRs with the same head commit.
	HeadRepo   string
	HeadBranch string
}

// FindPullRequestForSHA finds the open pull request of owner/repo whose
// head is headSHA: what a workflow_run from a fork must do, since its
// payload lists no pull requests. See FindPullRequest.
func (c *Client) FindPullRequestForSHA(ctx context.Context, owner, repo, headSHA string) (*PullRequest, error) {
	return c.FindPullRequest(ctx, owner, repo, PullRequestQuery{HeadSHA: headSHA})
}

// FindPullRequest finds the one open pull request of owner/repo matching
// q: first among the pull requests GitHub associates with the commit, then
// among the open pull requests (the association is often missing for
// commits in forks). The match is re-read and its head verified to still
// be q.HeadSHA. No match is ErrNoPullRequest, several are
// ErrAmbiguousPullRequest.
func (c *Client) FindPullRequest(ctx context.Context, owner, repo string, q PullRequestQuery) (*PullRequest, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, err
	}
	if !isCommitID(q.HeadSHA) {
		return nil, fmt.Errorf("find the pull request: head commit %q is not a full commit id", q.HeadSHA)
	}
	match := func(p *gh.PullRequest) bool {
		if p == nil || p.GetState() != "open" || p.GetHead().GetSHA() != q.HeadSHA {
			return false
		}
		if q.HeadRepo != "" && !strings.EqualFold(p.GetHead().GetRepo().GetFullName(), q.HeadRepo) {
			return false
		}
		return q.HeadBranch == "" || p.GetHead().GetRef() == q.HeadBranch
	}
	found := map[int]bool{}

	assoc, _, err := c.gh.PullRequests.ListPullRequestsWithCommit(ctx, owner, repo, q.HeadSHA, &gh.ListOptions{PerPage: 100})
	if err != nil {
		// 404 and 422 mean GitHub does not know the commit in this
		// repository (a fork's commit): fall back to the open PRs.
		var er *gh.ErrorResponse
		if !errors.As(err, &er) || (statusOf(er.Response) != http.StatusNotFound && statusOf(er.Response) != http.StatusUnprocessableEntity) {
			return nil, c.classify(OpFindPullRequest, err)
		}
	}
	for _, p := range assoc {
		if match(p) {
			found[p.GetNumber()] = true
		}
	}
	if len(found) == 0 {
		opts := &gh.PullRequestListOptions{State: "open", Sort: "updated", Direction: "desc", ListOptions: gh.ListOptions{PerPage: 100}}
		for page := 0; page < maxOpenPullPages; page++ {
			list, resp, err := c.gh.PullRequests.List(ctx, owner, repo, opts)
			if err != nil {
				return nil, c.classify(OpFindPullRequest, err)
			}
			for _, p := range list {
				if match(p) {
					found[p.GetNumber()] = true
				}
			}
			if resp == nil || resp.NextPage == 0 {
				break
			}
			opts.Page = resp.NextPage
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("find the pull request for %s in %s/%s: %w", q.HeadSHA, owner, repo, ErrNoPullRequest)
	case 1:
	default:
		var nums []string
		for n := range found {
			nums = append(nums, fmt.Sprintf("#%d", n))
		}
		sort.Strings(nums)
		return nil, fmt.Errorf("find the pull request for %s in %s/%s: %w: %s", q.HeadSHA, owner, repo, ErrAmbiguousPullRequest, strings.Join(nums, ", "))
	}
	var number int
	for n := range found {
		number = n
	}
	pr, err := c.GetPullRequest(ctx, owner, repo, number)
	if err != nil {
		return nil, err
	}
	if pr.State != "open" {
		return nil, fmt.Errorf("find the pull request for %s in %s/%s: #%d is %s: %w", q.HeadSHA, owner, repo, number, pr.State, ErrNoPullRequest)
	}
	if pr.HeadSHA != q.HeadSHA {
		return nil, fmt.Errorf("find the pull request for %s in %s/%s: #%d has moved on to %s: %w", q.HeadSHA, owner, repo, number, pr.HeadSHA, ErrNoPullRequest)
	}
	return pr, nil
}
