package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
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
func TestActionAcceptIntendedBreak(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newTestRepo(t)
	const pr = 9
	api := newStubGitHub(t)
	inputs := map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"}
	run := func(head string, payload []byte) runResult {
		t.Helper()
		api.setPull(pr, "open", head, baseRepo, repo.c0)
		return newStep(t, api, repo.workspace(t, head), "pull_request", payload, head, "refs/pull/9/merge", inputs).run()
	}
	comment := func(when string) string {
		t.Helper()
		cs := api.Comments(pr)
		if len(cs) != 1 {
			t.Fatalf("%s: %d comments, want 1: %+v", when, len(cs), cs)
		}
		return cs[0].Body
	}

	// 1. The break, unlabeled: red, and the comment says how to accept it.
	first := run(repo.c1, pullRequestEvent(pr, repo.c0, repo.c1, baseRepo))
	if first.code != frontend.ExitFindings {
		t.Fatalf("breaking change: want exit 1, got %s", first)
	}
	body := comment("the break")
	for _, want := range []string{DefaultAcceptLabel, "acknowledged:", "rule: tool-removed"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment does not say %q:\n%s", want, body)
		}
	}
	// The pull request committed the snapshot of its head: no word of
	// refreshing it.
	if strings.Contains(strings.ToLower(body), "refresh") || strings.Contains(body, "mcp-surface snapshot -o") {
		t.Errorf("the pull request refreshed its snapshot, but the comment asks for it:\n%s", body)
	}
	all := reportFindings(t, first)
	if len(all) < 20 {
		t.Fatalf("%d findings, want the 20 removed tools and more", len(all))
	}
	// The job summary holds every finding of the report, info ones too.
	for _, f := range all {
		if f.Subject.Name != "" && !strings.Contains(first.summary, report.Code(f.Subject.Name, report.MaxName)) {
			t.Errorf("the job summary lacks %s %s (%s)", f.Subject.Kind, f.Subject.Name, f.Rule)
		}
		if !strings.Contains(first.summary, report.Code(f.Rule, report.MaxName)) {
			t.Errorf("the job summary lacks the %s finding (%s)", f.Rule, f.Level)
		}
	}
	if len(first.summary) <= len(body) {
		t.Errorf("the job summary (%d bytes) is not the full report beside the comment (%d bytes)", len(first.summary), len(body))
	}
	ackYAML := logGroup(first.stdout, "mcp-surface: acknowledgements that turn the check green")
	if !strings.Contains(ackYAML, "acknowledged:") || strings.Count(ackYAML, "- rule:") < 20 {
		t.Fatalf("the log lacks the acknowledgements:\n%s", first.stdout)
	}

	// 2. The label: green, every break acknowledged "accepted by label",
	// the same comment updated to say so.
	labeled := run(repo.c1, labeledEvent(t, pr, repo.c0, repo.c1, "enhancement", DefaultAcceptLabel))
	if labeled.code != frontend.ExitOK {
		t.Fatalf("labeled: want exit 0, got %s", labeled)
	}
	if labeled.outputs["verdict"] != "pass" || labeled.outputs["breaking"] != "false" {
		t.Errorf("labeled outputs: %v", labeled.outputs)
	}
	accepted := 0
	for _, f := range reportFindings(t, labeled) {
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
	if body := comment("labeled"); !strings.Contains(body, "Accepted by label") || !strings.Contains(body, check.AcceptedByLabel) {
		t.Errorf("the labeled comment does not say the label accepted the break:\n%s", body)
	}
	if !strings.Contains(labeled.stdout, "breaking change(s) accepted") {
		t.Errorf("the log does not say the label accepted the break")
	}

	// A label the configuration names instead: the default one no longer
	// accepts anything.
	gitIn(t, repo.origin, "checkout", "-q", "-b", "pr-custom-label", repo.c1)
	custom := commitFiles(t, repo.origin, "a label of our own", map[string][]byte{".mcp-surface.yaml": []byte("acceptLabel: breaking-ok\n")})
	if res := run(custom, labeledEvent(t, pr, repo.c0, custom, DefaultAcceptLabel)); res.code != frontend.ExitFindings {
		t.Errorf("the default label with acceptLabel set: want exit 1, got %s", res)
	}
	if res := run(custom, labeledEvent(t, pr, repo.c0, custom, "Breaking-OK")); res.code != frontend.ExitOK {
		t.Errorf("the configured label: want exit 0, got %s", res)
	}

	// 3. No label, the acknowledgements pasted with a reason: green.
	gitIn(t, repo.origin, "checkout", "-q", "-b", "pr-acknowledged", repo.c1)
	acked := commitFiles(t, repo.origin, "acknowledge the removal", map[string][]byte{
		".mcp-surface.yaml": []byte(strings.ReplaceAll(ackYAML, "reason: TODO", "reason: the issue tools move to their own server")),
	})
	gitIn(t, repo.origin, "checkout", "-q", "main")
	pasted := run(acked, pullRequestEvent(pr, repo.c0, acked, baseRepo))
	if pasted.code != frontend.ExitOK {
		t.Fatalf("acknowledged: want exit 0, got %s", pasted)
	}
	for _, f := range reportFindings(t, pasted) {
		if f.Rule == "tool-removed" && f.Acknowledged != "the issue tools move to their own server" {
			t.Errorf("%s %s: acknowledged %q", f.Rule, f.Subject.Name, f.Acknowledged)
		}
	}
	if body := comment("acknowledged"); !strings.Contains(body, "the issue tools move to their own server") {
		t.Errorf("the comment does not show the acknowledgement:\n%s", body)
	}

	// 4. Reverted: the surface is the base's again; the comment becomes
	// one line.
	reverted := run(repo.c2, pullRequestEvent(pr, repo.c0, repo.c2, baseRepo))
	if reverted.code != frontend.ExitOK {
		t.Fatalf("reverted: want exit 0, got %s", reverted)
	}
	body = comment("reverted")
	if lines := strings.Split(strings.TrimSpace(body), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "surface unchanged") {
		t.Errorf("the comment after the revert is not one line under the marker:\n%s", body)
	}
	if n := api.Count("POST", `/repos/acme/weather-mcp/issues/9/comments`); n != 1 {
		t.Errorf("%d comments created, want 1 (then updated)", n)
	}
	if n := api.Count("PATCH", `/repos/acme/weather-mcp/issues/comments/\d+`); n < 3 {
		t.Errorf("%d comment updates, want one per later run that changed it", n)
	}
	// The summary still has the whole report.
	if !strings.Contains(reverted.summary, "mcp-surface") {
		t.Errorf("job summary after the revert:\n%s", reverted.summary)
	}
}

// A pull request that changes nothing: no comment at all (on-change).
func TestActionNoChangeNoComment(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newTestRepo(t)
	api := newStubGitHub(t)
	api.setPull(11, "open", repo.c2, baseRepo, repo.c0)
	res := newStep(t, api, repo.workspace(t, repo.c2), "pull_request", pullRequestEvent(11, repo.c0, repo.c2, baseRepo), repo.c2, "refs/pull/11/merge",
		map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"}).run()
	if res.code != frontend.ExitOK {
		t.Fatalf("no change: want exit 0, got %s", res)
	}
	if cs := api.Comments(11); len(cs) != 0 {
		t.Errorf("a comment for no change: %+v", cs)
	}
	if !strings.Contains(res.stdout, "no earlier comment") {
		t.Errorf("the log does not say why there is no comment:\n%s", res.stdout)
	}
	if res.summary == "" {
		t.Error("no job summary")
	}
}

// The tools a pull request's server now serves were registered on lines
// the pull request did not touch: GitHub takes no review comment there,
// and the log says so instead of leaving them out silently.
func TestActionReviewCommentsOutsideTheDiff(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newTestRepo(t)
	gitIn(t, repo.origin, "checkout", "-q", "-b", "registered-early", repo.c3)
	registered := commitFiles(t, repo.origin, "register the tools before serving them", map[string][]byte{
		"tools.js": toolsSource(append(append([]string(nil), repo.keptTools...), repo.addedTools[:3]...)...),
	})
	head := commitFiles(t, repo.origin, "serve them", map[string][]byte{"mode.src": []byte("full\n")})
	gitIn(t, repo.origin, "checkout", "-q", "main")

	api := newStubGitHub(t)
	api.setPull(12, "open", head, baseRepo, registered)
	res := newStep(t, api, repo.workspace(t, head), "pull_request", pullRequestEvent(12, registered, head, baseRepo), head, "refs/pull/12/merge",
		map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "review-comments": "true"}).run()
	if res.code != frontend.ExitOK {
		t.Fatalf("added tools do not fail: %s", res)
	}
	if !strings.Contains(res.stdout, "outside the pull request's diff") || !strings.Contains(res.stdout, "tools.js:") {
		t.Errorf("the log does not name the lines outside the diff:\n%s", res.stdout)
	}
	for _, r := range api.Reviews() {
		if cs, _ := r.Body["comments"].([]any); len(cs) > 0 {
			t.Errorf("review comments outside the diff: %v", cs)
		}
	}
}
