package github

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
)

const testToken = "ghs_Sup3rSecretT0kenValue0123456789"

var ctx = context.Background()

// testClient returns a Client for the stand-in API f, which takes testToken.
func testClient(t *testing.T, f *githubtest.Server) *Client {
	t.Helper()
	c, err := NewClient(Options{APIURL: f.URL(), Token: testToken, HTTPClient: f.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStickyCommentCreatedThenUpdatedNeverTwice(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	marker := StickyMarker("")
	f.AddComment(42, "octocat", "LGTM")

	created, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 42, marker, "## mcp-surface\n\n2 breaking changes", "")
	if err != nil || !created {
		t.Fatalf("first run: created=%v err=%v", created, err)
	}
	created, err = c.UpsertStickyComment(ctx, "acme", "weather-mcp", 42, marker, "## mcp-surface\n\n1 breaking change", "")
	if err != nil || created {
		t.Fatalf("second run: created=%v err=%v", created, err)
	}
	// A later push fixes everything: the same comment says so.
	created, err = c.UpsertStickyComment(ctx, "acme", "weather-mcp", 42, marker, "## mcp-surface\n\nNo changes to the surface.", "")
	if err != nil || created {
		t.Fatalf("third run: created=%v err=%v", created, err)
	}
	// Same body again: nothing is sent.
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 42, marker, "## mcp-surface\n\nNo changes to the surface.", ""); err != nil {
		t.Fatal(err)
	}

	var ours []githubtest.Comment
	for _, cm := range f.Comments(42) {
		if strings.Contains(cm.Body, marker) {
			ours = append(ours, cm)
		}
	}
	if len(ours) != 1 {
		t.Fatalf("%d comments with the marker, want 1", len(ours))
	}
	if want := marker + "\n## mcp-surface\n\nNo changes to the surface."; ours[0].Body != want {
		t.Errorf("body = %q, want %q", ours[0].Body, want)
	}
	if n := f.Count("POST", `/repos/acme/weather-mcp/issues/42/comments`); n != 1 {
		t.Errorf("%d comments created, want 1", n)
	}
	if n := f.Count("PATCH", `/repos/acme/weather-mcp/issues/comments/\d+`); n != 2 {
		t.Errorf("%d updates, want 2", n)
	}
	for _, r := range f.Requests() {
		if r.Auth != "Bearer "+testToken {
			t.Errorf("%s %s sent without the token", r.Method, r.Path)
		}
	}
}

func TestStickyCommentFoundOnPageThree(t *testing.T) {
	f := githubtest.New(t, "/custom/prefix/", testToken)
	c := testClient(t, f)
	marker := StickyMarker("weather server")
	for i := 0; i < 230; i++ {
		switch i {
		case 5:
			// Someone quoting our marker is not us.
			f.AddComment(7, "mallory", "fake "+marker)
		case 17:
			// Ours, for another server of the matrix.
			f.AddComment(7, "github-actions[bot]", StickyMarker("other")+"\nother server")
		case 211:
			f.AddComment(7, "github-actions[bot]", marker+"\nold report")
		default:
			f.AddComment(7, fmt.Sprintf("user%d", i%9), fmt.Sprintf("comment %d", i))
		}
	}
	created, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 7, marker, "new report", "")
	if err != nil || created {
		t.Fatalf("created=%v err=%v", created, err)
	}
	cs := f.Comments(7)
	if got := cs[211].Body; got != marker+"\nnew report" {
		t.Errorf("our comment on page 3 = %q", got)
	}
	if cs[5].Body != "fake "+marker || cs[17].Body != StickyMarker("other")+"\nother server" {
		t.Error("a comment that is not ours was changed")
	}
	if len(cs) != 230 {
		t.Errorf("%d comments, want 230", len(cs))
	}
	if n := f.Count("GET", `/repos/acme/weather-mcp/issues/7/comments`); n != 3 {
		t.Errorf("%d list requests, want 3 (pages of 100)", n)
	}
}

func TestStickyCommentSeveralMatchesUpdatesOldest(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	marker := StickyMarker("")
	a := f.AddComment(3, "github-actions[bot]", marker+"\nfirst")
	b := f.AddComment(3, "GitHub-Actions[bot]", marker+"\nsecond")
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 3, marker, "third", ""); err != nil {
		t.Fatal(err)
	}
	if a.Body != marker+"\nthird" || b.Body != marker+"\nsecond" {
		t.Errorf("bodies = %q, %q; want the oldest updated, the later duplicate left alone", a.Body, b.Body)
	}
	// Again: the same one, whatever the order of the listing.
	f.SwapComments(3, 0, 1)
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 3, marker, "fourth", ""); err != nil {
		t.Fatal(err)
	}
	if a.Body != marker+"\nfourth" || b.Body != marker+"\nsecond" {
		t.Errorf("bodies = %q, %q after a reordered listing", a.Body, b.Body)
	}
	// A configured author (a GitHub App) is matched instead of the default.
	f.AddComment(3, "mcp-surface-app[bot]", marker+"\napp")
	got, err := c.FindStickyComment(ctx, "acme", "weather-mcp", 3, marker, "mcp-surface-app[bot]")
	if err != nil || got == nil || got.Body != marker+"\napp" {
		t.Errorf("FindStickyComment(app) = %+v, %v", got, err)
	}
}

// A comment of ours that carries a marker anywhere but on its first line
// (another server's report quoting a hostile description, a marker in a
// code block, a reply quoting ours) is not that marker's sticky comment.
func TestStickyCommentMarkerOnlyOnFirstLine(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	alpha, beta := StickyMarker("alpha"), StickyMarker("beta")
	quoting := f.AddComment(4, "github-actions[bot]", beta+"\n```\n"+alpha+"\n```")
	indented := f.AddComment(4, "github-actions[bot]", " \n"+alpha+"\nnot first")
	inline := f.AddComment(4, "github-actions[bot]", "see "+alpha)
	got, err := c.FindStickyComment(ctx, "acme", "weather-mcp", 4, alpha, "")
	if err != nil || got != nil {
		t.Fatalf("FindStickyComment(alpha) = %+v, %v; want none", got, err)
	}
	created, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 4, alpha, "alpha's report", "")
	if err != nil || !created {
		t.Fatalf("alpha: created=%v err=%v, want its own comment", created, err)
	}
	if quoting.Body != beta+"\n```\n"+alpha+"\n```" || indented.Body != " \n"+alpha+"\nnot first" || inline.Body != "see "+alpha {
		t.Error("a comment whose first line is not alpha's marker was edited")
	}
	// The comment just created is found again: its first line is the
	// marker, and a body edited in GitHub's editor ends lines with \r\n.
	cs := f.Comments(4)
	if got := cs[len(cs)-1].Body; got != alpha+"\nalpha's report" {
		t.Errorf("created body = %q", got)
	}
	f.SetCommentBody(cs[len(cs)-1].ID, alpha+"\r\nedited by hand")
	got, err = c.FindStickyComment(ctx, "acme", "weather-mcp", 4, alpha, "")
	if err != nil || got == nil || got.ID != cs[len(cs)-1].ID {
		t.Errorf("FindStickyComment after a CRLF edit = %+v, %v", got, err)
	}
	// A body whose marker is not its first line gets the marker prepended.
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 4, beta, "x\n"+beta, ""); err != nil {
		t.Fatal(err)
	}
	if quoting.Body != beta+"\nx\n"+beta {
		t.Errorf("beta's body = %q, want its marker first", quoting.Body)
	}
}

func TestStickyCommentRefusesBadArguments(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	for _, pr := range []int{0, -1} {
		if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", pr, StickyMarker(""), "x", ""); err == nil {
			t.Errorf("pr %d accepted", pr)
		}
	}
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 1, "mcp-surface", "x", ""); err == nil {
		t.Error("a visible marker accepted")
	}
	if _, err := c.UpsertStickyComment(ctx, "acme/x", "weather-mcp", 1, StickyMarker(""), "x", ""); err == nil {
		t.Error("bad owner accepted")
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("%d requests made for refused arguments", n)
	}
}

func TestStickyCommentBodyBounded(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	marker := StickyMarker("")
	body := "## report\n```\n" + strings.Repeat("tool ☃ changed\n", 10000)
	if _, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 9, marker, body, ""); err != nil {
		t.Fatal(err)
	}
	got := f.Comments(9)[0].Body
	if len(got) > MaxCommentBytes || !strings.HasPrefix(got, marker) || !strings.HasSuffix(got, commentTruncatedNote) {
		t.Errorf("len %d, prefix %q, suffix %q", len(got), got[:40], got[len(got)-40:])
	}
	if strings.Count(got, "```")%2 != 0 {
		t.Error("code fence left open")
	}
}

func TestForbiddenOnForkIsHelpfulPublishError(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	f.FailOn("POST /repos/acme/weather-mcp/issues/\\d+/comments", githubtest.Failure{
		Status:  http.StatusForbidden,
		Message: "Resource not accessible by integration",
		DocURL:  "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
	})
	_, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 42, StickyMarker(""), "report", "")
	var pe *PublishError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want *PublishError", err, err)
	}
	if pe.Kind != KindForbidden || pe.Status != 403 || pe.Op != OpComment {
		t.Errorf("PublishError = %+v", pe)
	}
	for _, want := range []string{"forks", "mode analyze", "mode publish", "docs/action.md", "pull-requests: write", "Resource not accessible by integration"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %s", want, err)
		}
	}
}

func TestRateLimitsClassified(t *testing.T) {
	for name, fl := range map[string]githubtest.Failure{
		"primary": {Status: 403, Message: "API rate limit exceeded", Header: map[string]string{
			"X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1893456000"}},
		"secondary": {Status: 403, Message: "You have exceeded a secondary rate limit", Header: map[string]string{"Retry-After": "30"},
			DocURL: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"},
		"429": {Status: 429, Message: "Too Many Requests"},
	} {
		t.Run(name, func(t *testing.T) {
			f := githubtest.New(t, "", testToken)
			c := testClient(t, f)
			f.FailOn("POST /repos/acme/weather-mcp/issues/\\d+/comments", fl)
			_, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 1, StickyMarker(""), "x", "")
			var pe *PublishError
			if !errors.As(err, &pe) || pe.Kind != KindRateLimited {
				t.Fatalf("err = %v", err)
			}
			if name == "secondary" && !strings.Contains(err.Error(), "retry after 30s") {
				t.Errorf("message lacks the retry delay: %s", err)
			}
			if name == "primary" && !strings.Contains(err.Error(), "until") {
				t.Errorf("message lacks the reset time: %s", err)
			}
		})
	}
}

func gunzipBase64(t *testing.T, s string) []byte {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("not base64: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

const testSARIF = `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"mcp-surface"}},"results":[]}]}`

func TestUploadSARIF(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	sha := strings.Repeat("c", 40)
	id, err := c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/pull/42/merge", sha, []byte(testSARIF))
	if err != nil || id != "47177e22-5596-11eb-80a1-c1e54ef945c6" {
		t.Fatalf("UploadSARIF = %q, %v", id, err)
	}
	got := f.SARIFs()[0]
	if got["commit_sha"] != sha || got["ref"] != "refs/pull/42/merge" {
		t.Errorf("upload = %v", got)
	}
	if s := gunzipBase64(t, got["sarif"].(string)); string(s) != testSARIF {
		t.Errorf("uploaded SARIF = %s", s)
	}

	// Anything but 202 is an error, even a 2xx.
	for _, status := range []int{http.StatusOK, http.StatusCreated} {
		f.SetSARIFStatus(status)
		_, err := c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/pull/42/merge", sha, []byte(testSARIF))
		var pe *PublishError
		if !errors.As(err, &pe) || pe.Kind != KindUnexpected || pe.Status != status {
			t.Errorf("status %d: err = %v", status, err)
		}
	}

	f.FailOn("POST /repos/acme/weather-mcp/code-scanning/sarifs", githubtest.Failure{Status: 404, Message: "Advanced Security must be enabled for this repository to use code scanning."})
	_, err = c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/pull/42/merge", sha, []byte(testSARIF))
	var pe *PublishError
	if !errors.As(err, &pe) || pe.Kind != KindNotFound || !strings.Contains(err.Error(), "code scanning is not enabled") || !strings.Contains(err.Error(), "upload-sarif: false") {
		t.Errorf("404: err = %v", err)
	}

	f.FailOn("POST /repos/acme/weather-mcp/code-scanning/sarifs", githubtest.Failure{Status: 403, Message: "Advanced Security must be enabled for this repository to use code scanning."})
	_, err = c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/pull/42/merge", sha, []byte(testSARIF))
	if !errors.As(err, &pe) || pe.Kind != KindForbidden || !strings.Contains(err.Error(), "code scanning is not enabled") {
		t.Errorf("403 without Advanced Security: err = %v", err)
	}
	f.FailOn("POST /repos/acme/weather-mcp/code-scanning/sarifs", githubtest.Failure{Status: 403, Message: "Resource not accessible by integration"})
	_, err = c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/pull/42/merge", sha, []byte(testSARIF))
	if !errors.As(err, &pe) || pe.Kind != KindForbidden || !strings.Contains(err.Error(), "security-events: write") {
		t.Errorf("403 from a fork: err = %v", err)
	}

	before := len(f.Requests())
	for _, bad := range []struct{ ref, sha, sarif string }{
		{"main", sha, testSARIF},
		{"refs/heads/main", "abc", testSARIF},
		{"refs/heads/main", sha, `{"version":"2.0.0","runs":[]}`},
		{"refs/heads/main", sha, `{"version":"2.1.0"}`},
		{"refs/heads/main", sha, `not json`},
	} {
		if _, err := c.UploadSARIF(ctx, "acme", "weather-mcp", bad.ref, bad.sha, []byte(bad.sarif)); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
	if len(f.Requests()) != before {
		t.Error("invalid uploads reached the API")
	}
}

// lineSet is a LineSet for tests.
type lineSet map[string]map[int]bool

func (l lineSet) Contains(p string, n int) bool { return l[p][n] }

func TestCreateReviewKeepsCommentsInsideTheDiff(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	head := strings.Repeat("d", 40)
	allowed := lineSet{"src/tools.ts": {10: true, 11: true, 12: true, 40: true}, "server.py": {3: true}}
	// An earlier review already commented on key k-old at src/tools.ts:40.
	f.SetReviewComments(5, []map[string]any{
		{"id": 1, "path": "src/tools.ts", "line": 40, "body": "old\n\n" + keyMarker("k-old"), "user": map[string]any{"login": "github-actions[bot]"}},
		{"id": 2, "path": "server.py", "line": 3, "body": keyMarker("k-py"), "user": map[string]any{"login": "someone-else"}},
	})
	comments := []ReviewComment{
		{Path: "src/tools.ts", Line: 12, StartLine: 10, Body: "tool `search` removed", Key: "k1"},
		{Path: "src/tools.ts", Line: 99, Body: "outside the diff", Key: "k2"},
		{Path: "README.md", Line: 1, Body: "file not in the diff"},
		{Path: "src/tools.ts", Line: 40, Body: "again", Key: "k-old"},
		{Path: "server.py", Line: 3, StartLine: 1, Body: "range partly outside: kept as one line", Key: "k-py"},
		{Path: "../etc/passwd", Line: 1, Body: "bad path"},
		{Path: "src/tools.ts", Line: 11, Body: "over the cap"},
		{Path: "src/tools.ts", Line: 12, Body: "also over the cap"},
	}
	res, err := c.CreateReview(ctx, "acme", "weather-mcp", 5, head, comments, ReviewOptions{Allowed: allowed, Max: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := &ReviewResult{ReviewID: res.ReviewID, Posted: 2, OutsideDiff: 2, OverCap: 2, AlreadyPosted: 1, Invalid: 1}
	if diff := cmp.Diff(want, res); diff != "" || res.ReviewID == 0 {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if len(f.Reviews()) != 1 {
		t.Fatalf("%d reviews, want 1", len(f.Reviews()))
	}
	rv := f.Reviews()[0].Body
	if rv["commit_id"] != head || rv["event"] != "COMMENT" {
		t.Errorf("review = %v", rv)
	}
	body := rv["body"].(string)
	for _, s := range []string{ReviewMarker, "2 findings on lines outside", "2 over the limit of 2", "1 already commented", "1 without a usable file"} {
		if !strings.Contains(body, s) {
			t.Errorf("review body lacks %q:\n%s", s, body)
		}
	}
	got := rv["comments"].([]any)
	type sent struct {
		Path            string
		Line, StartLine float64
		Side            string
		Body            string
	}
	var gotSent []sent
	for _, g := range got {
		m := g.(map[string]any)
		s := sent{Path: m["path"].(string), Line: m["line"].(float64), Side: m["side"].(string), Body: m["body"].(string)}
		if v, ok := m["start_line"]; ok {
			s.StartLine = v.(float64)
		}
		gotSent = append(gotSent, s)
	}
	wantSent := []sent{
		{Path: "src/tools.ts", Line: 12, StartLine: 10, Side: "RIGHT", Body: "tool `search` removed\n\n" + keyMarker("k1")},
		{Path: "server.py", Line: 3, Side: "RIGHT", Body: "range partly outside: kept as one line\n\n" + keyMarker("k-py")},
	}
	if diff := cmp.Diff(wantSent, gotSent); diff != "" {
		t.Errorf("sent comments (-want +got):\n%s", diff)
	}

	// Nothing inside the diff: no request at all.
	n := len(f.Requests())
	res, err = c.CreateReview(ctx, "acme", "weather-mcp", 5, head, comments[1:3], ReviewOptions{Allowed: allowed})
	if err != nil || res.ReviewID != 0 || res.Posted != 0 || res.OutsideDiff != 2 {
		t.Errorf("outside only: %+v, %v", res, err)
	}
	if len(f.Requests()) != n {
		t.Error("a request was made with nothing to post")
	}
	if _, err := c.CreateReview(ctx, "acme", "weather-mcp", 5, head, comments, ReviewOptions{}); err == nil {
		t.Error("a review without the diff's lines was accepted")
	}
}

func TestCreateReviewRejectedIsPublishError(t *testing.T) {
	f := githubtest.New(t, "", testToken)
	c := testClient(t, f)
	f.FailOn("POST /repos/acme/weather-mcp/pulls/5/reviews", githubtest.Failure{Status: 422, Message: "Unprocessable Entity: Line could not be resolved"})
	_, err := c.CreateReview(ctx, "acme", "weather-mcp", 5, strings.Repeat("d", 40),
		[]ReviewComment{{Path: "a.go", Line: 1, Body: "x"}}, ReviewOptions{Allowed: lineSet{"a.go": {1: true}}})
	var pe *PublishError
	if !errors.As(err, &pe) || pe.Kind != KindInvalid || !strings.Contains(err.Error(), "outside the pull request's diff") {
		t.Errorf("err = %v", err)
	}
}

func TestFindPullRequestForSHAFromFork(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	head := strings.Repeat("e", 40)
	for n := 1; n <= 150; n++ {
		f.AddPull(githubtest.Pull{Number: n, State: "open", HeadSHA: fmt.Sprintf("%040x", n), HeadRepo: "acme/weather-mcp", HeadRef: fmt.Sprintf("b%d", n)})
	}
	// The fork's PR is old: on the second page of open PRs.
	f.AddPull(githubtest.Pull{Number: 17, State: "open", HeadSHA: head, HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	f.AddPull(githubtest.Pull{Number: 151, State: "closed", HeadSHA: head, HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})

	pr, err := c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", head)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Number != 17 || pr.HeadSHA != head || !pr.Fork || pr.HeadRepo != "contributor/weather-mcp" {
		t.Errorf("pr = %+v", pr)
	}
	if f.Count("GET", `/repos/acme/weather-mcp/commits/`+head+`/pulls`) != 1 || f.Count("GET", `/repos/acme/weather-mcp/pulls`) != 2 ||
		f.Count("GET", `/repos/acme/weather-mcp/pulls/17`) != 1 {
		t.Errorf("requests: %+v", f.Requests())
	}

	// The commit endpoint knows nothing of fork commits: 422 → fallback.
	f.SetCommitStatus(422)
	if pr, err := c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", head); err != nil || pr.Number != 17 {
		t.Errorf("after 422: %+v, %v", pr, err)
	}
	f.SetCommitStatus(0)

	// Two open PRs with the same head: ambiguous unless told apart.
	f.AddPull(githubtest.Pull{Number: 160, State: "open", HeadSHA: head, HeadRepo: "contributor/weather-mcp", HeadRef: "forecast-2"})
	if _, err := c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", head); !errors.Is(err, ErrAmbiguousPullRequest) || !strings.Contains(err.Error(), "#160, #17") {
		t.Errorf("ambiguous: err = %v", err)
	}
	pr, err = c.FindPullRequest(ctx, "acme", "weather-mcp", PullRequestQuery{HeadSHA: head, HeadRepo: "contributor/weather-mcp", HeadBranch: "forecast-2"})
	if err != nil || pr.Number != 160 {
		t.Errorf("with branch: %+v, %v", pr, err)
	}
	if _, err := c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", strings.Repeat("f", 40)); !errors.Is(err, ErrNoPullRequest) {
		t.Errorf("none: err = %v", err)
	}

	// Associated through the commit endpoint (same-repository PR).
	same := strings.Repeat("a", 40)
	f.AddPull(githubtest.Pull{Number: 200, State: "open", HeadSHA: same, HeadRepo: "acme/weather-mcp", HeadRef: "rename"})
	f.SetCommitPulls(same, 200)
	listsBefore := f.Count("GET", `/repos/acme/weather-mcp/pulls`)
	if pr, err := c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", same); err != nil || pr.Number != 200 || pr.Fork {
		t.Errorf("associated: %+v, %v", pr, err)
	}
	if f.Count("GET", `/repos/acme/weather-mcp/pulls`) != listsBefore {
		t.Error("listed open PRs although the commit endpoint answered")
	}
}

func validBundle() *Bundle {
	return &Bundle{
		Version:     BundleVersion,
		Repository:  "acme/weather-mcp",
		PullRequest: 17,
		HeadSHA:     strings.Repeat("e", 40),
		BaseSHA:     strings.Repeat("b", 40),
		Key:         "weather",
		Verdict:     Verdict{ExitCode: 1, Counts: Counts{Error: 2, Warning: 1}},
		Report:      []byte(`{"findings":[{"rule":"tool-removed","level":"error"}],"summary":{"error":2}}`),
		Markdown:    "## mcp-surface\n\n2 breaking changes <script>",
		SARIF:       []byte(testSARIF),
		ReviewComments: []ReviewComment{
			{Path: "src/tools.ts", Line: 12, Body: "removed", Key: "0123456789abcdef"},
		},
	}
}

func TestBundleRoundTripAndVerify(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteBundle(&buf, validBundle()); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBundle(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := validBundle()
	// RawMessage is kept byte for byte modulo indentation; compare decoded.
	if diff := cmp.Diff(want.Markdown, got.Markdown); diff != "" || got.PullRequest != 17 || got.Verdict != want.Verdict || len(got.ReviewComments) != 1 {
		t.Errorf("round trip: %+v", got)
	}
	if err := checkSARIF(got.SARIF); err != nil {
		t.Error(err)
	}

	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	f.AddPull(githubtest.Pull{Number: 17, State: "open", HeadSHA: strings.Repeat("e", 40), HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	exp := Expected{Repository: "acme/weather-mcp", HeadSHA: strings.Repeat("e", 40)}
	pr, err := got.Verify(ctx, c, exp)
	if err != nil || pr.Number != 17 {
		t.Fatalf("Verify = %+v, %v", pr, err)
	}
	for name, e := range map[string]Expected{
		"other repository": {Repository: "acme/other", HeadSHA: exp.HeadSHA},
		"other head":       {Repository: exp.Repository, HeadSHA: strings.Repeat("9", 40)},
		"other PR":         {Repository: exp.Repository, HeadSHA: exp.HeadSHA, PullRequest: 18},
	} {
		if _, err := got.Verify(ctx, c, e); !errors.Is(err, ErrBundleMismatch) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// The PR moved on since the analysis.
	f.AddPull(githubtest.Pull{Number: 17, State: "open", HeadSHA: strings.Repeat("7", 40), HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	if _, err := got.Verify(ctx, c, exp); !errors.Is(err, ErrBundleMismatch) || !strings.Contains(err.Error(), "head is now") {
		t.Errorf("moved: err = %v", err)
	}
	f.AddPull(githubtest.Pull{Number: 17, State: "closed", HeadSHA: strings.Repeat("e", 40), HeadRepo: "contributor/weather-mcp", HeadRef: "forecast"})
	if _, err := got.Verify(ctx, c, exp); !errors.Is(err, ErrBundleMismatch) {
		t.Errorf("closed: err = %v", err)
	}
	if _, err := got.Verify(ctx, c, Expected{Repository: exp.Repository}); err == nil {
		t.Error("verified without the trusted head commit")
	}
}

func TestReadBundleRejectsBadShapes(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteBundle(&buf, validBundle()); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	mutate := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("bundle lacks %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	cases := map[string]string{
		"unknown field":        mutate(`"version": 1,`, `"version": 1, "token": "x",`),
		"key in another case":  mutate(`"pull_request": 17`, `"PULL_REQUEST": 17`),
		"duplicate key":        mutate(`"pull_request": 17,`, `"pull_request": 17, "pull_request": 99,`),
		"duplicate nested key": mutate(`"exit_code": 1,`, `"exit_code": 1, "exit_code": 0,`),
		"number as string":     mutate(`"pull_request": 17`, `"pull_request": "17"`),
		"float number":         mutate(`"pull_request": 17`, `"pull_request": 17.5`),
		"version 2":            mutate(`"version": 1`, `"version": 2`),
		"bad head sha":         mutate(`"head_sha": "eeee`, `"head_sha": "--upload-pack=eeee`),
		"exit code 3":          mutate(`"exit_code": 1`, `"exit_code": 3`),
		"negative count":       mutate(`"error": 2`, `"error": -2`),
		"unknown verdict key":  mutate(`"exit_code": 1,`, `"exit_code": 1, "passed": true,`),
		"sarif 2.0":            mutate(`"version": "2.1.0"`, `"version": "2.0.0"`),
		"comment path":         mutate(`"path": "src/tools.ts"`, `"path": "../../etc/passwd"`),
		"comment unknown key":  mutate(`"line": 12,`, `"line": 12, "position": 3,`),
		"comment key marker":   mutate(`"key": "0123456789abcdef"`, `"key": "x --> <img src=x>"`),
		"trailing data":        good + `{"version": 1}`,
		"not an object":        `[]`,
		"markdown too long":    mutate(`"markdown": "`, `"markdown": "`+strings.Repeat("x", MaxCommentBytes)),
		"missing markdown":     mutate(`"markdown": "## mcp-surface\n\n2 breaking changes <script>",`, ``),
		"repository":           mutate(`"repository": "acme/weather-mcp"`, `"repository": "acme/weather-mcp/x"`),
		"not utf-8":            mutate(`<script>`, "\xff"),
	}
	raw := func(edit func(b *Bundle)) string {
		b := validBundle()
		edit(b)
		data, err := json.Marshal(b) // bypasses Validate
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	cases["report not object"] = raw(func(b *Bundle) { b.Report = []byte(`[{"findings":[]}]`) })
	cases["report without summary"] = raw(func(b *Bundle) { b.Report = []byte(`{"findings":[]}`) })
	cases["report null"] = raw(func(b *Bundle) { b.Report = []byte(`null`) })
	cases["sarif null"] = raw(func(b *Bundle) { b.SARIF = []byte(`null`) })
	cases["sarif string"] = raw(func(b *Bundle) { b.SARIF = []byte(`"2.1.0"`) })
	cases["too many comments"] = raw(func(b *Bundle) {
		for i := 0; i <= MaxBundleReviewComments; i++ {
			b.ReviewComments = append(b.ReviewComments, ReviewComment{Path: "a", Line: 1, Body: "b"})
		}
	})
	cases["deep nesting"] = raw(func(b *Bundle) {
		b.Report = []byte(`{"findings":[],"summary":{"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}`)
	})
	for name, data := range cases {
		_, err := ReadBundle(strings.NewReader(data))
		t.Logf("%s: %v", name, err)
		if !errors.Is(err, ErrInvalidBundle) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// Too large, without reading it all into memory first.
	big := io.MultiReader(strings.NewReader(`{"markdown":"`), io.LimitReader(zeroReader{}, MaxBundleBytes+10))
	if _, err := ReadBundle(big); !errors.Is(err, ErrInvalidBundle) || !strings.Contains(err.Error(), "over") {
		t.Errorf("too large: err = %v", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestTokenNeverInErrorsOrLogs drives every failure path against a server
// that echoes the Authorization header back in its error messages, and
// logs each error the way the CLI does.
func TestTokenNeverInErrorsOrLogs(t *testing.T) {
	f := githubtest.New(t, "/api/v3", testToken)
	c := testClient(t, f)
	for _, p := range []string{
		"GET /repos/acme/weather-mcp/issues/\\d+/comments",
		"POST /repos/acme/weather-mcp/pulls/\\d+/reviews",
		"POST /repos/acme/weather-mcp/code-scanning/sarifs",
		"GET /repos/acme/weather-mcp/pulls/\\d+",
		"GET /repos/acme/weather-mcp/pulls",
		"GET /repos/acme/weather-mcp/commits/[0-9a-f]+/pulls",
	} {
		f.FailOn(p, githubtest.Failure{Status: 403, Message: "denied for $AUTH"})
	}
	sha := strings.Repeat("e", 40)
	var errs []error
	_, err := c.UpsertStickyComment(ctx, "acme", "weather-mcp", 1, StickyMarker(""), "x", "")
	errs = append(errs, err)
	_, err = c.CreateReview(ctx, "acme", "weather-mcp", 1, sha, []ReviewComment{{Path: "a", Line: 1, Body: "b"}}, ReviewOptions{Allowed: lineSet{"a": {1: true}}})
	errs = append(errs, err)
	_, err = c.UploadSARIF(ctx, "acme", "weather-mcp", "refs/heads/main", sha, []byte(testSARIF))
	errs = append(errs, err)
	_, err = c.GetPullRequest(ctx, "acme", "weather-mcp", 1)
	errs = append(errs, err)
	_, err = c.FindPullRequestForSHA(ctx, "acme", "weather-mcp", sha)
	errs = append(errs, err)
	_, err = validBundle().Verify(ctx, c, Expected{Repository: "acme/weather-mcp", HeadSHA: sha})
	errs = append(errs, err)
	// A server that cannot be reached.
	down, _ := NewClient(Options{APIURL: "http://127.0.0.1:1/api/v3", Token: testToken})
	_, err = down.GetPullRequest(ctx, "acme", "weather-mcp", 1)
	errs = append(errs, err)

	var log bytes.Buffer
	env := actionenv.New(func(string) string { return "" }, &log)
	env.Mask(testToken)
	log.Reset() // the mask command itself carries the token, by design
	for i, err := range errs {
		t.Logf("call %d: %v", i, err)
		if err == nil {
			t.Errorf("call %d did not fail", i)
			continue
		}
		if strings.Contains(err.Error(), testToken) {
			t.Errorf("call %d: token in error: %s", i, err)
		}
		var pe *PublishError
		if !errors.As(err, &pe) {
			t.Errorf("call %d: %T, want *PublishError", i, err)
		}
		env.Warning(err.Error(), actionenv.Annotation{})
		env.Info(fmt.Sprintf("publishing failed: %v", err))
	}
	if strings.Contains(log.String(), testToken) {
		t.Errorf("token in the log:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "denied for Bearer ***") {
		t.Errorf("the echoed header was not redacted as expected:\n%s", log.String())
	}
}

func TestNewClientBaseURL(t *testing.T) {
	for _, bad := range []string{"api.github.com", "ftp://x/y", "https://user:pw@ghe.example/api/v3", "::"} {
		if _, err := NewClient(Options{APIURL: bad}); err == nil {
			t.Errorf("NewClient(%q) accepted", bad)
		}
	}
	c, err := NewClient(Options{})
	if err != nil || c.gh.BaseURL.String() != DefaultAPIURL+"/" {
		t.Errorf("default base URL = %v, %v", c.gh.BaseURL, err)
	}
	c, err = NewClient(Options{APIURL: "https://ghe.example/api/v3"})
	if err != nil || c.gh.BaseURL.String() != "https://ghe.example/api/v3/" {
		t.Errorf("GHES base URL = %v, %v", c.gh.BaseURL, err)
	}
}

// Only the last line of a review comment says which finding it is about:
// a key marker quoted above it (server text) is not ours.
func TestReviewCommentKeyOnlyOnLastLine(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"text\n\n" + keyMarker("k1"), "k1"},
		{"text\n\n" + keyMarker("k1") + "\r\n", "k1"},
		{keyMarker("k2"), "k2"},
		{"```\n" + keyMarker("forged") + "\n```\n\n" + keyMarker("k3"), "k3"},
		{"```\n" + keyMarker("forged") + "\n```", ""},
		{keyMarker("forged") + "\ntext", ""},
		{"quoting " + keyMarker("forged"), ""},
		{"", ""},
	} {
		if got := keyOf(tc.body); got != tc.want {
			t.Errorf("keyOf(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
