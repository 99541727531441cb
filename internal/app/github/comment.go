package github

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	gh "github.com/google/go-github/v66/github"
)

// DefaultCommentAuthor is the login of the workflow's GITHUB_TOKEN. A
// GitHub App token comments as "<app-slug>[bot]", a personal token as its
// user: configure the author for those.
const DefaultCommentAuthor = "github-actions[bot]"

// MaxCommentBytes is GitHub's limit on a comment body (65,536 characters;
// counted here in bytes, which is never fewer).
const MaxCommentBytes = 65536

// commentTruncatedNote ends a comment cut to fit MaxCommentBytes.
const commentTruncatedNote = "\n\n---\n*This comment was cut to fit GitHub's size limit. The full report is in the job summary.*\n"

// Comment is an issue comment on a pull request.
type Comment struct {
	ID        int64
	Author    string
	Body      string
	URL       string
	CreatedAt time.Time
}

// StickyMarker returns the hidden marker for the sticky comment of key
// ("" for a repository with one server; the server's name in a matrix, so
// each keeps its own comment). Characters other than letters, digits, '.',
// '_' and '-' in key are replaced, so the marker stays a valid, hidden
// HTML comment.
func StickyMarker(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	if b.Len() == 0 {
		return "<!-- mcp-surface:comment -->"
	}
	return "<!-- mcp-surface:comment:" + b.String() + " -->"
}

func checkMarker(marker string) error {
	if !strings.HasPrefix(marker, "<!--") || !strings.HasSuffix(marker, "-->") || len(marker) < 8 ||
		strings.Contains(marker[4:len(marker)-3], "--") || strings.ContainsAny(marker, "\r\n") {
		return fmt.Errorf("marker %q is not a one-line HTML comment (use StickyMarker)", marker)
	}
	return nil
}

// FindStickyComment returns the pull request's sticky comment for marker:
// of the comments written by author (DefaultCommentAuthor when ""), the
// oldest whose first line is marker; nil when there is none. It pages
// through every comment.
//
// A marker anywhere else in a body does not count: our comments quote the
// server's text, and a server of a matrix whose description carries
// another server's marker must not make that server's job edit its
// comment. The oldest wins so that a later duplicate (two jobs that raced
// to create the comment) never takes the place of the one readers know.
func (c *Client) FindStickyComment(ctx context.Context, owner, repo string, pr int, marker, author string) (*Comment, error) {
	if err := checkCommentArgs(owner, repo, pr, marker); err != nil {
		return nil, err
	}
	if author == "" {
		author = DefaultCommentAuthor
	}
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	best, err := firstListed(c, OpComment, "find the pull request comment", "comments", &opts.ListOptions,
		func() ([]*gh.IssueComment, *gh.Response, error) {
			return c.gh.Issues.ListComments(ctx, owner, repo, pr, opts)
		},
		func(ic *gh.IssueComment) bool {
			return strings.EqualFold(ic.GetUser().GetLogin(), author) && hasMarkerLine(ic.GetBody(), marker)
		},
		older)
	if err != nil || best == nil {
		return nil, err
	}
	return &Comment{
		ID:        best.GetID(),
		Author:    best.GetUser().GetLogin(),
		Body:      best.GetBody(),
		URL:       best.GetHTMLURL(),
		CreatedAt: best.GetCreatedAt().Time,
	}, nil
}

// hasMarkerLine reports whether body's first line is marker (a body edited
// in GitHub's editor may end its lines with \r\n).
func hasMarkerLine(body, marker string) bool {
	first, _, _ := strings.Cut(body, "\n")
	return strings.TrimSpace(first) == marker
}

// older orders comments by creation time, then id.
func older(a, b *gh.IssueComment) bool {
	ta, tb := a.GetCreatedAt().Time, b.GetCreatedAt().Time
	if !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.GetID() < b.GetID()
}

// firstListed pages through a listing, at most maxPages pages, and returns
// of the items keep accepts the one that comes first by before (nil when
// none does). list fetches the page that lo names; op classifies its
// errors, and what and items name the search and its items in the error
// for a listing longer than maxPages.
func firstListed[T any](c *Client, op, what, items string, lo *gh.ListOptions, list func() ([]*T, *gh.Response, error), keep func(*T) bool, before func(a, b *T) bool) (*T, error) {
	var best *T
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("%s: more than %d pages of %s", what, maxPages, items)
		}
		got, resp, err := list()
		if err != nil {
			return nil, c.classify(op, err)
		}
		for _, it := range got {
			if it != nil && keep(it) && (best == nil || before(it, best)) {
				best = it
			}
		}
		if resp == nil || resp.NextPage == 0 {
			return best, nil
		}
		lo.Page = resp.NextPage
	}
}

func checkCommentArgs(owner, repo string, pr int, marker string) error {
	if err := checkRepo(owner, repo); err != nil {
		return err
	}
	if pr <= 0 {
		// Issue number 0 would list every comment in the repository.
		return fmt.Errorf("pull request number %d: must be positive", pr)
	}
	return checkMarker(marker)
}

// UpsertStickyComment makes body the pull request's one mcp-surface
// comment: the comment FindStickyComment finds (the oldest by author whose
// first line is marker) is edited in place, later duplicates are left
// alone; when there is none, a comment is created. It never posts a second
// comment. body gets marker as its first line when it lacks it and is cut
// to MaxCommentBytes with a note. An unchanged body is not sent again.
func (c *Client) UpsertStickyComment(ctx context.Context, owner, repo string, pr int, marker, body, author string) (created bool, err error) {
	if err := checkCommentArgs(owner, repo, pr, marker); err != nil {
		return false, err
	}
	body = fitComment(body, marker)
	existing, err := c.FindStickyComment(ctx, owner, repo, pr, marker, author)
	if err != nil {
		return false, err
	}
	if existing != nil {
		if existing.Body == body {
			return false, nil
		}
		_, _, err := c.gh.Issues.EditComment(ctx, owner, repo, existing.ID, &gh.IssueComment{Body: gh.String(body)})
		return false, c.classify(OpComment, err)
	}
	_, _, err = c.gh.Issues.CreateComment(ctx, owner, repo, pr, &gh.IssueComment{Body: gh.String(body)})
	if err != nil {
		return false, c.classify(OpComment, err)
	}
	return true, nil
}

// fitComment ensures body starts with the line marker and fits
// MaxCommentBytes.
func fitComment(body, marker string) string {
	if !hasMarkerLine(body, marker) {
		body = marker + "\n" + body
	}
	if len(body) <= MaxCommentBytes {
		return body
	}
	return truncateBody(body, marker, MaxCommentBytes, commentTruncatedNote)
}

// truncateBody cuts body (whose first line is marker) to at most limit
// bytes including note, at a UTF-8 boundary, preferring a line break,
// closing an open code fence and keeping the marker line.
func truncateBody(body, marker string, limit int, note string) string {
	const fenceCloser = "\n```\n"
	budget := limit - len(note) - len(fenceCloser)
	n := min(budget, len(body))
	for n > 0 && n < len(body) && !utf8.RuneStart(body[n]) {
		n--
	}
	kept := body[:n]
	if i := strings.LastIndexByte(kept, '\n'); i >= len(marker) && len(kept)-i < 2048 {
		kept = kept[:i+1]
	}
	if strings.Count(kept, "```")%2 == 1 {
		kept += fenceCloser
	}
	return kept + note
}
