package github

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"
)

// Operations named in a PublishError.
const (
	OpComment         = "update the pull request comment"
	OpReview          = "create the review"
	OpUploadSARIF     = "upload SARIF"
	OpGetPullRequest  = "read the pull request"
	OpFindPullRequest = "find the pull request"
	OpIssue           = "update the drift issue"
)

// Kind classifies a publishing failure.
type Kind string

// Kinds of PublishError.
const (
	KindForbidden    Kind = "forbidden"    // 403: read-only token (fork PR), missing permission
	KindNotFound     Kind = "not-found"    // 404: code scanning not enabled, no such PR, token cannot see it
	KindRateLimited  Kind = "rate-limited" // primary or secondary rate limit
	KindUnauthorized Kind = "unauthorized" // 401: missing or rejected token
	KindInvalid      Kind = "invalid"      // 422 and other 4xx: GitHub rejected the request
	KindTooLarge     Kind = "too-large"    // 413 or a payload over GitHub's limits
	KindUnavailable  Kind = "unavailable"  // 5xx, network failure, timeout
	KindUnexpected   Kind = "unexpected"   // an answer the API does not document for the call
)

// PublishError is a publishing step that failed. Publishing failures
// degrade to a warning and a line in the job summary; they never change
// the exit code.
type PublishError struct {
	Op     string // one of the Op constants
	Kind   Kind
	Status int    // HTTP status, 0 when there was no response
	Hint   string // what the user can do about it
	Err    error  // the underlying error (go-github's, net/http's)

	token string // redacted from Error()
}

func (e *PublishError) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	b.WriteString(": ")
	b.WriteString(string(e.Kind))
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	if e.Err != nil {
		b.WriteString(" [")
		b.WriteString(e.Err.Error())
		b.WriteString("]")
	}
	return redact(b.String(), e.token)
}

func (e *PublishError) Unwrap() error { return e.Err }

// redact replaces every occurrence of the token in s.
func redact(s, token string) string {
	if len(token) < 4 {
		return s
	}
	return strings.ReplaceAll(s, token, "***")
}

// classify turns an API error into a *PublishError with a hint for op.
func (c *Client) classify(op string, err error) error {
	if err == nil {
		return nil
	}
	pe := &PublishError{Op: op, Err: err, token: c.token}
	var (
		rl   *gh.RateLimitError
		arl  *gh.AbuseRateLimitError
		er   *gh.ErrorResponse
		ue   *url.Error
		nerr net.Error
	)
	switch {
	case errors.As(err, &rl):
		pe.Kind = KindRateLimited
		pe.Status = statusOf(rl.Response)
		pe.Hint = "the API rate limit for this token is used up"
		if !rl.Rate.Reset.Time.IsZero() {
			pe.Hint += " until " + rl.Rate.Reset.Time.UTC().Format("15:04:05 UTC")
		}
		pe.Hint += ": nothing more is published in this run; rerun the job later"
	case errors.As(err, &arl):
		pe.Kind = KindRateLimited
		pe.Status = statusOf(arl.Response)
		pe.Hint = "GitHub's secondary rate limit on creating content (about 80 requests a minute) was hit"
		if arl.RetryAfter != nil {
			pe.Hint += fmt.Sprintf("; retry after %s", arl.RetryAfter.Round(time.Second))
		}
		pe.Hint += ": run fewer publishing jobs at once (strategy.max-parallel) or rerun later"
	case errors.As(err, &er):
		pe.Status = statusOf(er.Response)
		pe.Kind, pe.Hint = kindAndHint(op, pe.Status)
		if op == OpUploadSARIF && pe.Status == http.StatusForbidden && codeScanningDisabled(er.Message) {
			pe.Hint = "code scanning is not enabled for this repository: enable it (GitHub Advanced Security on private repositories) or set upload-sarif: false"
		}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		pe.Kind = KindUnavailable
		pe.Hint = "the request was cancelled or timed out"
	case errors.As(err, &ue), errors.As(err, &nerr):
		pe.Kind = KindUnavailable
		pe.Hint = "GitHub could not be reached: check GITHUB_API_URL and the network, or rerun later"
	default:
		pe.Kind = KindUnexpected
	}
	return pe
}

func statusOf(r *http.Response) int {
	if r == nil {
		return 0
	}
	return r.StatusCode
}

// kindAndHint maps an HTTP error status to a kind and a hint for op.
func kindAndHint(op string, status int) (Kind, string) {
	switch {
	case status == http.StatusUnauthorized:
		return KindUnauthorized, "the token was rejected: check the github-token input"
	case status == http.StatusForbidden:
		switch op {
		case OpComment, OpReview:
			return KindForbidden, "the token cannot comment on this pull request. On pull requests from forks the token is read-only: use mode analyze in the pull_request workflow and mode publish in a workflow_run workflow (see docs/action.md, \"Fork pull requests\"); otherwise grant permissions: pull-requests: write"
		case OpUploadSARIF:
			return KindForbidden, "the token cannot upload code scanning results: grant permissions: security-events: write; on pull requests from forks use mode analyze + publish (see docs/action.md, \"Fork pull requests\")"
		default:
			return KindForbidden, "the token cannot read pull requests: grant permissions: pull-requests: read"
		}
	case status == http.StatusNotFound:
		switch op {
		case OpUploadSARIF:
			return KindNotFound, "code scanning is not enabled for this repository, or the token cannot see it: enable code scanning (GitHub Advanced Security on private repositories) or set upload-sarif: false"
		case OpComment, OpReview:
			return KindNotFound, "the pull request was not found, or the token cannot see it: check the repository and the token's access"
		default:
			return KindNotFound, "no such pull request, or the token cannot see it"
		}
	case status == http.StatusTooManyRequests:
		return KindRateLimited, "GitHub asked to slow down: run fewer publishing jobs at once or rerun later"
	case status == http.StatusRequestEntityTooLarge:
		return KindTooLarge, "the request is larger than GitHub accepts"
	case status == http.StatusUnprocessableEntity && op == OpReview:
		return KindInvalid, "GitHub rejected the review: usually a comment is on a line outside the pull request's diff, or the head commit changed since the analysis; the verdict is unaffected"
	case status == http.StatusUnprocessableEntity && op == OpUploadSARIF:
		return KindInvalid, "GitHub rejected the SARIF (invalid, too large, or for an unknown commit)"
	case status >= 500:
		return KindUnavailable, "GitHub failed to answer: rerun later"
	case status >= 400:
		return KindInvalid, "GitHub rejected the request"
	}
	return KindUnexpected, ""
}

// codeScanningDisabled recognises GitHub's 403 messages for a repository
// without code scanning ("Advanced Security must be enabled ...", "Code
// scanning is not enabled ...").
func codeScanningDisabled(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "advanced security must be enabled") || strings.Contains(m, "code scanning is not enabled")
}
