package action

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
)

// A pull request from a branch of the same repository: the check, its
// comment kept up to date, the comment modes, a comment GitHub forbids,
// inputs people mistype, and review comments on the lines that register
// added tools (the base built in a worktree).
func TestSameRepositoryPullRequest(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	r := s.repo
	envDump := filepath.Join(t.TempDir(), "server-env")
	runTable(t, "same-repository", s, []run{{
		name: "breaking change",
		do: func(t *testing.T, s *scenario) runResult {
			st := s.prStep(t, 7, r.c0, r.c1, baseRepo, built())
			st.vars["ACTION_TEST_ENV_DUMP"] = envDump
			return st.run()
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			for _, k := range Outputs {
				if _, ok := res.outputs[k]; !ok && k != "bundle-file" {
					t.Errorf("output %s not set", k)
				}
			}
			if h := res.outputs["manifest-hash"]; len(h) < 12 || h == res.outputs["base-manifest-hash"] || res.outputs["base-manifest-hash"] == "" {
				t.Errorf("manifest hashes: head %q, base %q", h, res.outputs["base-manifest-hash"])
			}
			if filepath.Dir(res.outputs["sarif-file"]) != res.ws {
				t.Errorf("sarif-file %s is not in the workspace", res.outputs["sarif-file"])
			}
			sarifData, err := os.ReadFile(res.outputs["sarif-file"])
			if err != nil {
				t.Fatal(err)
			}
			if runs, _ := checkSARIF(t, sarifData)["runs"].([]any); len(runs) != 1 {
				t.Errorf("SARIF has %d runs, want 1", len(runs))
			}
			rep, err := os.ReadFile(res.outputs["report-file"])
			if err != nil || !json.Valid(rep) || !bytes.Contains(rep, []byte(`"tool-removed"`)) {
				t.Errorf("report-file %s: %v", res.outputs["report-file"], err)
			}
			if dump, err := os.ReadFile(envDump); err != nil {
				t.Errorf("the server did not run through server.sh: %v", err)
			} else if bytes.Contains(dump, []byte(testToken)) || bytes.Contains(dump, []byte("INPUT_")) {
				t.Errorf("the server's environment holds the inputs or the token")
			}
		},
	}, {
		// A later push fixes everything: the same comment says so, in
		// one line.
		name: "fixed by a later push",
		do: func(t *testing.T, s *scenario) runResult {
			return s.prStep(t, 7, r.c0, r.c2, baseRepo, built()).run()
		},
	}, {
		name: "forbidden comment is a warning",
		do: func(t *testing.T, s *scenario) runResult {
			s.fresh(t)
			s.api.FailOn(`POST /repos/acme/weather-mcp/issues/\d+/comments`, githubtest.Failure{
				Status: http.StatusForbidden, Message: "Resource not accessible by integration", DocURL: "https://docs.github.com/rest"})
			return s.prStep(t, 7, r.c0, r.c1, baseRepo, built()).run()
		},
	}, {
		// Nothing changed and no comment yet: none is written; the
		// job summary is, whatever the comment mode.
		name: "comment on-change, nothing changed",
		do: func(t *testing.T, s *scenario) runResult {
			s.fresh(t)
			return s.prStep(t, 7, r.c0, r.c2, baseRepo, built("comment", "on-change")).run()
		},
	}, {
		name: "comment on-change, a breaking change",
		do: func(t *testing.T, s *scenario) runResult {
			return s.prStep(t, 7, r.c0, r.c1, baseRepo, built("comment", "on-change")).run()
		},
	},
		// What people type for the comment input: a boolean word means
		// always or never.
		commentWord("true"), commentWord("Yes"), commentWord("false"), commentWord("OFF"),
		{
			name: "invalid fail-on",
			do: func(t *testing.T, s *scenario) runResult {
				s.api, s.ws = nil, ""
				return s.prStep(t, 7, r.c0, r.c1, baseRepo, map[string]string{"command": "sh server.sh", "fail-on": "sometimes"}).run()
			},
		}, {
			name: "invalid comment",
			do: func(t *testing.T, s *scenario) runResult {
				return s.prStep(t, 7, r.c0, r.c1, baseRepo, map[string]string{"command": "sh server.sh", "comment": "sometimes"}).run()
			},
		}, {
			// Tools added on top of a base without a snapshot: the base
			// is built in a worktree; review comments (at most 2) sit on
			// the lines of tools.js that register them.
			name: "review comments on added tools",
			do: func(t *testing.T, s *scenario) runResult {
				s.fresh(t)
				return s.prStep(t, 9, r.c3, r.c4, baseRepo, built("review-comments", "true", "max-review-comments", "2")).run()
			},
			check: func(t *testing.T, s *scenario, res runResult) {
				rep, err := os.ReadFile(res.outputs["report-file"])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(rep, []byte("(built)")) || !bytes.Contains(rep, []byte(`"tool-added"`)) {
					t.Errorf("the base should have been built in a worktree and compared:\n%.2000s", rep)
				}
				reviews := s.api.Reviews()
				if len(reviews) != 1 {
					t.Fatalf("%d reviews, want 1", len(reviews))
				}
				checkAddedToolLines(t, r, reviews[0], 2)
			},
		}, {
			// A pull request that changes nothing: no comment at all
			// (on-change), and the log says why.
			name: "no change, no comment",
			do: func(t *testing.T, s *scenario) runResult {
				s.fresh(t)
				return s.prStep(t, 11, r.c0, r.c2, baseRepo, built()).run()
			},
			check: func(t *testing.T, s *scenario, res runResult) {
				if !strings.Contains(res.stdout, "no earlier comment") {
					t.Errorf("the log does not say why there is no comment:\n%s", res.stdout)
				}
			},
		}, {
			// The tools the server now serves were registered on lines
			// the pull request did not touch: GitHub takes no review
			// comment there, and the log says so instead of leaving them
			// out silently.
			name: "review comments outside the diff",
			do: func(t *testing.T, s *scenario) runResult {
				gitIn(t, r.origin, "checkout", "-q", "-b", "registered-early", r.c3)
				registered := commitFiles(t, r.origin, "register the tools before serving them", map[string][]byte{
					"tools.js": toolsSource(append(append([]string(nil), r.keptTools...), r.addedTools[:3]...)...),
				})
				head := commitFiles(t, r.origin, "serve them", map[string][]byte{"mode.src": []byte("full\n")})
				gitIn(t, r.origin, "checkout", "-q", "main")
				s.name(registered, "registered", head, "serving")
				s.fresh(t)
				return s.prStep(t, 12, registered, head, baseRepo, built("review-comments", "true")).run()
			},
			check: func(t *testing.T, s *scenario, res runResult) {
				if !strings.Contains(res.stdout, "outside the pull request's diff") || !strings.Contains(res.stdout, "tools.js:") {
					t.Errorf("the log does not name the lines outside the diff:\n%s", res.stdout)
				}
			},
		}})
}

// commentWord is a run with the comment input set to word on a breaking
// change.
func commentWord(word string) run {
	return run{
		name: "comment " + word,
		do: func(t *testing.T, s *scenario) runResult {
			s.fresh(t)
			return s.prStep(t, 7, s.repo.c0, s.repo.c1, baseRepo, built("comment", word, "shell", "no")).run()
		},
	}
}

// checkAddedToolLines checks that the review's comments (want of them)
// each sit on the line of tools.js that registers a tool added at c4.
func checkAddedToolLines(t *testing.T, r *testRepo, review githubtest.Review, want int) {
	t.Helper()
	if review.Body["commit_id"] != r.c4 {
		t.Errorf("review on %v, want the head %s", review.Body["commit_id"], r.c4)
	}
	src := strings.Split(string(toolsSource(append(append([]string(nil), r.keptTools...), r.addedTools[:3]...)...)), "\n")
	cs, _ := review.Body["comments"].([]any)
	if len(cs) != want {
		t.Fatalf("review comments %v, want %d", cs, want)
	}
	for _, c := range cs {
		m := c.(map[string]any)
		line := int(m["line"].(float64))
		if m["path"] != "tools.js" || line < 1 || line > len(src) {
			t.Errorf("comment at %v:%v", m["path"], m["line"])
			continue
		}
		found := false
		for _, name := range r.addedTools[:3] {
			if strings.Contains(src[line-1], `"`+name+`"`) && strings.Contains(fmt.Sprint(m["body"]), "tool-added") {
				found = true
			}
		}
		if !found {
			t.Errorf("comment on line %d (%q) is not about a tool added there: %v", line, src[line-1], m["body"])
		}
	}
}

// servers: in .mcp-surface.yaml, one working directory: a section per
// server in the comment, a SARIF run per server; one job of a matrix
// (input server) has its own comment.
func TestSeveralServersPullRequest(t *testing.T) {
	t.Parallel()
	origin := newOrigin(t)
	cfg := []byte("servers:\n  - name: tracker\n    command: [sh, server.sh, full]\n    snapshot: tracker.json\n  - name: issues\n    command: [sh, server.sh, tools-only]\n    snapshot: issues.json\n")
	script := []byte("#!/bin/sh\nMCP_SURFACE_TESTSERVER=\"$1\" exec \"$ACTION_TEST_SERVER\"\n")
	base := commitFiles(t, origin, "two servers", map[string][]byte{
		"mcp/.mcp-surface.yaml": cfg, "mcp/server.sh": script,
		"mcp/tracker.json": modeSnapshot(t, "full"), "mcp/issues.json": modeSnapshot(t, "full"),
	})
	head := commitFiles(t, origin, "issues keeps fewer tools", map[string][]byte{"mcp/issues.json": modeSnapshot(t, "tools-only")})
	ws := cloneOf(t, origin)
	s := &scenario{t: t, api: newStubGitHub(t)}
	s.name(base, "base", head, "head")
	s.api.setPull(3, "open", head, baseRepo, base)
	step := func(inputs map[string]string) runResult {
		return newStep(t, s.api, ws, "pull_request", pullRequestEvent(3, base, head, baseRepo), head, "refs/pull/3/merge", inputs).run()
	}
	runTable(t, "several-servers", s, []run{{
		name: "both servers",
		do:   func(t *testing.T, s *scenario) runResult { return step(map[string]string{"working-directory": "mcp"}) },
		check: func(t *testing.T, s *scenario, res runResult) {
			data, err := os.ReadFile(res.outputs["sarif-file"])
			if err != nil {
				t.Fatal(err)
			}
			if runs, _ := checkSARIF(t, data)["runs"].([]any); len(runs) != 2 {
				t.Errorf("SARIF has %d runs, want one per server", len(runs))
			}
		},
	}, {
		name: "matrix job tracker",
		do: func(t *testing.T, s *scenario) runResult {
			return step(map[string]string{"working-directory": "mcp", "server": "tracker", "comment": "always"})
		},
	}})
}

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
