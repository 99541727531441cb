package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// fail reports a failure of the tool (exit 2) where a workflow shows it:
// an error annotation, the job summary and the outputs.
func (a *actionRun) fail(err error) (int, error) {
	msg := frontend.SnapshotHint(err).Error()
	a.ae.Error("mcp-surface could not do its job: "+frontend.LogText(msg), actionenv.Annotation{Title: "mcp-surface"})
	a.appendSummary("### mcp-surface could not do its job\n\n" + report.CodeBlock(msg, "text") + "\n" + a.notesMarkdown())
	a.setOutput("verdict", "error")
	a.setOutput("exit-code", strconv.Itoa(frontend.ExitFailure))
	return 0, err
}

// warn is a publishing problem: a warning annotation and a line in the
// job summary; never a change of the exit code.
func (a *actionRun) warn(msg string) {
	a.ae.Warning(msg, actionenv.Annotation{Title: "mcp-surface"})
	a.notes = append(a.notes, msg)
}

func (a *actionRun) notesMarkdown() string {
	if len(a.notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n**Publishing**\n\n")
	for _, n := range a.notes {
		b.WriteString("- ⚠️ " + report.Markdown(n, 2000) + "\n")
	}
	return b.String()
}

func (a *actionRun) appendSummary(md string) {
	if _, err := a.ae.AppendSummary(md); err != nil {
		a.ae.Debug("job summary: " + err.Error())
	}
}

func (a *actionRun) setOutput(name, value string) {
	if !slices.Contains(Outputs, name) {
		panic("action: output " + name + " is not in Outputs")
	}
	if err := a.ae.SetOutput(name, value); err != nil {
		a.ae.Debug("output " + name + ": " + err.Error())
	}
}

// inWorkspace resolves a path given relative to the workspace.
func (a *actionRun) inWorkspace(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.ws, p)
}

// pullRequest is the event's pull request, or nil.
func (a *actionRun) pullRequest() *actionenv.PullRequestEvent {
	if a.event == nil {
		return nil
	}
	return a.event.PullRequest
}

// deliver ends modes full and analyze with the pipeline's report: the
// files, outputs and job summary, then the bundle (analyze) or the
// publication on GitHub (full).
func (a *actionRun) deliver(ctx context.Context, repo string, r *report.Report, code int) (int, error) {
	c := a.cfg
	pr := a.pullRequest()
	// The comment: in mode analyze what a publish job renders from the
	// bundle's report (it knows nothing more), else everything known about
	// the run. The job summary is the full report.
	comment := report.Options{FailOn: c.FailOn}
	if c.Mode != modeAnalyze {
		comment = a.runOptions(pr)
		a.guide.Apply(&comment, false)
	}
	summary := a.runOptions(pr)
	a.guide.Apply(&summary, true)
	summary.Full = true
	out, sum, err := github.Render(r, comment, summary)
	if err != nil {
		return a.fail(err)
	}
	if a.guide != nil && len(a.guide.Acknowledgements) > 0 {
		end := a.ae.Group("mcp-surface: acknowledgements that turn the check green")
		a.ae.Info(string(a.guide.Acknowledgements))
		end()
	}
	a.writeResults(out, code)

	if c.ReviewComments && pr != nil {
		out.ReviewComments, out.Lines = a.reviewComments(ctx, repo, pr, r)
	}
	switch {
	case c.Mode == modeAnalyze && pr != nil:
		if err := a.writeBundle(pr, code, out); err != nil {
			return a.fail(err)
		}
	case c.Mode == modeAnalyze:
		a.ae.Info("mcp-surface: not a pull request: no bundle to publish")
	case c.Mode == modeFull:
		t := github.Target{Ref: a.gctx.Ref, Commit: a.gctx.SHA}
		if pr != nil {
			t.PullRequest, t.HeadSHA = pr.Number, pr.Head.SHA
		}
		a.publisher().Publish(ctx, out, t)
	}
	a.finish(out, sum)
	return code, nil
}

// runOptions are the renderer's options with what the run knows: the
// verdict's level, the commits compared and the link to the run.
func (a *actionRun) runOptions(pr *actionenv.PullRequestEvent) report.Options {
	o := report.Options{FailOn: a.cfg.FailOn, BaseSHA: a.baseSHA, HeadSHA: a.gctx.SHA, RunURL: a.gctx.RunURL()}
	if pr != nil {
		o.HeadSHA = pr.Head.SHA
	}
	return o
}

// reviewComments are the review comments on the pull request's diff;
// without the diff, none, and a publishing warning says why.
func (a *actionRun) reviewComments(ctx context.Context, repo string, pr *actionenv.PullRequestEvent, r *report.Report) ([]github.ReviewComment, github.LineSet) {
	comments, lines, err := github.DiffReviewComments(ctx, repo, pr.Base.SHA, pr.Head.SHA, r, a.logger)
	if err != nil {
		a.warn(fmt.Sprintf("review comments need the pull request's diff, which git could not compute (%v): check out with fetch-depth: 0", err))
		return nil, nil
	}
	return comments, lines
}

// writeResults writes the report files, the outputs and the job summary:
// what every mode does, before publishing.
func (a *actionRun) writeResults(out *github.Publication, code int) {
	c := a.cfg
	sarifPath := a.inWorkspace(c.SARIFFile)
	if err := report.WriteFile(sarifPath, out.SARIF); err != nil {
		a.warn(fmt.Sprintf("writing %s: %v", c.SARIFFile, err))
	} else {
		a.setOutput("sarif-file", sarifPath)
	}
	reportPath := a.inWorkspace(c.ReportFile)
	if reportPath == "" {
		dir := a.env.Getenv("RUNNER_TEMP")
		if dir == "" {
			dir = a.ws
		}
		reportPath = filepath.Join(dir, "mcp-surface-report.json")
	}
	if err := report.WriteFile(reportPath, out.JSON); err != nil {
		a.warn(fmt.Sprintf("writing the JSON report: %v", err))
	} else {
		a.setOutput("report-file", reportPath)
	}

	for _, o := range github.VerdictOutputs(out.Report, code, code != frontend.ExitOK) {
		a.setOutput(o.Name, o.Value)
	}
}

// finish ends a run: the job summary (the report, then any publishing
// problem), the annotations, and the report as text in the log.
func (a *actionRun) finish(out *github.Publication, summary []byte) {
	a.appendSummary(string(summary) + a.notesMarkdown())
	// Annotations last, so that publishing warnings are among the ten of
	// each level that GitHub shows for a step.
	var ann bytes.Buffer
	if err := report.Render(&ann, "github", out.Report, out.Options); err == nil {
		a.env.Stdout.Write(ann.Bytes())
	}
	if text, err := report.RenderBytes("text", out.Report, out.Options); err == nil {
		end := a.ae.Group("mcp-surface report")
		a.ae.Info(string(text))
		end()
	}
}

// publisher maps the inputs onto a github.Publisher. Without a token, or
// without the repository, it publishes nothing and says so once something
// was to be published.
func (a *actionRun) publisher() *github.Publisher {
	o := github.PublisherOptions{
		Repository:        a.gctx.Repository,
		Comment:           github.CommentMode(a.cfg.Comment),
		CommentAuthor:     a.cfg.CommentAuthor,
		Review:            a.cfg.ReviewComments,
		MaxReviewComments: a.cfg.MaxReviewComments,
		UploadSARIF:       a.cfg.UploadSARIF,
		Logf:              a.logger,
		Warn:              a.warn,
	}
	o.Client, o.Unavailable = a.githubClient()
	return github.NewPublisher(o)
}

// githubClient is the run's client of the GitHub API, or why there is
// none (no token, no API URL, no repository): every publisher of the run
// (the report's, the lock's issue and comment) gets it here.
func (a *actionRun) githubClient() (*github.Client, error) {
	api, err := a.ae.APIURL()
	switch {
	case a.cfg.Token == "":
		return nil, errors.New("no github-token: nothing was published to GitHub (the job summary, outputs and files are written)")
	case err != nil:
		return nil, fmt.Errorf("GitHub API: %w", err)
	}
	c, err := github.NewClient(github.Options{APIURL: api, Token: a.cfg.Token, UserAgent: "mcp-surface/" + version})
	if err != nil {
		return nil, fmt.Errorf("GitHub API: %w", err)
	}
	if a.gctx.Owner == "" {
		return nil, errors.New("GITHUB_REPOSITORY is not set: nothing was published")
	}
	return c, nil
}
