package github

import (
	"context"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// Issue is an issue of the repository that a run files and keeps up to
// date (the lock's drift issue).
type Issue struct {
	Number int
	Author string
	Title  string
	Body   string
	URL    string
	Open   bool
}

// IssueMarker is the hidden first line of the issue a run keeps for key
// (the lock file), like StickyMarker for comments.
func IssueMarker(key string) string {
	return strings.Replace(StickyMarker(key), "mcp-surface:comment", "mcp-surface:issue", 1)
}

// FindIssue returns the open issue whose body's first line is marker and
// whose author is author (DefaultCommentAuthor when ""): nil when there is
// none. Another author's issue never counts, whatever its body says: a
// user who pastes our marker into an issue does not make the run edit or
// close it. The lowest number wins, as the oldest comment does for
// FindStickyComment. Pull requests, which the API lists as issues, are
// passed over.
func (c *Client) FindIssue(ctx context.Context, owner, repo, marker, author string) (*Issue, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, err
	}
	if err := checkMarker(marker); err != nil {
		return nil, err
	}
	if author == "" {
		author = DefaultCommentAuthor
	}
	opts := &gh.IssueListByRepoOptions{State: "open", Creator: author, ListOptions: gh.ListOptions{PerPage: 100}}
	best, err := firstListed(c, OpIssue, "find the drift issue", "issues", &opts.ListOptions,
		func() ([]*gh.Issue, *gh.Response, error) {
			return c.gh.Issues.ListByRepo(ctx, owner, repo, opts)
		},
		func(is *gh.Issue) bool {
			return !is.IsPullRequest() && strings.EqualFold(is.GetUser().GetLogin(), author) && hasMarkerLine(is.GetBody(), marker)
		},
		func(a, b *gh.Issue) bool { return a.GetNumber() < b.GetNumber() })
	if err != nil || best == nil {
		return nil, err
	}
	return &Issue{Number: best.GetNumber(), Author: best.GetUser().GetLogin(), Title: best.GetTitle(), Body: best.GetBody(),
		URL: best.GetHTMLURL(), Open: best.GetState() == "open"}, nil
}

// UpsertIssue files the issue for marker, or updates the open one it
// filed before (FindIssue): body gets marker as its first line and is cut
// to GitHub's size limit. It returns the issue and whether it was created.
func (c *Client) UpsertIssue(ctx context.Context, owner, repo, marker, title, body, author string) (*Issue, bool, error) {
	found, err := c.FindIssue(ctx, owner, repo, marker, author)
	if err != nil {
		return nil, false, err
	}
	full := fitComment(marker+"\n"+body, marker)
	if found != nil {
		if found.Body == full && found.Title == title {
			return found, false, nil
		}
		is, _, err := c.gh.Issues.Edit(ctx, owner, repo, found.Number, &gh.IssueRequest{Title: &title, Body: &full})
		if err != nil {
			return nil, false, c.classify(OpIssue, err)
		}
		found.Title, found.Body, found.URL = is.GetTitle(), is.GetBody(), is.GetHTMLURL()
		return found, false, nil
	}
	is, _, err := c.gh.Issues.Create(ctx, owner, repo, &gh.IssueRequest{Title: &title, Body: &full})
	if err != nil {
		return nil, false, c.classify(OpIssue, err)
	}
	return &Issue{Number: is.GetNumber(), Author: is.GetUser().GetLogin(), Title: is.GetTitle(), Body: is.GetBody(), URL: is.GetHTMLURL(), Open: true}, true, nil
}

// CloseIssue closes the open issue for marker, if the run filed one,
// after a last comment that says why; it returns the issue closed (nil
// when there was none).
func (c *Client) CloseIssue(ctx context.Context, owner, repo, marker, comment, author string) (*Issue, error) {
	found, err := c.FindIssue(ctx, owner, repo, marker, author)
	if err != nil || found == nil {
		return nil, err
	}
	if comment != "" {
		if _, _, err := c.gh.Issues.CreateComment(ctx, owner, repo, found.Number, &gh.IssueComment{Body: &comment}); err != nil {
			return nil, c.classify(OpIssue, err)
		}
	}
	closed, reason := "closed", "completed"
	if _, _, err := c.gh.Issues.Edit(ctx, owner, repo, found.Number, &gh.IssueRequest{State: &closed, StateReason: &reason}); err != nil {
		return nil, c.classify(OpIssue, err)
	}
	found.Open = false
	return found, nil
}
