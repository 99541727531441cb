package action

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// labeledEvent is pullRequestEvent as the labeled event sends it:
// the pull request with its labels.
func labeledEvent(t *testing.T, number int, baseSHA, headSHA string, labels ...string) []byte {
	t.Helper()
	var ev map[string]any
	if err := json.Unmarshal(pullRequestEvent(number, baseSHA, headSHA, baseRepo), &ev); err != nil {
		t.Fatal(err)
	}
	var ls []any
	for i, l := range labels {
		ls = append(ls, map[string]any{"id": 9000 + i, "name": l, "color": "d73a4a"})
	}
	ev["action"] = "labeled"
	ev["label"] = ls[len(ls)-1]
	ev["pull_request"].(map[string]any)["labels"] = ls
	data, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// reportFinding is what the tests read of a finding of the JSON report.
type reportFinding struct {
	Rule         string `json:"rule"`
	Level        string `json:"level"`
	Acknowledged string `json:"acknowledged"`
	Subject      struct {
		Kind, Name string
	} `json:"subject"`
}

// reportFindings are the findings of a run's JSON report.
func reportFindings(t *testing.T, res runResult) []reportFinding {
	t.Helper()
	data, err := os.ReadFile(res.outputs["report-file"])
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Findings []reportFinding `json:"findings"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

// logGroup is the text of the log group named title.
func logGroup(stdout, title string) string {
	_, rest, ok := strings.Cut(stdout, "::group::"+title+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "::endgroup::")
	return body
}

// An intended breaking change, as a maintainer lives it: the check fails
// and says what turns it green; the accept label does, and so does the
// pasted acknowledgement; one comment throughout, updated, reduced to one
// line when the change is reverted.
func TestAcceptIntendedBreak(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	r := s.repo
	// step runs on pull request 9 at head with payload, in a fresh
	// workspace.
	step := func(t *testing.T, head string, payload []byte) runResult {
		s.api.setPull(9, "open", head, baseRepo, r.c0)
		return newStep(t, s.api, r.workspace(t, head), "pull_request", payload, head, "refs/pull/9/merge", built()).run()
	}
	// branch commits files on a new branch from c1 of the origin.
	branch := func(name string, files map[string][]byte) string {
		gitIn(t, r.origin, "checkout", "-q", "-b", name, r.c1)
		defer gitIn(t, r.origin, "checkout", "-q", "main")
		sha := commitFiles(t, r.origin, name, files)
		s.name(sha, name)
		return sha
	}
	var ackYAML string
	runTable(t, "accept-label", s, []run{{
		// The break, unlabeled: red, and the comment says how to accept
		// it; the pull request committed the snapshot of its head, so no
		// word of refreshing it.
		name: "the break",
		do: func(t *testing.T, s *scenario) runResult {
			return step(t, r.c1, pullRequestEvent(9, r.c0, r.c1, baseRepo))
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			cs := s.api.Comments(9)
			if len(cs) != 1 {
				t.Fatalf("%d comments, want 1", len(cs))
			}
			body := cs[0].Body
			for _, want := range []string{DefaultAcceptLabel, "acknowledged:", "rule: tool-removed"} {
				if !strings.Contains(body, want) {
					t.Errorf("the comment does not say %q", want)
				}
			}
			if strings.Contains(strings.ToLower(body), "refresh") || strings.Contains(body, "mcp-surface snapshot -o") {
				t.Errorf("the pull request refreshed its snapshot, but the comment asks for it")
			}
			// The job summary holds every finding of the report, info
			// ones too: the full report beside the comment.
			all := reportFindings(t, res)
			if len(all) < 20 {
				t.Fatalf("%d findings, want the 20 removed tools and more", len(all))
			}
			for _, f := range all {
				if f.Subject.Name != "" && !strings.Contains(res.summary, report.Code(f.Subject.Name, report.MaxName)) {
					t.Errorf("the job summary lacks %s %s (%s)", f.Subject.Kind, f.Subject.Name, f.Rule)
				}
				if !strings.Contains(res.summary, report.Code(f.Rule, report.MaxName)) {
					t.Errorf("the job summary lacks the %s finding (%s)", f.Rule, f.Level)
				}
			}
			if len(res.summary) <= len(body) {
				t.Errorf("the job summary (%d bytes) is not the full report beside the comment (%d bytes)", len(res.summary), len(body))
			}
			ackYAML = logGroup(res.stdout, "mcp-surface: acknowledgements that turn the check green")
			if !strings.Contains(ackYAML, "acknowledged:") || strings.Count(ackYAML, "- rule:") < 20 {
				t.Fatalf("the log lacks the acknowledgements:\n%s", res.stdout)
			}
		},
	}, {
		// The label: green, every break acknowledged "accepted by
		// label", the same comment updated to say so.
		name: "labeled",
		do: func(t *testing.T, s *scenario) runResult {
			return step(t, r.c1, labeledEvent(t, 9, r.c0, r.c1, "enhancement", DefaultAcceptLabel))
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			accepted := 0
			for _, f := range reportFindings(t, res) {
				if f.Rule == "tool-removed" {
					if f.Acknowledged != check.AcceptedByLabel {
						t.Errorf("%s %s: acknowledged %q, want %q", f.Rule, f.Subject.Name, f.Acknowledged, check.AcceptedByLabel)
					}
					accepted++
				}
			}
			if accepted < 20 {
				t.Errorf("%d removed tools accepted, want them all", accepted)
			}
			if !strings.Contains(res.stdout, "breaking change(s) accepted") {
				t.Errorf("the log does not say the label accepted the break")
			}
		},
	}, {
		// A label the configuration names instead: the default one no
		// longer accepts anything; the configured one does, whatever its
		// case.
		name: "the default label when acceptLabel is set",
		do: func(t *testing.T, s *scenario) runResult {
			custom := branch("pr-custom-label", map[string][]byte{".mcp-surface.yaml": []byte("acceptLabel: breaking-ok\n")})
			return step(t, custom, labeledEvent(t, 9, r.c0, custom, DefaultAcceptLabel))
		},
	}, {
		name: "the configured label",
		do: func(t *testing.T, s *scenario) runResult {
			custom := gitIn(t, r.origin, "rev-parse", "pr-custom-label")
			return step(t, custom, labeledEvent(t, 9, r.c0, custom, "Breaking-OK"))
		},
	}, {
		// No label, the acknowledgements pasted with a reason: green.
		name: "acknowledgements pasted",
		do: func(t *testing.T, s *scenario) runResult {
			acked := branch("pr-acknowledged", map[string][]byte{
				".mcp-surface.yaml": []byte(strings.ReplaceAll(ackYAML, "reason: TODO", "reason: the issue tools move to their own server")),
			})
			return step(t, acked, pullRequestEvent(9, r.c0, acked, baseRepo))
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			for _, f := range reportFindings(t, res) {
				if f.Rule == "tool-removed" && f.Acknowledged != "the issue tools move to their own server" {
					t.Errorf("%s %s: acknowledged %q", f.Rule, f.Subject.Name, f.Acknowledged)
				}
			}
		},
	}, {
		// Reverted: the surface is the base's again; the comment
		// becomes one line; one comment was created, then updated.
		name: "reverted",
		do: func(t *testing.T, s *scenario) runResult {
			return step(t, r.c2, pullRequestEvent(9, r.c0, r.c2, baseRepo))
		},
		check: func(t *testing.T, s *scenario, res runResult) {
			if n := s.api.Count("POST", `/repos/acme/weather-mcp/issues/9/comments`); n != 1 {
				t.Errorf("%d comments created, want 1 (then updated)", n)
			}
			if n := s.api.Count("PATCH", `/repos/acme/weather-mcp/issues/comments/\d+`); n < 3 {
				t.Errorf("%d comment updates, want one per later run that changed it", n)
			}
		},
	}})
}
