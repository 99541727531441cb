package github

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// CommentMode says when the sticky comment is posted.
type CommentMode string

const (
	// CommentAlways creates or updates the sticky comment on every run.
	CommentAlways CommentMode = "always"
	// CommentOnChange comments only when there is something to say (the
	// check fails, or the surface changed), and updates an existing
	// comment, so that it says when all is well again.
	CommentOnChange CommentMode = "on-change"
	// CommentNever posts no comment.
	CommentNever CommentMode = "never"
)

// PublisherOptions configures a Publisher. The caller reads its values
// from wherever it keeps them (the action's inputs and environment); the
// Publisher reads nothing itself.
type PublisherOptions struct {
	// Client publishes. When it is nil nothing is published, and whenever
	// something was to be, Unavailable is given to Warn: it says why (no
	// token, no repository) and what still happened.
	Client      *Client
	Unavailable error
	// Repository is "owner/name" of the repository published to.
	Repository string
	// Comment says when the sticky comment is posted; "" is
	// CommentOnChange.
	Comment CommentMode
	// CommentAuthor is the login of earlier comments and reviews, for
	// finding them again; "" is DefaultCommentAuthor.
	CommentAuthor string
	// Review posts the review comments of a Publication.
	Review bool
	// MaxReviewComments caps the comments of one review; <= 0 is
	// DefaultMaxReviewComments.
	MaxReviewComments int
	// UploadSARIF uploads a Publication's SARIF to code scanning.
	UploadSARIF bool
	// Logf reports progress; Warn reports a publishing problem, which
	// never changes the verdict. Either may be nil.
	Logf func(format string, args ...any)
	Warn func(msg string)
}

// A Publisher posts one analysis: the sticky comment, the review and the
// SARIF upload, as its options say. Every failure is a warning, never an
// error: publishing must not hide the verdict.
type Publisher struct {
	o PublisherOptions
}

// NewPublisher returns a Publisher with the options o.
func NewPublisher(o PublisherOptions) *Publisher {
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	if o.Comment == "" {
		o.Comment = CommentOnChange
	}
	if o.Client == nil && o.Unavailable == nil {
		o.Unavailable = errors.New("no GitHub client: nothing was published")
	}
	return &Publisher{o: o}
}

// A Publication is one analysis, rendered.
type Publication struct {
	// Report is what was found, and Options what it was rendered with
	// (its FailOn decides whether there is news for CommentOnChange; it
	// and the report give the comment's marker).
	Report  *report.Report
	Options report.Options
	// JSON, Markdown and SARIF are the report in those formats: Markdown
	// is the comment, SARIF the upload, JSON goes into a Bundle.
	JSON, Markdown, SARIF []byte
	// Unchanged is the one-line comment that replaces an earlier comment
	// when CommentOnChange finds nothing to say; nil keeps Markdown.
	Unchanged []byte
	// ReviewComments are the review's comments, and Lines the lines they
	// may be on (the pull request's diff; AnyLine for comments limited to
	// it elsewhere).
	ReviewComments []ReviewComment
	Lines          LineSet
}

// Target says where a Publication goes.
type Target struct {
	// PullRequest is the pull request's number; 0 means not a pull
	// request: no comment and no review.
	PullRequest int
	// HeadSHA is the pull request's head commit, which the review is on.
	HeadSHA string
	// Ref and Commit are what the SARIF is uploaded for.
	Ref, Commit string
}

// Publish posts p to t as the options say.
func (pb *Publisher) Publish(ctx context.Context, p *Publication, t Target) {
	o := pb.o
	needComment := t.PullRequest > 0 && o.Comment != CommentNever
	needReview := t.PullRequest > 0 && o.Review && len(p.ReviewComments) > 0
	needSARIF := o.UploadSARIF
	if !needComment && !needReview && !needSARIF {
		return
	}
	if o.Client == nil {
		o.Warn(o.Unavailable.Error())
		return
	}
	owner, repo, err := splitRepository(o.Repository)
	if err != nil {
		o.Warn(fmt.Sprintf("nothing was published: %v", err))
		return
	}
	if needComment {
		pb.comment(ctx, owner, repo, t.PullRequest, p)
	}
	if needReview {
		res, err := o.Client.CreateReview(ctx, owner, repo, t.PullRequest, t.HeadSHA, p.ReviewComments, ReviewOptions{Allowed: p.Lines, Max: o.MaxReviewComments, Author: o.CommentAuthor})
		if err != nil {
			pb.warn(err)
		} else if res.ReviewID != 0 {
			o.Logf("review: %d comment(s) posted, %d left out", res.Posted, res.Dropped())
		}
	}
	if needSARIF {
		if t.Ref == "" || !isCommitID(t.Commit) {
			o.Warn("upload-sarif: no ref or commit to upload for (GITHUB_REF, GITHUB_SHA)")
		} else if id, err := o.Client.UploadSARIF(ctx, owner, repo, t.Ref, t.Commit, p.SARIF); err != nil {
			pb.warn(err)
		} else {
			o.Logf("SARIF uploaded to code scanning (id %s)", id)
		}
	}
}

// comment creates or updates the sticky comment as the comment mode says.
func (pb *Publisher) comment(ctx context.Context, owner, repo string, pr int, p *Publication) {
	o := pb.o
	marker := report.Marker(report.MarkerKey(p.Report, p.Options))
	body := string(p.Markdown)
	if o.Comment == CommentOnChange && !worthSaying(p.Report, p.Options.FailOn) {
		// Nothing to say: reduce an existing comment to one line (so that
		// it says all is well now), never start one.
		existing, err := o.Client.FindStickyComment(ctx, owner, repo, pr, marker, o.CommentAuthor)
		if err != nil {
			pb.warn(err)
			return
		}
		if existing == nil {
			o.Logf("nothing to report and no earlier comment: no comment (comment: on-change)")
			return
		}
		if p.Unchanged != nil {
			body = string(p.Unchanged)
		}
	}
	created, err := o.Client.UpsertStickyComment(ctx, owner, repo, pr, marker, body, o.CommentAuthor)
	if err != nil {
		pb.warn(err)
		return
	}
	if created {
		o.Logf("pull request #%d: comment created", pr)
	} else {
		o.Logf("pull request #%d: comment updated", pr)
	}
}

// warn turns a publishing error into a warning that names what to do (a
// *PublishError carries the hint).
func (pb *Publisher) warn(err error) {
	var pe *PublishError
	if errors.As(err, &pe) {
		pb.o.Warn(fmt.Sprintf("could not %s (%s): %s", pe.Op, pe.Kind, pe.Error()))
		return
	}
	pb.o.Warn("publishing: " + err.Error())
}

// worthSaying reports whether a report has something for CommentOnChange
// to say: the check fails, or the surface changed (a change above info,
// acknowledged or not: an accepted break is still news to a reviewer).
// Findings about a surface the pull request did not change, below
// fail-on, are not.
func worthSaying(r *report.Report, failOn rules.Level) bool {
	if r.Failed(failOn) {
		return true
	}
	for _, s := range r.Servers {
		for _, f := range s.Changes() {
			if f.Level != rules.LevelInfo {
				return true
			}
		}
	}
	return false
}

// ReviewCommentsOf are the report's review comments as CreateReview and a
// Bundle take them.
func ReviewCommentsOf(rcs []report.ReviewComment) []ReviewComment {
	var out []ReviewComment
	for _, c := range rcs {
		out = append(out, ReviewComment{Path: c.Path, Line: c.Line, Body: c.Body, Key: c.Key})
	}
	return out
}
