package action

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
)

// A pull request from a fork: the unprivileged job analyzes the fork's
// code in a shallow checkout and sends nothing to GitHub; the privileged
// job (workflow_run) publishes the bundle it left, after checking it
// against the pull request, and renders every text it posts itself.
func TestForkAnalyzeThenPublish(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	r := s.repo
	var bundle *github.Bundle
	var bundleData []byte
	// publish runs the privileged job with data as the downloaded
	// artifact (nil: none).
	publish := func(t *testing.T, head string, data []byte, more ...string) runResult {
		t.Helper()
		ws := t.TempDir()
		if data != nil {
			dir := filepath.Join(ws, "mcp-surface-bundle")
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(filepath.Join(dir, github.BundleFileName), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inputs := map[string]string{"mode": "publish"}
		for i := 0; i+1 < len(more); i += 2 {
			inputs[more[i]] = more[i+1]
		}
		return newStep(t, s.api, ws, "workflow_run", workflowRunEvent(head), r.c0, "refs/heads/main", inputs).run()
	}
	full := []string{"upload-sarif", "true", "review-comments", "true"}
	tamper := func(t *testing.T, edit func(m map[string]any)) []byte {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(bundleData, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		data, _ := json.Marshal(m)
		return data
	}
	refused := func(t *testing.T, s *scenario, res runResult) {
		for _, req := range s.requests {
			if req.Method != "GET" {
				t.Errorf("a refused bundle was published: %s %s", req.Method, req.Path)
			}
		}
	}
	var reviewBundle *github.Bundle
	var reviewData []byte
	runTable(t, "fork", s, []run{{
		name: "analyze",
		do: func(t *testing.T, s *scenario) runResult {
			ws := r.shallowWorkspace(s.t, "pr1-v1")
			if _, err := gitrepo.ResolveCommit(context.Background(), ws, r.c0); err == nil {
				t.Fatal("the shallow clone already has the base commit")
			}
			return newStep(t, s.api, ws, "pull_request", pullRequestEvent(7, r.c0, r.c1, forkRepo), r.c1, "refs/pull/7/merge",
				built("mode", "analyze", "bundle", "out/bundle")).run()
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			if p := res.outputs["bundle-file"]; p != filepath.Join(res.ws, "out", "bundle", github.BundleFileName) {
				t.Fatalf("bundle-file = %q", p)
			}
			b, err := github.ReadBundleFile(res.outputs["bundle-file"])
			if err != nil {
				t.Fatal(err)
			}
			if b.PullRequest != 7 || b.HeadSHA != r.c1 || b.BaseSHA != r.c0 || b.Repository != baseRepo || b.Verdict.ExitCode != 1 || b.Verdict.Counts.Error == 0 {
				t.Errorf("bundle: pr %d head %s base %s repo %s verdict %+v", b.PullRequest, b.HeadSHA, b.BaseSHA, b.Repository, b.Verdict)
			}
			checkSARIF(t, b.SARIF)
			bundle = b
			bundleData, _ = os.ReadFile(res.outputs["bundle-file"])
			s.api.setPull(7, "open", r.c1, forkRepo, r.c0)
		},
	}, {
		name: "publish",
		do:   func(t *testing.T, s *scenario) runResult { return publish(t, r.c1, bundleData, full...) },
		check: func(t *testing.T, s *scenario, res runResult) {
			if c := s.api.Comments(7); len(c) != 1 || c[0].Body != bundle.Markdown {
				t.Errorf("the published comment differs from the analysis's markdown")
			}
		},
	}, {
		// Published again: the same comment, not a second one.
		name: "publish again",
		do:   func(t *testing.T, s *scenario) runResult { return publish(t, r.c1, bundleData, full...) },
		check: func(t *testing.T, s *scenario, res runResult) {
			if n := len(s.api.Comments(7)); n != 1 {
				t.Errorf("%d comments after a second publish, want 1", n)
			}
		},
	}, {
		name: "tampered head commit is refused",
		do: func(t *testing.T, s *scenario) runResult {
			return publish(t, r.c1, tamper(t, func(m map[string]any) { m["head_sha"] = r.c2 }), full...)
		},
		check: refused,
	}, {
		name: "bundle for another pull request is refused",
		do: func(t *testing.T, s *scenario) runResult {
			return publish(t, r.c1, tamper(t, func(m map[string]any) { m["pull_request"] = 8 }), full...)
		},
		check: refused,
	}, {
		name: "unknown field is refused",
		do: func(t *testing.T, s *scenario) runResult {
			return publish(t, r.c1, tamper(t, func(m map[string]any) { m["token"] = "x" }), full...)
		},
		check: refused,
	}, {
		name: "bundle text is never posted",
		do: func(t *testing.T, s *scenario) runResult {
			return publish(t, r.c1, tamper(t, func(m map[string]any) {
				m["markdown"] = "<!-- mcp-surface:report id=default -->\n@everyone INJECTED [click](https://evil.example)"
				m["review_comments"] = []any{map[string]any{"path": "server.sh", "line": 1, "body": "INJECTED", "key": "0123456789abcdef"}}
			}), full...)
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			for _, c := range s.api.Comments(7) {
				if strings.Contains(c.Body, "INJECTED") {
					t.Errorf("the bundle's markdown was posted")
				}
			}
			for _, r := range s.api.Reviews() {
				if strings.Contains(fmt.Sprint(r.Body), "INJECTED") {
					t.Errorf("the bundle's review comment text was posted")
				}
			}
		},
	}, {
		// The pull request moved on since the analysis: a warning, and
		// nothing published.
		name: "pull request moved on",
		do: func(t *testing.T, s *scenario) runResult {
			s.api.setPull(7, "open", r.c2, forkRepo, r.c0)
			defer s.api.setPull(7, "open", r.c1, forkRepo, r.c0)
			return publish(t, r.c1, bundleData, full...)
		},
		check: refused,
	}, {
		name: "missing bundle",
		do:   func(t *testing.T, s *scenario) runResult { return publish(t, r.c1, nil) },
	}, {
		// The added tools of pull request 9 from a fork: analyze fetches
		// the history for the diff and puts the review comments in the
		// bundle; publish posts them with bodies it renders itself.
		name: "analyze with review comments",
		do: func(t *testing.T, s *scenario) runResult {
			s.fresh(t)
			s.api.setPull(9, "open", r.c4, forkRepo, r.c3)
			ws := r.shallowWorkspace(s.t, "pr2")
			return newStep(t, s.api, ws, "pull_request", pullRequestEvent(9, r.c3, r.c4, forkRepo), r.c4, "refs/pull/9/merge",
				built("mode", "analyze", "review-comments", "true")).run()
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			b, err := github.ReadBundleFile(res.outputs["bundle-file"])
			if err != nil {
				t.Fatal(err)
			}
			if len(b.ReviewComments) != 3 {
				t.Fatalf("bundle review comments: %+v, want one per added tool", b.ReviewComments)
			}
			reviewBundle = b
			reviewData, _ = os.ReadFile(res.outputs["bundle-file"])
		},
	}, {
		name: "publish review comments",
		do: func(t *testing.T, s *scenario) runResult {
			return publish(t, r.c4, reviewData, "review-comments", "true")
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			reviews := s.api.Reviews()
			if len(reviews) != 1 {
				t.Fatalf("%d reviews, want 1", len(reviews))
			}
			cs, _ := reviews[0].Body["comments"].([]any)
			for i, c := range cs {
				m := c.(map[string]any)
				if m["path"] != reviewBundle.ReviewComments[i].Path || int(m["line"].(float64)) != reviewBundle.ReviewComments[i].Line {
					t.Errorf("review comment %d: %v", i, m)
				}
			}
			checkAddedToolLines(t, r, reviews[0], 3)
		},
	}})
}
