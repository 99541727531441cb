package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// bundleMarkdownTooLarge replaces a comment over GitHub's limit in a
// bundle: the publisher renders its own comment from the report anyway.
const bundleMarkdownTooLarge = "The report is too large for a comment; see the job summary of the analyzing run."

// NewBundle is the bundle of p, the analysis of pull request pr (its
// number, head and base commits) in repository ("owner/name"), whose
// verdict was exitCode.
func NewBundle(repository string, pr PullRequest, exitCode int, p *Publication) *Bundle {
	s := p.Report.Summary()
	b := &Bundle{
		Version: BundleVersion, Repository: repository, PullRequest: pr.Number,
		HeadSHA: pr.HeadSHA, BaseSHA: pr.BaseSHA,
		Verdict:        Verdict{ExitCode: exitCode, Counts: Counts{Error: s.Error, Warning: s.Warning, Note: s.Note, Info: s.Info}},
		Report:         p.JSON,
		Markdown:       string(p.Markdown),
		SARIF:          p.SARIF,
		ReviewComments: p.ReviewComments,
	}
	if len(b.Markdown) > MaxCommentBytes {
		b.Markdown = bundleMarkdownTooLarge
	}
	return b
}

// WriteBundleDir writes b as BundleFileName in dir (created when missing:
// the directory given to actions/upload-artifact) and returns the file's
// path.
func WriteBundleDir(dir string, b *Bundle) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("bundle: %w", err)
	}
	path := filepath.Join(dir, BundleFileName)
	if err := WriteBundleFile(path, b); err != nil {
		return "", err
	}
	return path, nil
}

// OpenBundle reads the bundle at path, a file or the directory that
// WriteBundleDir wrote (an artifact downloaded as it was uploaded), with
// ReadBundleFile.
func OpenBundle(path string) (*Bundle, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, BundleFileName)
	}
	return ReadBundleFile(path)
}

// Match holds the bundle against what the trusted event says without
// asking the API: the repository ("owner/name", case aside) and the head
// commit the analyzing run checked out. Mismatches wrap ErrBundleMismatch.
func (b *Bundle) Match(repository, headSHA string) error {
	if !strings.EqualFold(b.Repository, repository) {
		return fmt.Errorf("%w: it is for repository %q, this run is in %q", ErrBundleMismatch, b.Repository, repository)
	}
	if b.HeadSHA != headSHA {
		return fmt.Errorf("%w: it is for commit %s, the analyzing run checked out %s", ErrBundleMismatch, b.HeadSHA, headSHA)
	}
	return nil
}

// DecodeReport reads the bundle's JSON report back (report.DecodeJSON
// checks it as the untrusted data it is) with the fail-on level it was
// made with. A report that does not decode wraps ErrInvalidBundle.
func (b *Bundle) DecodeReport() (*report.Report, rules.Level, error) {
	r, err := report.DecodeJSON(b.Report)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalidBundle, err)
	}
	failOn, err := reportFailOn(b.Report)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalidBundle, err)
	}
	return r, failOn, nil
}

// reportFailOn reads summary.failOn of a JSON report; absent is error,
// the default.
func reportFailOn(raw json.RawMessage) (rules.Level, error) {
	var top struct {
		Summary struct {
			FailOn string `json:"failOn"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return "", err
	}
	if top.Summary.FailOn == "" {
		return rules.LevelError, nil
	}
	return rules.ParseLevel(top.Summary.FailOn)
}

// ReviewCommentsFor are the bundle's review comments whose key is a
// finding of r (the bundle's report, decoded), with bodies rendered from r:
// the bundle's own text is never posted.
func (b *Bundle) ReviewCommentsFor(r *report.Report) []ReviewComment {
	prior := make([]report.ReviewComment, len(b.ReviewComments))
	for i, c := range b.ReviewComments {
		prior[i] = report.ReviewComment{Path: c.Path, Line: c.Line, Key: c.Key}
	}
	return ReviewCommentsOf(report.RefreshReviewComments(r, prior))
}

// VerifyBundle finds the pull request of the workflow run and verifies
// the bundle against it (Verify). A bundle that names another pull
// request than the one whose head the trusted event names was tampered
// with: an error. A pull request that moved on or closed since, or an API
// failure, is a warning and ok is false (a newer run publishes); so is a
// Publisher without a client.
func (pb *Publisher) VerifyBundle(ctx context.Context, b *Bundle, run *actionenv.WorkflowRunEvent) (pr int, ok bool, err error) {
	o := pb.o
	if o.Client == nil {
		o.Warn(o.Unavailable.Error())
		return 0, false, nil
	}
	number := 0
	for _, p := range run.PullRequests {
		if p.HeadSHA == run.HeadSHA {
			number = p.Number
			break
		}
	}
	if number == 0 {
		owner, repo, _ := strings.Cut(o.Repository, "/")
		found, err := o.Client.FindPullRequest(ctx, owner, repo, PullRequestQuery{HeadSHA: run.HeadSHA, HeadRepo: run.HeadRepository, HeadBranch: run.HeadBranch})
		if err != nil {
			if errors.Is(err, ErrNoPullRequest) {
				o.Warn(fmt.Sprintf("no open pull request has head %s any more: nothing to publish", shortSHA(run.HeadSHA)))
			} else {
				pb.warn(err)
			}
			return 0, false, nil
		}
		number = found.Number
	}
	if b.PullRequest != number {
		return 0, false, fmt.Errorf("%w: it names pull request #%d, but commit %s is the head of #%d", ErrBundleMismatch, b.PullRequest, shortSHA(run.HeadSHA), number)
	}
	if _, err := b.Verify(ctx, o.Client, Expected{Repository: o.Repository, HeadSHA: run.HeadSHA, PullRequest: number}); err != nil {
		if errors.Is(err, ErrBundleMismatch) {
			o.Warn(fmt.Sprintf("not published: %v", err))
		} else {
			pb.warn(err)
		}
		return 0, false, nil
	}
	return number, true, nil
}

// shortSHA abbreviates a commit id for messages.
func shortSHA(s string) string {
	if isCommitID(s) && len(s) > 12 {
		return s[:12]
	}
	return s
}
