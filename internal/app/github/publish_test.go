package github

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// recorder collects what a Publisher logs and warns.
type recorder struct{ logs, warnings []string }

func (r *recorder) options(o PublisherOptions) PublisherOptions {
	o.Logf = func(format string, args ...any) { r.logs = append(r.logs, fmt.Sprintf(format, args...)) }
	o.Warn = func(msg string) { r.warnings = append(r.warnings, msg) }
	return o
}

// publication renders r as the action does (SARIF is a fixed, valid log:
// its renderer is not this package's business).
func publication(t *testing.T, r *report.Report) *Publication {
	t.Helper()
	o := report.Options{FailOn: rules.LevelError}
	p := &Publication{Report: r, Options: o, SARIF: []byte(testSARIF), Lines: AnyLine{}}
	var err error
	if p.Markdown, err = report.RenderBytes("markdown", r, o); err != nil {
		t.Fatal(err)
	}
	if p.JSON, err = report.RenderBytes("json", r, o); err != nil {
		t.Fatal(err)
	}
	p.ReviewComments = ReviewCommentsOf(report.ReviewComments(r, func(string, int) bool { return true }, MaxBundleReviewComments))
	return p
}

var (
	headSHA  = strings.Repeat("e", 40)
	prTarget = Target{PullRequest: 17, HeadSHA: headSHA, Ref: "refs/pull/17/merge", Commit: strings.Repeat("c", 40)}
)

func TestPublisherCommentModes(t *testing.T) {
	findings, clean := reporttest.Diff(), reporttest.Empty()
	for _, tc := range []struct {
		name     string
		mode     CommentMode
		r        *report.Report
		existing bool
		want     int    // comments on the pull request afterwards
		log      string // a line of the log
		// unchanged is the Publication's one-line comment
		unchanged string
	}{
		{name: "always creates", mode: CommentAlways, r: clean, want: 1, log: "comment created"},
		{name: "default is on-change", mode: "", r: clean, want: 0, log: "no earlier comment"},
		{name: "always updates", mode: CommentAlways, r: findings, existing: true, want: 1, log: "comment updated"},
		{name: "on-change with news creates", mode: CommentOnChange, r: findings, want: 1, log: "comment created"},
		{name: "on-change without news stays quiet", mode: CommentOnChange, r: clean, want: 0, log: "no earlier comment"},
		{name: "on-change without news updates", mode: CommentOnChange, r: clean, existing: true, want: 1, log: "comment updated"},
		{name: "on-change without news is one line", mode: CommentOnChange, r: clean, existing: true, unchanged: "surface unchanged\n", want: 1, log: "comment updated"},
		{name: "on-change with news keeps the report", mode: CommentOnChange, r: findings, existing: true, unchanged: "surface unchanged\n", want: 1, log: "comment updated"},
		{name: "never", mode: CommentNever, r: findings, want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := githubtest.New(t, "/api/v3", testToken)
			p := publication(t, tc.r)
			if tc.unchanged != "" {
				p.Unchanged = []byte(tc.unchanged)
			}
			if tc.existing {
				f.AddComment(17, DefaultCommentAuthor, report.Marker(report.MarkerKey(p.Report, p.Options))+"\nold")
			}
			var rec recorder
			NewPublisher(rec.options(PublisherOptions{Client: testClient(t, f), Repository: "acme/weather-mcp", Comment: tc.mode})).Publish(ctx, p, prTarget)
			if got := len(f.Comments(17)); got != tc.want {
				t.Errorf("%d comments, want %d", got, tc.want)
			}
			if tc.want == 1 && strings.HasSuffix(f.Comments(17)[0].Body, "\nold") {
				t.Error("comment not updated")
			}
			if tc.want == 1 && tc.unchanged != "" {
				oneLine := strings.HasSuffix(f.Comments(17)[0].Body, "\n"+tc.unchanged)
				if news := tc.r == findings; oneLine == news {
					t.Errorf("body %q: the one-line comment is for a report without news only", f.Comments(17)[0].Body)
				}
			}
			if tc.log != "" && !strings.Contains(strings.Join(rec.logs, "\n"), tc.log) {
				t.Errorf("log %q, want a line with %q", rec.logs, tc.log)
			}
			if tc.mode == CommentNever && len(f.Requests()) != 0 {
				t.Errorf("never: %d requests", len(f.Requests()))
			}
			if len(rec.warnings) != 0 {
				t.Errorf("warnings: %q", rec.warnings)
			}
		})
	}
}

func TestPublisherReviewAndSARIF(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	var rec recorder
	pb := NewPublisher(rec.options(PublisherOptions{
		Client: testClient(t, f), Repository: "acme/weather-mcp", Comment: CommentNever, Review: true, UploadSARIF: true,
	}))
	p := publication(t, reporttest.Diff())
	if len(p.ReviewComments) == 0 {
		t.Fatal("the report has no review comments")
	}
	pb.Publish(ctx, p, prTarget)
	if len(f.Reviews()) != 1 || len(f.SARIFs()) != 1 {
		t.Fatalf("%d reviews, %d SARIF uploads; want one of each (warnings %q)", len(f.Reviews()), len(f.SARIFs()), rec.warnings)
	}
	if !strings.Contains(strings.Join(rec.logs, "\n"), "SARIF uploaded") {
		t.Errorf("log: %q", rec.logs)
	}

	// Not a pull request: SARIF only, and without a ref a warning.
	rec = recorder{}
	pb = NewPublisher(rec.options(PublisherOptions{Client: testClient(t, f), Repository: "acme/weather-mcp", Review: true, UploadSARIF: true}))
	pb.Publish(ctx, p, Target{Commit: prTarget.Commit})
	if len(f.Reviews()) != 1 || len(f.SARIFs()) != 1 || len(rec.warnings) != 1 || !strings.Contains(rec.warnings[0], "no ref or commit") {
		t.Errorf("push without ref: %d reviews, %d uploads, warnings %q", len(f.Reviews()), len(f.SARIFs()), rec.warnings)
	}
}

func TestPublisherFailuresAreWarnings(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	f.FailOn(`POST /repos/acme/weather-mcp/issues/17/comments`, githubtest.Failure{Status: 403, Message: "Resource not accessible by integration"})
	f.FailOn(`POST /repos/acme/weather-mcp/code-scanning/sarifs`, githubtest.Failure{Status: 500, Message: "boom"})
	var rec recorder
	NewPublisher(rec.options(PublisherOptions{Client: testClient(t, f), Repository: "acme/weather-mcp", UploadSARIF: true})).
		Publish(ctx, publication(t, reporttest.Diff()), prTarget)
	if len(rec.warnings) != 2 {
		t.Fatalf("warnings %q, want the comment's and the upload's", rec.warnings)
	}
	if !strings.HasPrefix(rec.warnings[0], "could not "+OpComment+" (forbidden)") {
		t.Errorf("comment warning %q", rec.warnings[0])
	}
	for _, w := range rec.warnings {
		if strings.Contains(w, testToken) {
			t.Errorf("token in %q", w)
		}
	}
}

func TestPublisherWithoutClient(t *testing.T) {
	var rec recorder
	why := errors.New("no github-token: nothing was published")
	pb := NewPublisher(rec.options(PublisherOptions{Unavailable: why, Repository: "acme/weather-mcp"}))
	p := publication(t, reporttest.Diff())
	// Nothing to publish (not a pull request, no upload): no warning.
	pb.Publish(ctx, p, Target{})
	if len(rec.warnings) != 0 {
		t.Fatalf("warned with nothing to publish: %q", rec.warnings)
	}
	pb.Publish(ctx, p, prTarget)
	if len(rec.warnings) != 1 || rec.warnings[0] != why.Error() {
		t.Errorf("warnings %q, want %q", rec.warnings, why)
	}
	if _, ok, err := pb.VerifyBundle(ctx, validBundle(), &actionenv.WorkflowRunEvent{HeadSHA: headSHA}); ok || err != nil {
		t.Errorf("VerifyBundle without a client: ok %v, err %v", ok, err)
	}
}

func TestBundleOfAPublication(t *testing.T) {
	r := reporttest.Diff()
	p := publication(t, r)
	pr := PullRequest{Number: 17, HeadSHA: headSHA, BaseSHA: strings.Repeat("b", 40)}
	b := NewBundle("acme/weather-mcp", pr, 1, p)
	if s := r.Summary(); b.Verdict.ExitCode != 1 || b.Verdict.Counts.Error != s.Error || b.Verdict.Counts.Info != s.Info {
		t.Errorf("verdict %+v, summary %+v", b.Verdict, s)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	path, err := WriteBundleDir(dir, b)
	if err != nil || path != filepath.Join(dir, BundleFileName) {
		t.Fatalf("WriteBundleDir = %q, %v", path, err)
	}
	got, err := OpenBundle(dir) // the directory, as an artifact is downloaded
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Match("ACME/weather-mcp", headSHA); err != nil {
		t.Errorf("Match: %v", err)
	}
	for _, tc := range [][2]string{{"acme/other", headSHA}, {"acme/weather-mcp", strings.Repeat("9", 40)}} {
		if err := got.Match(tc[0], tc[1]); !errors.Is(err, ErrBundleMismatch) {
			t.Errorf("Match(%q, %q) = %v", tc[0], tc[1], err)
		}
	}
	dr, failOn, err := got.DecodeReport()
	if err != nil || failOn != rules.LevelError || dr.Summary() != r.Summary() {
		t.Fatalf("DecodeReport = %+v, %q, %v", dr.Summary(), failOn, err)
	}
	// What is posted again is rendered from the report, not the bundle.
	got.ReviewComments[0].Body = "@everyone"
	again := got.ReviewCommentsFor(dr)
	if len(again) != len(p.ReviewComments) {
		t.Fatalf("ReviewCommentsFor: %d comments, want %d", len(again), len(p.ReviewComments))
	}
	for i, c := range again {
		w := p.ReviewComments[i]
		if c.Path != w.Path || c.Line != w.Line || c.Key != w.Key || strings.Contains(c.Body, "@everyone") || !strings.Contains(w.Body, c.Body[:strings.Index(c.Body, "\n")]) {
			t.Errorf("ReviewCommentsFor[%d] = %+v\nwant one finding of %+v", i, c, w)
		}
	}

	// A comment over GitHub's limit is not carried: the publisher renders
	// its own.
	p.Markdown = []byte(strings.Repeat("x", MaxCommentBytes+1))
	if b := NewBundle("acme/weather-mcp", pr, 1, p); b.Markdown != bundleMarkdownTooLarge {
		t.Errorf("markdown of %d bytes carried", len(b.Markdown))
	}

	got.Report = []byte(`{"findings":[{"rule":"Not A Rule"}],"summary":{}}`)
	if _, _, err := got.DecodeReport(); !errors.Is(err, ErrInvalidBundle) {
		t.Errorf("bad report: %v", err)
	}
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenBundle(path); !errors.Is(err, ErrInvalidBundle) {
		t.Errorf("OpenBundle of {}: %v", err)
	}
}

func TestVerifyBundle(t *testing.T) {
	run := func(prs ...int) *actionenv.WorkflowRunEvent {
		wr := &actionenv.WorkflowRunEvent{HeadSHA: headSHA, HeadRepository: "contributor/weather-mcp", HeadBranch: "forecast"}
		for _, n := range prs {
			wr.PullRequests = append(wr.PullRequests, actionenv.WorkflowRunPullRequest{Number: n, HeadSHA: headSHA})
		}
		return wr
	}
	f := githubtest.New(t, "", testToken)
	var rec recorder
	pb := NewPublisher(rec.options(PublisherOptions{Client: testClient(t, f), Repository: "acme/weather-mcp"}))
	b := validBundle() // pull request 17 at headSHA

	// Gone: no open pull request has the head.
	if _, ok, err := pb.VerifyBundle(ctx, b, run()); ok || err != nil || len(rec.warnings) != 1 || !strings.Contains(rec.warnings[0], "no open pull request") {
		t.Errorf("gone: ok %v, err %v, warnings %q", ok, err, rec.warnings)
	}

	f.AddPull(githubtest.Pull{Number: 17, State: "open", HeadSHA: headSHA, HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	for name, wr := range map[string]*actionenv.WorkflowRunEvent{"named by the event": run(17), "found for a fork": run()} {
		if pr, ok, err := pb.VerifyBundle(ctx, b, wr); pr != 17 || !ok || err != nil {
			t.Errorf("%s: %d, %v, %v", name, pr, ok, err)
		}
	}

	// The event names another pull request: the bundle was tampered with.
	if _, ok, err := pb.VerifyBundle(ctx, b, run(18)); ok || !errors.Is(err, ErrBundleMismatch) {
		t.Errorf("other pull request: ok %v, err %v", ok, err)
	}

	// The pull request moved on: a warning, a newer run publishes.
	rec.warnings = nil
	f.AddPull(githubtest.Pull{Number: 17, State: "open", HeadSHA: strings.Repeat("7", 40), HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	if _, ok, err := pb.VerifyBundle(ctx, b, run(17)); ok || err != nil || len(rec.warnings) != 1 || !strings.HasPrefix(rec.warnings[0], "not published:") {
		t.Errorf("moved on: ok %v, err %v, warnings %q", ok, err, rec.warnings)
	}
}
