package github

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"text/template"
	"unicode/utf8"

	gh "github.com/google/go-github/v66/github"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
)

// DefaultMaxReviewComments is the cap on comments in one review when
// ReviewOptions.Max is not set.
const DefaultMaxReviewComments = 10

// ReviewMarker opens the body of every review mcp-surface creates.
const ReviewMarker = "<!-- mcp-surface:review -->"

//go:embed templates/review.md.tmpl
var reviewTemplateText string

// reviewTemplate is parsed at first use, not at start-up (see internal/base/lazyre).
var reviewTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("review").Parse(reviewTemplateText))
})

// ReviewComment is one comment on a line of the pull request's head.
type ReviewComment struct {
	// Path is the file, relative to the repository root, slash-separated,
	// as the head commit names it.
	Path string `json:"path"`
	// Line is the line in the head version of Path.
	Line int `json:"line"`
	// StartLine, when set and below Line, makes a comment on the range
	// StartLine..Line; it is dropped (keeping Line) unless the whole range
	// is inside the diff.
	StartLine int `json:"start_line,omitempty"`
	// Body is markdown; untrusted text in it must already be escaped.
	Body string `json:"body"`
	// Key identifies the finding (its fingerprint). A comment whose key is
	// already on the same line from an earlier review is not posted again.
	Key string `json:"key,omitempty"`
}

// LineSet tells which lines of the head are inside the pull request's
// diff: *gitrepo.Lines from gitrepo.ChangedLines satisfies it.
type LineSet interface {
	Contains(path string, line int) bool
}

// AnyLine is a LineSet that contains every line. Use it only for comments
// already limited to the diff elsewhere (a bundle's review comments, which
// the analyzing job filtered with its checkout); one comment outside the
// diff makes GitHub reject the whole review.
type AnyLine struct{}

// Contains reports true.
func (AnyLine) Contains(string, int) bool { return true }

// ReviewOptions configures CreateReview.
type ReviewOptions struct {
	// Allowed is the set of head lines inside the PR's diff; required.
	// GitHub rejects a whole review for one comment outside the diff.
	Allowed LineSet
	// Max caps the comments posted; <= 0 means DefaultMaxReviewComments.
	Max int
	// Author is the login earlier reviews were posted as, for not
	// repeating comments; "" means DefaultCommentAuthor.
	Author string
}

// ReviewResult says what CreateReview did with each comment.
type ReviewResult struct {
	ReviewID      int64 // 0 when no review was created (nothing to post)
	Posted        int   // comments in the review
	OutsideDiff   int   // dropped: line not in Allowed
	OverCap       int   // dropped: beyond Max
	AlreadyPosted int   // dropped: same key on the same line in an earlier review
	Invalid       int   // dropped: no path, no line or no body
}

// Dropped is the number of comments not posted.
func (r *ReviewResult) Dropped() int {
	return r.OutsideDiff + r.OverCap + r.AlreadyPosted + r.Invalid
}

// keyMarkerRE is the key marker commentBody ends a comment with. It counts
// only as the body's last line (keyOf): the text above quotes the server.
var keyMarkerRE = lazyre.New(`^<!-- mcp-surface:review-comment:([A-Za-z0-9._-]{1,128}) -->$`)

// keyOf is the key of a review comment we posted, "" when its last line is
// no key marker.
func keyOf(body string) string {
	body = strings.TrimRight(body, " \t\r\n")
	m := keyMarkerRE().FindStringSubmatch(strings.TrimSpace(body[strings.LastIndexByte(body, '\n')+1:]))
	if m == nil {
		return ""
	}
	return m[1]
}

func keyMarker(key string) string {
	return "<!-- mcp-surface:review-comment:" + key + " -->"
}

// CreateReview posts comments as one review (event COMMENT) on headSHA of
// the pull request. Comments outside o.Allowed, without a path, line or
// body, or already posted with the same key on the same line are dropped
// before anything is sent; of the rest, the first o.Max in the given order
// are posted (put the most important first). The review's body says how
// many were dropped and why. When nothing is left to post, no request is
// made and the result's ReviewID is 0.
func (c *Client) CreateReview(ctx context.Context, owner, repo string, pr int, headSHA string, comments []ReviewComment, o ReviewOptions) (*ReviewResult, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, err
	}
	if pr <= 0 {
		return nil, fmt.Errorf("pull request number %d: must be positive", pr)
	}
	if !isCommitID(headSHA) {
		return nil, fmt.Errorf("head commit %q is not a full commit id", headSHA)
	}
	if o.Allowed == nil {
		return nil, fmt.Errorf("review comments need the pull request's diff lines (ReviewOptions.Allowed)")
	}
	max := o.Max
	if max <= 0 {
		max = DefaultMaxReviewComments
	}
	author := o.Author
	if author == "" {
		author = DefaultCommentAuthor
	}

	res := &ReviewResult{}
	var kept []ReviewComment
	seen := map[string]bool{}
	for _, rc := range comments {
		rc.Key = sanitizeKey(rc.Key)
		if !validCommentPath(rc.Path) || rc.Line <= 0 || strings.TrimSpace(rc.Body) == "" {
			res.Invalid++
			continue
		}
		if !o.Allowed.Contains(rc.Path, rc.Line) {
			res.OutsideDiff++
			continue
		}
		if rc.StartLine > 0 && !rangeAllowed(o.Allowed, rc.Path, rc.StartLine, rc.Line) {
			rc.StartLine = 0
		}
		if rc.Key != "" {
			id := postedID(rc.Key, rc.Path, rc.Line)
			if seen[id] {
				res.AlreadyPosted++
				continue
			}
			seen[id] = true
		}
		kept = append(kept, rc)
	}

	if anyKey(kept) {
		posted, err := c.postedReviewComments(ctx, owner, repo, pr, author)
		if err != nil {
			return nil, err
		}
		k := kept[:0]
		for _, rc := range kept {
			if rc.Key != "" && posted[postedID(rc.Key, rc.Path, rc.Line)] {
				res.AlreadyPosted++
				continue
			}
			k = append(k, rc)
		}
		kept = k
	}
	if len(kept) > max {
		res.OverCap = len(kept) - max
		kept = kept[:max]
	}
	res.Posted = len(kept)
	if len(kept) == 0 {
		return res, nil
	}

	body, err := reviewBody(res, max)
	if err != nil {
		return nil, err
	}
	req := &gh.PullRequestReviewRequest{
		CommitID: gh.String(headSHA),
		Body:     gh.String(body),
		Event:    gh.String("COMMENT"),
	}
	for _, rc := range kept {
		dc := &gh.DraftReviewComment{
			Path: gh.String(rc.Path),
			Line: gh.Int(rc.Line),
			Side: gh.String("RIGHT"),
			Body: gh.String(commentBody(rc)),
		}
		if rc.StartLine > 0 {
			dc.StartLine = gh.Int(rc.StartLine)
			dc.StartSide = gh.String("RIGHT")
		}
		req.Comments = append(req.Comments, dc)
	}
	review, _, err := c.gh.PullRequests.CreateReview(ctx, owner, repo, pr, req)
	if err != nil {
		return nil, c.classify(OpReview, err)
	}
	res.ReviewID = review.GetID()
	return res, nil
}

func reviewBody(res *ReviewResult, max int) (string, error) {
	var b bytes.Buffer
	err := reviewTemplate().Execute(&b, struct {
		*ReviewResult
		Marker string
		Max    int
	}{res, ReviewMarker, max})
	if err != nil {
		return "", fmt.Errorf("review body: %w", err)
	}
	return b.String(), nil
}

// commentBody bounds the body and appends the key's hidden marker.
func commentBody(rc ReviewComment) string {
	suffix := ""
	if rc.Key != "" {
		suffix = "\n\n" + keyMarker(rc.Key)
	}
	body := rc.Body
	if len(body)+len(suffix) > MaxCommentBytes {
		n := MaxCommentBytes - len(suffix) - len("…")
		for n > 0 && !utf8.RuneStart(body[n]) {
			n--
		}
		body = body[:n] + "…"
	}
	return body + suffix
}

func postedID(key, path string, line int) string {
	return fmt.Sprintf("%s\x00%s\x00%d", key, path, line)
}

func anyKey(cs []ReviewComment) bool {
	for _, c := range cs {
		if c.Key != "" {
			return true
		}
	}
	return false
}

// postedReviewComments returns the key/path/line of author's earlier
// review comments that are still on a line of the current diff.
func (c *Client) postedReviewComments(ctx context.Context, owner, repo string, pr int, author string) (map[string]bool, error) {
	posted := map[string]bool{}
	opts := &gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for page := 0; page < maxPages; page++ {
		list, resp, err := c.gh.PullRequests.ListComments(ctx, owner, repo, pr, opts)
		if err != nil {
			return nil, c.classify(OpReview, err)
		}
		for _, prc := range list {
			if prc == nil || !strings.EqualFold(prc.GetUser().GetLogin(), author) || prc.Line == nil {
				continue // not ours, or outdated (no line in the current diff)
			}
			if key := keyOf(prc.GetBody()); key != "" {
				posted[postedID(key, prc.GetPath(), prc.GetLine())] = true
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return posted, nil
		}
		opts.Page = resp.NextPage
	}
	return posted, nil
}

func rangeAllowed(s LineSet, path string, from, to int) bool {
	if from >= to || to-from > 1000 {
		return false
	}
	for l := from; l <= to; l++ {
		if !s.Contains(path, l) {
			return false
		}
	}
	return true
}

// validCommentPath accepts a clean, relative, slash-separated path.
func validCommentPath(p string) bool {
	if p == "" || len(p) > 4096 || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00\r\n\\") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// sanitizeKey keeps a key usable inside a hidden marker: letters, digits,
// '.', '_' and '-', at most 128 bytes; anything else yields "".
func sanitizeKey(k string) string {
	if len(k) > 128 {
		return ""
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return ""
		}
	}
	return k
}
