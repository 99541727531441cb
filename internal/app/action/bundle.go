package action

import (
	"context"
	"fmt"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// writeBundle writes the analysis for a publish job (mode analyze).
func (a *actionRun) writeBundle(pr *actionenv.PullRequestEvent, code int, out *github.Publication) error {
	repoName := a.gctx.Repository
	if a.event != nil && a.event.Repository != "" {
		repoName = a.event.Repository
	}
	b := github.NewBundle(repoName, github.PullRequest{Number: pr.Number, HeadSHA: pr.Head.SHA, BaseSHA: pr.Base.SHA}, code, out)
	path, err := github.WriteBundleDir(a.inWorkspace(a.cfg.Bundle), b)
	if err != nil {
		return err
	}
	a.setOutput("bundle-file", path)
	a.logger("wrote %s: upload the directory %s with actions/upload-artifact for the publish job", path, a.cfg.Bundle)
	return nil
}

// publish runs mode publish: in a workflow_run job, the bundle of the
// analyzing run is read as untrusted data, tied to the trusted event, and
// published. What is posted is rendered here from the bundle's JSON report
// (checked by report.DecodeJSON), never taken from its markdown or SARIF.
func (a *actionRun) publish(ctx context.Context) (int, error) {
	wr := a.event.WorkflowRun
	if wr == nil {
		return a.fail(usagef("mode publish runs on workflow_run events (this is %s): see docs/action.md, Fork pull requests", a.event.Name))
	}
	b, err := github.OpenBundle(a.inWorkspace(a.cfg.Bundle))
	if err != nil {
		return a.fail(fmt.Errorf("the bundle is not usable: %w", err))
	}
	// The trusted event says which commit the analyzing run checked out
	// and in which repository: a bundle for anything else is refused.
	if err := b.Match(a.gctx.Repository, wr.HeadSHA); err != nil {
		return a.fail(err)
	}
	r, failOn, err := b.DecodeReport()
	if err != nil {
		return a.fail(err)
	}
	o := report.Options{FailOn: failOn}
	summary := o
	summary.Full = true
	out, sum, err := github.Render(r, o, summary)
	if err != nil {
		return a.fail(err)
	}
	code := frontend.ExitOK
	if r.Failed(failOn) {
		code = frontend.ExitFindings
	}
	// The pull request is checked before anything is written, so that a
	// bundle for another one fails the step without outputs.
	p := a.publisher()
	pr, verified, err := p.VerifyBundle(ctx, b, wr)
	if err != nil {
		return a.fail(err)
	}
	a.writeResults(out, code)
	if verified {
		out.ReviewComments, out.Lines = b.ReviewCommentsFor(r), github.AnyLine{}
		p.Publish(ctx, out, github.Target{
			PullRequest: pr, HeadSHA: b.HeadSHA, Ref: fmt.Sprintf("refs/pull/%d/head", pr), Commit: b.HeadSHA,
		})
	}
	a.finish(out, sum)
	return frontend.ExitOK, nil
}
