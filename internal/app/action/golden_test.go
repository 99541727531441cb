package action

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
)

// A scenario is a sequence of runs of the action against one repository
// and one stand-in GitHub, each recorded (record) and compared with its
// golden, testdata/runs/SCENARIO/RUN.txt; `go test -update` rewrites them.

// scenario is the state the runs of one scenario share.
type scenario struct {
	t     *testing.T // the scenario's test: what rows share outlives each row
	repo  *testRepo
	api   *stubGitHub // nil: no API (the run's GITHUB_API_URL is empty)
	ws    string
	names map[string]string
	// aliases are other strings a record writes as names (paths).
	aliases map[string]string
	// requests are the requests of the row's run, for its check.
	requests []githubtest.Request
}

// run is one row of a scenario's table: do runs the action (it may
// replace s.api with a fresh one), check makes the checks a golden cannot
// (files the run wrote, what must never appear).
type run struct {
	name  string
	do    func(t *testing.T, s *scenario) runResult
	check func(t *testing.T, s *scenario, res runResult)
}

// newScenario is a scenario on a fresh test repository with a fresh API.
func newScenario(t *testing.T) *scenario {
	t.Helper()
	s := &scenario{t: t, repo: newTestRepo(t), api: newStubGitHub(t)}
	s.name(s.repo.c0, "c0", s.repo.c1, "c1", s.repo.c2, "c2", s.repo.c3, "c3", s.repo.c4, "c4")
	return s
}

// name makes record write each sha as <name>: pairs of sha and name.
func (s *scenario) name(pairs ...string) {
	if s.names == nil {
		s.names = map[string]string{}
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s.names[pairs[i]] = "<" + pairs[i+1] + ">"
	}
}

// apiMark is how far the API's records went before a run.
type apiMark struct {
	api                       *stubGitHub
	requests, reviews, sarifs int
}

func (s *scenario) mark() apiMark {
	if s.api == nil {
		return apiMark{}
	}
	return apiMark{s.api, len(s.api.Requests()), len(s.api.Reviews()), len(s.api.SARIFs())}
}

// runTable runs the rows in order, each a subtest compared with its
// golden.
func runTable(t *testing.T, scenarioName string, s *scenario, rows []run) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			before := s.mark()
			res := r.do(t, s)
			if before.api != s.api {
				before = apiMark{api: s.api}
			}
			s.requests = nil
			if s.api != nil {
				s.requests = s.api.Requests()[before.requests:]
			}
			txtartest.Golden(t, filepath.Join("testdata", "runs", scenarioName, strings.ReplaceAll(r.name, " ", "-")+".txt"), []byte(s.record(res, before)))
			if r.check != nil {
				r.check(t, s, res)
			}
		})
	}
}

// maxPull bounds the pull request numbers whose comments a record lists
// after a run that wrote one.
const maxPull = 20

// issuePath is the path of an issue or of the issues.
var issuePath = regexp.MustCompile(`/issues(/\d+)?$`)

// annotation is a workflow command that shows in the run's page.
var annotation = regexp.MustCompile(`^::(error|warning|notice)\b`)

// record is what a run did, as a reviewer reads it: the exit code, the
// outputs, the requests made to GitHub and what they left there (the pull
// request's comments, reviews and SARIF uploads made by this run), the
// annotations of the log, stderr and the job summary. Paths, the API's
// address, the server binary and commits are written as names.
func (s *scenario) record(res runResult, before apiMark) string {
	var b strings.Builder
	bodies := map[string]string{} // a comment's text → its name
	fmt.Fprintf(&b, "exit %d\n", res.code)
	b.WriteString("\n-- outputs\n")
	keys := make([]string, 0, len(res.outputs))
	for k := range res.outputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, res.outputs[k])
	}
	if s.api != nil {
		b.WriteString("\n-- requests\n")
		reqs := s.api.Requests()[before.requests:]
		wrote := false
		for _, r := range reqs {
			fmt.Fprintf(&b, "%s %s\n", r.Method, r.Path)
			wrote = wrote || r.Method != "GET" && strings.Contains(r.Path, "/comments")
		}
		issues := false
		for _, r := range reqs {
			issues = issues || r.Method != "GET" && issuePath.MatchString(r.Path)
		}
		for i, is := range s.api.Issues() {
			if issues && i < maxPull {
				fmt.Fprintf(&b, "\n-- issue #%d (%s): %s\n%s\n", is.Number, is.State, is.Title, strings.TrimRight(is.Body, "\n"))
			}
		}
		for n := 1; wrote && n <= maxPull; n++ {
			for i, c := range s.api.Comments(n) {
				name := fmt.Sprintf("comment %d of #%d", i+1, n)
				fmt.Fprintf(&b, "\n-- %s\n%s\n", name, strings.TrimRight(c.Body, "\n"))
				bodies[strings.TrimRight(c.Body, "\n")] = name
			}
		}
		for _, r := range s.api.Reviews()[before.reviews:] {
			fmt.Fprintf(&b, "\n-- review of #%d on %v (%v)\n", r.PR, r.Body["commit_id"], r.Body["event"])
			cs, _ := r.Body["comments"].([]any)
			for _, c := range cs {
				m, _ := c.(map[string]any)
				fmt.Fprintf(&b, "%v:%v\n%v\n", m["path"], m["line"], m["body"])
			}
		}
		for _, up := range s.api.SARIFs()[before.sarifs:] {
			fmt.Fprintf(&b, "\n-- SARIF upload: ref %v, commit %v\n", up["ref"], up["commit_sha"])
		}
	}
	b.WriteString("\n-- annotations\n")
	for _, line := range strings.Split(res.stdout, "\n") {
		if annotation.MatchString(line) {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("\n-- stderr\n" + res.stderr)
	if name, ok := bodies[strings.TrimRight(res.summary, "\n")]; ok {
		b.WriteString("\n-- summary: the text of " + name + "\n")
	} else {
		b.WriteString("\n-- summary\n" + res.summary)
	}
	return s.normalize(b.String(), res)
}

// normalize writes the run's paths, the API's address, the server binary
// and the named commits as names, so that a record is the same on every
// machine and every run.
func (s *scenario) normalize(text string, res runResult) string {
	var pairs []string
	for _, p := range []struct{ path, name string }{{res.ws, "$WORKSPACE"}, {res.temp, "$RUNNER_TEMP"}, {os.Args[0], "$SERVER"}} {
		if p.path != "" {
			pairs = append(pairs, p.path, p.name)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(s.aliases)) {
		pairs = append(pairs, p, s.aliases[p])
	}
	if s.api != nil {
		// The address also appears escaped (http:&#8203;//...).
		host := strings.TrimPrefix(s.api.URL(), "http://")
		host = host[:strings.IndexByte(host+"/", '/')]
		pairs = append(pairs, s.api.URL(), "$API", host, "$API_HOST")
	}
	shas := make([]string, 0, len(s.names))
	for sha := range s.names {
		shas = append(shas, sha)
	}
	sort.Strings(shas)
	for _, sha := range shas {
		pairs = append(pairs, sha, s.names[sha], sha[:12], s.names[sha], sha[:7], s.names[sha])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// ws is the scenario's current workspace: a full clone, checked out at
// each run's head. fresh starts over with a new workspace and a new API.
func (s *scenario) fresh(t *testing.T) {
	t.Helper()
	s.api, s.ws = newStubGitHub(s.t), ""
}

// prStep is a run on pull request pr from the repository from (baseRepo
// or forkRepo) at head over base, in the scenario's workspace checked
// out at head; the API, when there is one, knows the pull request.
func (s *scenario) prStep(t *testing.T, pr int, base, head, from string, inputs map[string]string) *runnerStep {
	t.Helper()
	if s.api != nil {
		s.api.setPull(pr, "open", head, from, base)
	}
	if s.ws == "" {
		s.ws = s.repo.workspace(s.t, head)
	} else {
		gitIn(t, s.ws, "checkout", "-q", "--detach", head)
	}
	return newStep(t, s.api, s.ws, "pull_request", pullRequestEvent(pr, base, head, from), head, fmt.Sprintf("refs/pull/%d/merge", pr), inputs)
}

// built is the inputs that build and start the test repository's server,
// with more inputs as name, value pairs.
func built(more ...string) map[string]string {
	in := map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"}
	for i := 0; i+1 < len(more); i += 2 {
		in[more[i]] = more[i+1]
	}
	return in
}
