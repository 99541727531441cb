package action

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// The end-to-end test of `mcp-surface action`: a real git repository, the
// test server at different modes at base and head, a stand-in GitHub REST
// API on loopback, and the environment a runner gives a step.

const (
	actToken    = "ghs_ActionTestToken0123456789abcdefXYZ"
	actRepoName = "acme/weather-mcp"
	actForkName = "contributor/weather-mcp"
)

// ---- the stand-in GitHub API ----

// actGitHub is the stand-in GitHub REST API the action publishes to:
// githubtest's, mounted under /api/v3 as GitHub Enterprise Server's API is,
// and taking actToken. It associates no commit with a pull request (422, as
// GitHub answers for a fork's commit): the publisher must fall back to the
// open pull requests.
type actGitHub struct{ *githubtest.Server }

func newActGitHub(t *testing.T) *actGitHub {
	api := &actGitHub{githubtest.New(t, "/api/v3", actToken)}
	api.SetCommitStatus(http.StatusUnprocessableEntity)
	return api
}

// setPull adds or replaces pull request number: from headRepo's branch
// feature at headSHA into main at baseSHA.
func (f *actGitHub) setPull(number int, state, headSHA, headRepo, baseSHA string) {
	f.AddPull(githubtest.Pull{Number: number, State: state, HeadSHA: headSHA, HeadRepo: headRepo, HeadRef: "feature", BaseSHA: baseSHA})
}

// ---- the repository ----

// captureSnapshot is the snapshot `mcp-surface capture -- cmd...` writes
// of a server started with environ.
func captureSnapshot(t *testing.T, environ []string, cmd ...string) []byte {
	t.Helper()
	caps, err := check.Captures(context.Background(), check.Options{
		Servers: []check.Server{{Command: cmd}}, Version: version, Clock: time.Now,
		Environ: environ, DeferShutdown: true,
	}, []string{capture.LatestRevision})
	if err != nil {
		t.Fatalf("capturing %q: %v", cmd, err)
	}
	m, err := manifest.Build(caps[0])
	caps[0].Wait()
	if err != nil {
		t.Fatalf("building the snapshot of %q: %v", cmd, err)
	}
	var b bytes.Buffer
	if err := manifest.EncodeTo(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	actSnapMu sync.Mutex
	actSnaps  = map[string][]byte{}
)

// actSnapshot is the committed snapshot of a test server mode.
func actSnapshot(t *testing.T, mode string) []byte {
	t.Helper()
	actSnapMu.Lock()
	defer actSnapMu.Unlock()
	if data, ok := actSnaps[mode]; ok {
		return data
	}
	data := captureSnapshot(t, append(os.Environ(), testserver.EnvFor(mode)), os.Args[0])
	actSnaps[mode] = data
	return data
}

// The server of the test repository: the build writes the mode, the
// script runs the test binary as that mode's server.
const actServerScript = `#!/bin/sh
# The MCP server of this repository: the test server in the mode the build wrote.
if [ -n "$ACTION_TEST_ENV_DUMP" ]; then env > "$ACTION_TEST_ENV_DUMP"; fi
MCP_SURFACE_TESTSERVER="$(cat mode)" exec "$ACTION_TEST_SERVER"
`

// actSource registers tools the way a TypeScript server does, so that
// findings about them are anchored to these lines.
func actSource(tools ...string) []byte {
	var b strings.Builder
	b.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\nconst server = new McpServer({ name: \"tracker\", version: \"1.0.0\" });\n\n")
	for _, name := range tools {
		fmt.Fprintf(&b, "server.registerTool(%q, { description: \"...\" }, handler);\n", name)
	}
	b.WriteString("\nexport default server;\n")
	return []byte(b.String())
}

// actRepo is the origin repository and its commits:
//
//	main:      c0  full, snapshot committed
//	pr1:       c0 ← c1 (tools-only, snapshot updated: breaking) ← c2 (back to full)
//	v2:        c0 ← c3 (tools-only, no snapshot, tools.js)
//	pr2:       c3 ← c4 (full, tools.js registers the added tools)
type actRepo struct {
	origin                string
	c0, c1, c2, c3, c4    string
	addedTools, keptTools []string
}

func newActRepo(t *testing.T) *actRepo {
	t.Helper()
	r := &actRepo{origin: filepath.Join(t.TempDir(), "origin")}
	if err := os.MkdirAll(r.origin, 0o755); err != nil {
		t.Fatal(err)
	}
	actGit(t, r.origin, "init", "-q")
	full, toolsOnly := actSnapshot(t, "full"), actSnapshot(t, "tools-only")
	r.c0 = actCommit(t, r.origin, "server", map[string][]byte{
		"server.sh":        []byte(actServerScript),
		"mode.src":         []byte("full\n"),
		".gitignore":       []byte("mode\nmcp-surface.sarif\nmcp-surface-bundle/\n"),
		"mcp-surface.json": full,
	})
	actGit(t, r.origin, "checkout", "-q", "-b", "pr1")
	r.c1 = actCommit(t, r.origin, "keep only the issue tools", map[string][]byte{"mode.src": []byte("tools-only\n"), "mcp-surface.json": toolsOnly})
	actGit(t, r.origin, "branch", "pr1-v1")
	r.c2 = actCommit(t, r.origin, "bring the tools back", map[string][]byte{"mode.src": []byte("full\n"), "mcp-surface.json": full})

	var m struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	json.Unmarshal(toolsOnly, &m)
	for _, tl := range m.Tools {
		r.keptTools = append(r.keptTools, tl.Name)
	}
	json.Unmarshal(full, &m)
	for _, tl := range m.Tools {
		if !actContains(r.keptTools, tl.Name) {
			r.addedTools = append(r.addedTools, tl.Name)
		}
	}
	actGit(t, r.origin, "checkout", "-q", "-b", "v2", r.c0)
	r.c3 = actCommit(t, r.origin, "v2: tools only, no snapshot", map[string][]byte{
		"mode.src": []byte("tools-only\n"), "mcp-surface.json": nil, "tools.js": actSource(r.keptTools...),
	})
	actGit(t, r.origin, "checkout", "-q", "-b", "pr2")
	r.c4 = actCommit(t, r.origin, "the whole tracker", map[string][]byte{
		"mode.src": []byte("full\n"), "tools.js": actSource(append(append([]string(nil), r.keptTools...), r.addedTools[:3]...)...),
	})
	actGit(t, r.origin, "checkout", "-q", "main")
	return r
}

func actContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// workspace is a full clone of the origin checked out at sha (detached),
// as actions/checkout leaves it with fetch-depth: 0.
func (r *actRepo) workspace(t *testing.T, sha string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	actGit(t, filepath.Dir(ws), "clone", "-q", "file://"+r.origin, ws)
	actGit(t, ws, "checkout", "-q", "--detach", sha)
	return ws
}

// shallowWorkspace is actions/checkout's default: one commit, no history.
func (r *actRepo) shallowWorkspace(t *testing.T, branch string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "shallow")
	actGit(t, filepath.Dir(ws), "clone", "-q", "--depth", "1", "--branch", branch, "file://"+r.origin, ws)
	return ws
}

// ---- events ----

func actRepoJSON(full string, fork bool) map[string]any {
	owner, name, _ := strings.Cut(full, "/")
	return map[string]any{
		"id": 712345678, "node_id": "R_kgDOKx1a2s", "name": name, "full_name": full, "private": false,
		"owner":    map[string]any{"login": owner, "id": 1234567, "type": "Organization"},
		"html_url": "https://github.com/" + full, "fork": fork, "default_branch": "main",
	}
}

// actPullRequestEvent is a pull_request "synchronize" payload.
func actPullRequestEvent(number int, baseSHA, headSHA, headRepo string) []byte {
	pr := map[string]any{
		"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", actRepoName, number),
		"id":  2109876543, "node_id": "PR_kwDOLx1a2s59u3fP", "number": number, "state": "open", "locked": false,
		"html_url": fmt.Sprintf("https://github.com/%s/pull/%d", actRepoName, number),
		"title":    "Rework the tools", "draft": false, "merged": false, "mergeable": nil,
		"user": map[string]any{"login": "contributor", "id": 7654321, "type": "User"},
		"body": "::set-output name=x::not a command\n@everyone",
		"head": map[string]any{"label": "contributor:feature", "ref": "feature", "sha": headSHA,
			"repo": actRepoJSON(headRepo, headRepo != actRepoName)},
		"base":               map[string]any{"label": "acme:main", "ref": "main", "sha": baseSHA, "repo": actRepoJSON(actRepoName, false)},
		"author_association": "CONTRIBUTOR", "commits": 2, "additions": 12, "deletions": 40, "changed_files": 2,
	}
	data, _ := json.MarshalIndent(map[string]any{
		"action": "synchronize", "number": number, "before": strings.Repeat("1", 40), "after": headSHA,
		"pull_request": pr, "repository": actRepoJSON(actRepoName, false),
		"sender": map[string]any{"login": "contributor", "id": 7654321, "type": "User"},
	}, "", "  ")
	return data
}

func actPushEvent(before, after string) []byte {
	data, _ := json.MarshalIndent(map[string]any{
		"ref": "refs/heads/main", "before": before, "after": after, "created": false, "deleted": false, "forced": false,
		"base_ref": nil, "repository": actRepoJSON(actRepoName, false),
		"pusher":      map[string]any{"name": "maintainer", "email": "maintainer@example.com"},
		"head_commit": map[string]any{"id": after, "message": "Merge pull request #7"},
	}, "", "  ")
	return data
}

// actWorkflowRunEvent is a workflow_run "completed" payload for a run of
// the analyzing workflow on a fork's pull request: pull_requests is empty.
func actWorkflowRunEvent(headSHA string) []byte {
	data, _ := json.MarshalIndent(map[string]any{
		"action": "completed",
		"workflow_run": map[string]any{
			"id": int64(10987654321), "name": "mcp-surface analyze", "head_branch": "feature", "head_sha": headSHA,
			"path": ".github/workflows/mcp-surface.yml", "run_number": 318, "event": "pull_request",
			"status": "completed", "conclusion": "failure", "run_attempt": 1, "pull_requests": []any{},
			"repository": actRepoJSON(actRepoName, false), "head_repository": actRepoJSON(actForkName, true),
		},
		"repository": actRepoJSON(actRepoName, false),
		"sender":     map[string]any{"login": "contributor", "id": 7654321},
	}, "", "  ")
	return data
}

// ---- one step ----

// actStep is one run of the action: the runner's environment for it.
type actStep struct {
	t      *testing.T
	vars   map[string]string
	dir    string // RUNNER_TEMP and the files the runner creates
	output string
	sum    string
}

// newActStep sets the environment as a runner does for a composite
// action's step: the default variables, the event file, empty output and
// summary files, and every input of action.yml as INPUT_<NAME> (hyphens
// kept) with action.yml's default unless given.
func newActStep(t *testing.T, api *actGitHub, ws, event string, payload []byte, sha, ref string, inputs map[string]string) *actStep {
	t.Helper()
	dir := t.TempDir()
	s := &actStep{t: t, dir: dir, output: filepath.Join(dir, "output"), sum: filepath.Join(dir, "summary"), vars: map[string]string{}}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GITHUB_"), strings.HasPrefix(k, "RUNNER_"), strings.HasPrefix(k, "INPUT_"),
			strings.HasPrefix(k, "ACTIONS_"), k == "CI", k == frontend.SchemaDirEnv, k == frontend.NowEnv, k == testserver.EnvVar:
		default:
			s.vars[k] = v
		}
	}
	eventPath := filepath.Join(dir, "event.json")
	for _, p := range []string{s.output, s.sum} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(eventPath, payload, 0o644); err != nil {
		t.Fatal(err)
	}
	apiURL := ""
	if api != nil {
		apiURL = api.URL()
	}
	for k, v := range map[string]string{
		"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": eventPath,
		"GITHUB_OUTPUT": s.output, "GITHUB_STEP_SUMMARY": s.sum, "GITHUB_API_URL": apiURL,
		"GITHUB_SERVER_URL": "https://github.example", "GITHUB_REPOSITORY": actRepoName, "GITHUB_REPOSITORY_OWNER": "acme",
		"GITHUB_SHA": sha, "GITHUB_REF": ref, "GITHUB_WORKSPACE": ws, "GITHUB_RUN_ID": "10987654321",
		"GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "mcp-surface", "GITHUB_ACTOR": "contributor", "GITHUB_WORKFLOW": "mcp-surface",
		"RUNNER_TEMP": dir, "RUNNER_TOOL_CACHE": filepath.Join(dir, "toolcache"), "RUNNER_OS": "Linux",
		frontend.SchemaDirEnv: spectest.SchemaDir(t), "ACTION_TEST_SERVER": os.Args[0],
	} {
		s.vars[k] = v
	}
	if event == "pull_request" {
		s.vars["GITHUB_HEAD_REF"], s.vars["GITHUB_BASE_REF"] = "feature", "main"
	}
	for _, in := range actionYAML(t).inputList() {
		v := in.def
		if v == TokenDefault {
			v = actToken // the runner evaluates ${{ github.token }}
		}
		if given, ok := inputs[in.name]; ok {
			v = given
		}
		s.vars["INPUT_"+strings.ToUpper(in.name)] = v
	}
	for name := range inputs {
		if _, ok := s.vars["INPUT_"+strings.ToUpper(name)]; !ok {
			t.Fatalf("input %q is not in action.yml", name)
		}
	}
	return s
}

type actResult struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	summary        string
}

func (s *actStep) run() actResult {
	s.t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code, err := Run(ctx, &Env{
		Stdout: &stdout, Stderr: &stderr, Getwd: os.Getwd, Clock: time.Now,
		Getenv: func(k string) string { return s.vars[k] },
		Environ: func() []string {
			var out []string
			for k, v := range s.vars {
				out = append(out, k+"="+v)
			}
			sort.Strings(out)
			return out
		},
	})
	// As the command line does: no server outlives the step, and an error
	// is exit 2 with its text on stderr.
	capture.WaitShutdowns()
	if err != nil {
		code = frontend.ExitFailure
		fmt.Fprintf(&stderr, "mcp-surface action: %s\n", frontend.LogText(err.Error()))
	}
	res := actResult{code: code, stdout: stdout.String(), stderr: stderr.String()}
	outData, _ := os.ReadFile(s.output)
	res.outputs = parseActOutputs(s.t, outData)
	sum, _ := os.ReadFile(s.sum)
	res.summary = string(sum)
	// The runner consumes ::add-mask:: commands: they never reach the log.
	// Masking the token comes first, before anything else is written.
	var logged []string
	for i, line := range strings.Split(res.stdout, "\n") {
		if strings.HasPrefix(line, "::add-mask::") {
			if strings.Contains(line, actToken) && i != 0 {
				s.t.Errorf("the token is masked on line %d of stdout, not first thing", i+1)
			}
			continue
		}
		logged = append(logged, line)
	}
	if !strings.HasPrefix(res.stdout, "::add-mask::"+actToken+"\n") {
		s.t.Errorf("stdout does not start by masking the token:\n%.300s", res.stdout)
	}
	for what, text := range map[string]string{"the log (stdout)": strings.Join(logged, "\n"), "stderr": res.stderr, "the job summary": res.summary, "the outputs": string(outData)} {
		if strings.Contains(text, actToken) {
			s.t.Errorf("the token appears in %s", what)
		}
	}
	for _, name := range []string{"sarif-file", "report-file", "bundle-file"} {
		if p := res.outputs[name]; p != "" {
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(actToken)) {
				s.t.Errorf("the token appears in %s", name)
			}
		}
	}
	return res
}

func (r actResult) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s\n--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// parseActOutputs reads a GITHUB_OUTPUT file: name<<DELIMITER, the value,
// DELIMITER.
func parseActOutputs(t *testing.T, data []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT line %q is not name<<DELIMITER", lines[i])
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("output %s: no closing delimiter", name)
		}
		if _, dup := out[name]; dup {
			t.Errorf("output %s set twice", name)
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

var (
	actSARIFOnce   sync.Once
	actSARIFSchema *jsonschema.Schema
	actSARIFErr    error
)

// checkActSARIF validates a SARIF file against the OASIS 2.1.0 schema
// (see sharedtest).
func checkActSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	path, err := sharedtest.SARIFSchema()
	sharedtest.Require(t, err)
	actSARIFOnce.Do(func() {
		actSARIFSchema, actSARIFErr = jsonschema.NewCompiler().Compile(path)
	})
	if actSARIFErr != nil {
		t.Fatalf("SARIF schema: %v", actSARIFErr)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := actSARIFSchema.Validate(inst); err != nil {
		t.Fatalf("SARIF does not match sarif-schema-2.1.0.json: %v", err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}

// ---- the tests ----

func TestActionPullRequestEndToEnd(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newActRepo(t)
	const pr = 7

	// Same-repository pull request, mode full: a breaking change.
	api := newActGitHub(t)
	api.setPull(pr, "open", repo.c1, actRepoName, repo.c0)
	ws := repo.workspace(t, repo.c1)
	envDump := filepath.Join(t.TempDir(), "server-env")
	step := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge",
		map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"})
	step.vars["ACTION_TEST_ENV_DUMP"] = envDump
	first := step.run()
	if first.code != frontend.ExitFindings {
		t.Fatalf("breaking change: want exit 1, got %s", first)
	}
	if n := api.Count("POST", `/repos/acme/weather-mcp/issues/7/comments`); n != 1 {
		t.Errorf("%d comments created, want 1", n)
	}
	comments := api.Comments(pr)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "<!-- mcp-surface:report id=default -->") || !strings.Contains(comments[0].Body, "tool-removed") {
		t.Fatalf("comment after the first run: %+v", comments)
	}
	want := map[string]string{"verdict": "fail", "exit-code": "1", "breaking": "true", "suggested-bump": "major"}
	for k, v := range want {
		if first.outputs[k] != v {
			t.Errorf("output %s = %q, want %q", k, first.outputs[k], v)
		}
	}
	for _, k := range Outputs {
		if _, ok := first.outputs[k]; !ok && k != "bundle-file" {
			t.Errorf("output %s not set", k)
		}
	}
	if n, _ := strconv.Atoi(first.outputs["errors"]); n < 20 {
		t.Errorf("errors = %q, want the 20 removed tools and more", first.outputs["errors"])
	}
	if h := first.outputs["manifest-hash"]; len(h) < 12 || h == first.outputs["base-manifest-hash"] || first.outputs["base-manifest-hash"] == "" {
		t.Errorf("manifest hashes: head %q, base %q", h, first.outputs["base-manifest-hash"])
	}
	if !strings.Contains(first.summary, "<!-- mcp-surface:report id=default -->") || !strings.Contains(first.summary, "### ❌ ") {
		t.Errorf("job summary lacks the report:\n%s", first.summary)
	}
	if !strings.Contains(first.stdout, "::error ") && !strings.Contains(first.stdout, "::error::") {
		t.Errorf("no error annotation on stdout:\n%s", first.stdout)
	}
	sarifData, err := os.ReadFile(first.outputs["sarif-file"])
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(first.outputs["sarif-file"]) != ws {
		t.Errorf("sarif-file %s is not in the workspace", first.outputs["sarif-file"])
	}
	log := checkActSARIF(t, sarifData)
	if runs, _ := log["runs"].([]any); len(runs) != 1 {
		t.Errorf("SARIF has %d runs, want 1", len(runs))
	}
	rep, err := os.ReadFile(first.outputs["report-file"])
	if err != nil || !json.Valid(rep) || !bytes.Contains(rep, []byte(`"tool-removed"`)) {
		t.Errorf("report-file %s: %v", first.outputs["report-file"], err)
	}
	if dump, err := os.ReadFile(envDump); err != nil {
		t.Errorf("the server did not run through server.sh: %v", err)
	} else if bytes.Contains(dump, []byte(actToken)) || bytes.Contains(dump, []byte("INPUT_")) {
		t.Errorf("the server's environment holds the inputs or the token")
	}

	// A later push fixes everything: the same comment says so, in one
	// line (comment: on-change).
	api.setPull(pr, "open", repo.c2, actRepoName, repo.c0)
	actGit(t, ws, "checkout", "-q", "--detach", repo.c2)
	step = newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c2, actRepoName), repo.c2, "refs/pull/7/merge",
		map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"})
	second := step.run()
	if second.code != frontend.ExitOK {
		t.Fatalf("fixed: want exit 0, got %s", second)
	}
	if n := api.Count("POST", `/repos/acme/weather-mcp/issues/\d+/comments`); n != 1 {
		t.Errorf("%d comments created in all, want 1", n)
	}
	if n := api.Count("PATCH", `/repos/acme/weather-mcp/issues/comments/\d+`); n != 1 {
		t.Errorf("%d comment updates, want 1", n)
	}
	comments = api.Comments(pr)
	if len(comments) != 1 || strings.Contains(comments[0].Body, "tool-removed") || !strings.Contains(comments[0].Body, "surface unchanged") || strings.Count(strings.TrimSpace(comments[0].Body), "\n") != 1 {
		t.Errorf("comment after the fix:\n%+v", comments)
	}
	if second.outputs["breaking"] != "false" || second.outputs["verdict"] != "pass" || second.outputs["errors"] != "0" {
		t.Errorf("outputs after the fix: %v", second.outputs)
	}

	t.Run("forbidden comment is a warning", func(t *testing.T) {
		api := newActGitHub(t)
		api.setPull(pr, "open", repo.c1, actRepoName, repo.c0)
		api.FailOn(`POST /repos/acme/weather-mcp/issues/\d+/comments`, githubtest.Failure{
			Status: http.StatusForbidden, Message: "Resource not accessible by integration", DocURL: "https://docs.github.com/rest"})
		ws := repo.workspace(t, repo.c1)
		res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge",
			map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"}).run()
		if res.code != frontend.ExitFindings || res.outputs["verdict"] != "fail" {
			t.Fatalf("a 403 must not change the verdict: %s", res)
		}
		if !strings.Contains(res.stdout, "::warning") || !strings.Contains(res.stdout, "forbidden") {
			t.Errorf("no warning for the 403:\n%s", res.stdout)
		}
		if !strings.Contains(res.summary, "Publishing") || !strings.Contains(res.summary, "pull-requests: write") || !strings.Contains(res.summary, "### ❌ ") {
			t.Errorf("the job summary should hold the verdict and the publishing problem:\n%s", res.summary)
		}
	})

	t.Run("comment on-change", func(t *testing.T) {
		api := newActGitHub(t)
		api.setPull(pr, "open", repo.c2, actRepoName, repo.c0)
		ws := repo.workspace(t, repo.c2)
		in := map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "comment": "on-change"}
		res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c2, actRepoName), repo.c2, "refs/pull/7/merge", in).run()
		if res.code != frontend.ExitOK {
			t.Fatalf("%s", res)
		}
		if n := api.Count("POST", `/repos/acme/weather-mcp/issues/\d+/comments`) + api.Count("PATCH", `.*`); n != 0 {
			t.Errorf("nothing changed and no comment yet: %d comments written", n)
		}
		if !strings.Contains(res.summary, "### ✅ ") {
			t.Errorf("the job summary is written whatever the comment mode:\n%s", res.summary)
		}
		api.setPull(pr, "open", repo.c1, actRepoName, repo.c0)
		actGit(t, ws, "checkout", "-q", "--detach", repo.c1)
		res = newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge", in).run()
		if res.code != frontend.ExitFindings || api.Count("POST", `/repos/acme/weather-mcp/issues/\d+/comments`) != 1 {
			t.Errorf("a breaking change is worth a comment: %s", res)
		}
	})

	t.Run("comment true and false", func(t *testing.T) {
		// What people type for the comment input: a boolean word means
		// always or never.
		for _, tc := range []struct {
			value string
			want  int
		}{{"true", 1}, {"Yes", 1}, {"false", 0}, {"OFF", 0}} {
			api := newActGitHub(t)
			api.setPull(pr, "open", repo.c1, actRepoName, repo.c0)
			ws := repo.workspace(t, repo.c1)
			res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge",
				map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "comment": tc.value, "shell": "no"}).run()
			if res.code != frontend.ExitFindings {
				t.Fatalf("comment: %s: %s", tc.value, res)
			}
			if n := len(api.Comments(pr)); n != tc.want {
				t.Errorf("comment: %s: %d comments, want %d", tc.value, n, tc.want)
			}
		}
	})

	t.Run("push compares with the previous commit", func(t *testing.T) {
		api := newActGitHub(t)
		ws := repo.workspace(t, repo.c1)
		res := newActStep(t, api, ws, "push", actPushEvent(repo.c0, repo.c1), repo.c1, "refs/heads/main",
			map[string]string{"command": "sh server.sh", "build": "cp mode.src mode"}).run()
		if res.code != frontend.ExitFindings || res.outputs["breaking"] != "true" {
			t.Fatalf("%s", res)
		}
		if n := len(api.Requests()); n != 0 {
			t.Errorf("a push has no pull request to comment on: %d API requests", n)
		}
	})

	t.Run("base-ref on another event", func(t *testing.T) {
		ws := repo.workspace(t, repo.c1)
		payload := []byte(`{"inputs": {}, "ref": "refs/heads/main", "repository": {"full_name": "acme/weather-mcp"}}`)
		res := newActStep(t, nil, ws, "workflow_dispatch", payload, repo.c1, "refs/heads/main",
			map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "base-ref": "main"}).run()
		if res.code != frontend.ExitFindings || res.outputs["breaking"] != "true" {
			t.Fatalf("%s", res)
		}
		res = newActStep(t, nil, ws, "workflow_dispatch", payload, repo.c1, "refs/heads/main",
			map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "base-ref": "no-such-branch"}).run()
		if res.code != frontend.ExitFailure || !strings.Contains(res.stderr, "fetch-depth: 0") {
			t.Errorf("an unknown base-ref is exit 2 with a hint: %s", res)
		}
	})

	t.Run("invalid input", func(t *testing.T) {
		ws := repo.workspace(t, repo.c1)
		res := newActStep(t, nil, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge",
			map[string]string{"command": "sh server.sh", "fail-on": "sometimes"}).run()
		if res.code != frontend.ExitFailure || !strings.Contains(res.stderr, `"fail-on"`) || res.outputs["exit-code"] != "2" {
			t.Errorf("a bad input is exit 2 naming the input: %s", res)
		}
		if !strings.Contains(res.stdout, "::error") || !strings.Contains(res.summary, "could not do its job") {
			t.Errorf("a failure shows as an error annotation and in the summary:\n%s\n%s", res.stdout, res.summary)
		}
		res = newActStep(t, nil, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actRepoName), repo.c1, "refs/pull/7/merge",
			map[string]string{"command": "sh server.sh", "comment": "sometimes"}).run()
		if res.code != frontend.ExitFailure || !strings.Contains(res.stderr, `input "comment": "sometimes" is not valid: use one of always, on-change, never (true means always, false means never)`) {
			t.Errorf("an unknown comment value is exit 2 listing the accepted values: %s", res)
		}
	})
}

func TestActionForkAnalyzeThenPublish(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newActRepo(t)
	const pr = 7

	// Unprivileged job: the fork's code runs in a shallow checkout; the
	// base commit is fetched. Nothing is sent to GitHub.
	api := newActGitHub(t)
	ws := repo.shallowWorkspace(t, "pr1-v1")
	if _, err := gitrepo.ResolveCommit(context.Background(), ws, repo.c0); err == nil {
		t.Fatal("the shallow clone already has the base commit")
	}
	analyze := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c0, repo.c1, actForkName), repo.c1, "refs/pull/7/merge",
		map[string]string{"mode": "analyze", "command": "sh server.sh", "build": "cp mode.src mode", "bundle": "out/bundle"}).run()
	if analyze.code != frontend.ExitFindings {
		t.Fatalf("analyze exits with the verdict: %s", analyze)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("analyze made %d API requests, want none", n)
	}
	bundlePath := analyze.outputs["bundle-file"]
	if bundlePath != filepath.Join(ws, "out", "bundle", github.BundleFileName) {
		t.Fatalf("bundle-file = %q", bundlePath)
	}
	b, err := github.ReadBundleFile(bundlePath)
	if err != nil {
		t.Fatal(err)
	}
	if b.PullRequest != pr || b.HeadSHA != repo.c1 || b.BaseSHA != repo.c0 || b.Repository != actRepoName || b.Verdict.ExitCode != 1 || b.Verdict.Counts.Error == 0 {
		t.Errorf("bundle: pr %d head %s base %s repo %s verdict %+v", b.PullRequest, b.HeadSHA, b.BaseSHA, b.Repository, b.Verdict)
	}
	checkActSARIF(t, b.SARIF)
	bundleData, _ := os.ReadFile(bundlePath)

	// Privileged job: workflow_run, no checkout of the pull request, the
	// artifact downloaded into the workspace.
	api.setPull(pr, "open", repo.c1, actForkName, repo.c0)
	publish := func(t *testing.T, data []byte, in map[string]string) actResult {
		t.Helper()
		pws := t.TempDir()
		dir := filepath.Join(pws, "mcp-surface-bundle")
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, github.BundleFileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs := map[string]string{"mode": "publish", "upload-sarif": "true", "review-comments": "true"}
		for k, v := range in {
			inputs[k] = v
		}
		return newActStep(t, api, pws, "workflow_run", actWorkflowRunEvent(repo.c1), repo.c0, "refs/heads/main", inputs).run()
	}

	t.Run("publish", func(t *testing.T) {
		res := publish(t, bundleData, nil)
		if res.code != frontend.ExitOK {
			t.Fatalf("publish exits 0 with a valid bundle: %s", res)
		}
		comments := api.Comments(pr)
		if len(comments) != 1 || !strings.Contains(comments[0].Body, "tool-removed") || !strings.HasPrefix(comments[0].Body, "<!-- mcp-surface:report id=default -->") {
			t.Fatalf("comments: %+v", comments)
		}
		if comments[0].Body != b.Markdown {
			t.Errorf("the published comment differs from the analysis's markdown")
		}
		sarifs := api.SARIFs()
		if len(sarifs) != 1 || sarifs[0]["ref"] != "refs/pull/7/head" || sarifs[0]["commit_sha"] != repo.c1 {
			t.Errorf("SARIF uploads: %v", sarifs)
		}
		if res.outputs["verdict"] != "fail" || res.outputs["breaking"] != "true" {
			t.Errorf("outputs: %v", res.outputs)
		}
		if !strings.Contains(res.summary, "tool-removed") {
			t.Errorf("summary:\n%s", res.summary)
		}
		// Published again: the same comment, not a second one.
		if res := publish(t, bundleData, nil); res.code != frontend.ExitOK || len(api.Comments(pr)) != 1 {
			t.Errorf("second publish: %s, %d comments", res, len(api.Comments(pr)))
		}
	})

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
	writes := func() int {
		return api.Count("POST", `.*`) + api.Count("PATCH", `.*`)
	}

	t.Run("tampered head commit is refused", func(t *testing.T) {
		before := writes()
		res := publish(t, tamper(t, func(m map[string]any) { m["head_sha"] = repo.c2 }), nil)
		if res.code != frontend.ExitFailure || !strings.Contains(res.stderr, "does not match") {
			t.Errorf("want exit 2 for a bundle of another commit: %s", res)
		}
		if writes() != before {
			t.Errorf("a refused bundle was published")
		}
	})
	t.Run("bundle for another pull request is refused", func(t *testing.T) {
		before := writes()
		res := publish(t, tamper(t, func(m map[string]any) { m["pull_request"] = 8 }), nil)
		if res.code != frontend.ExitFailure {
			t.Errorf("want exit 2: %s", res)
		}
		if writes() != before {
			t.Errorf("a refused bundle was published")
		}
	})
	t.Run("unknown field is refused", func(t *testing.T) {
		res := publish(t, tamper(t, func(m map[string]any) { m["token"] = "x" }), nil)
		if res.code != frontend.ExitFailure || !strings.Contains(res.stderr, "invalid bundle") {
			t.Errorf("want exit 2: %s", res)
		}
	})
	t.Run("bundle text is never posted", func(t *testing.T) {
		data := tamper(t, func(m map[string]any) {
			m["markdown"] = "<!-- mcp-surface:report id=default -->\n@everyone INJECTED [click](https://evil.example)"
			m["review_comments"] = []any{map[string]any{"path": "server.sh", "line": 1, "body": "INJECTED", "key": "0123456789abcdef"}}
		})
		res := publish(t, data, nil)
		if res.code != frontend.ExitOK {
			t.Fatalf("%s", res)
		}
		for _, c := range api.Comments(pr) {
			if strings.Contains(c.Body, "INJECTED") {
				t.Errorf("the bundle's markdown was posted")
			}
		}
		for _, r := range api.Reviews() {
			if strings.Contains(fmt.Sprint(r.Body), "INJECTED") {
				t.Errorf("the bundle's review comment text was posted")
			}
		}
	})
	t.Run("pull request moved on", func(t *testing.T) {
		api.setPull(pr, "open", repo.c2, actForkName, repo.c0)
		defer api.setPull(pr, "open", repo.c1, actForkName, repo.c0)
		before := writes()
		res := publish(t, bundleData, nil)
		if res.code != frontend.ExitOK || !strings.Contains(res.stdout, "::warning") {
			t.Errorf("a stale bundle is a warning, exit 0: %s", res)
		}
		if writes() != before {
			t.Errorf("a stale bundle was published")
		}
	})
	t.Run("missing bundle", func(t *testing.T) {
		res := newActStep(t, api, t.TempDir(), "workflow_run", actWorkflowRunEvent(repo.c1), repo.c0, "refs/heads/main",
			map[string]string{"mode": "publish"}).run()
		if res.code != frontend.ExitFailure {
			t.Errorf("want exit 2 without a bundle: %s", res)
		}
	})
}

func TestActionBaseBuiltInWorktreeWithReviewComments(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := newActRepo(t)
	const pr = 9
	api := newActGitHub(t)
	api.setPull(pr, "open", repo.c4, actRepoName, repo.c3)
	ws := repo.workspace(t, repo.c4)
	res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c3, repo.c4, actRepoName), repo.c4, "refs/pull/9/merge",
		map[string]string{"command": "sh server.sh", "build": "cp mode.src mode", "review-comments": "true", "max-review-comments": "2"}).run()
	if res.code != frontend.ExitOK {
		t.Fatalf("added tools do not fail at error: %s", res)
	}
	rep, err := os.ReadFile(res.outputs["report-file"])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(rep, []byte("(built)")) || !bytes.Contains(rep, []byte(`"tool-added"`)) {
		t.Errorf("the base should have been built in a worktree and compared:\n%.2000s", rep)
	}
	if res.outputs["base-manifest-hash"] == "" || res.outputs["suggested-bump"] == "" || res.outputs["notes"] == "0" {
		t.Errorf("outputs: %v", res.outputs)
	}
	reviews := api.Reviews()
	if len(reviews) != 1 {
		t.Fatalf("%d reviews, want 1", len(reviews))
	}
	if reviews[0].Body["commit_id"] != repo.c4 {
		t.Errorf("review on %v, want the head %s", reviews[0].Body["commit_id"], repo.c4)
	}
	src := strings.Split(string(actSource(append(append([]string(nil), repo.keptTools...), repo.addedTools[:3]...)...)), "\n")
	cs, _ := reviews[0].Body["comments"].([]any)
	if len(cs) != 2 {
		t.Fatalf("review comments %v, want the cap of 2", cs)
	}
	for _, c := range cs {
		m := c.(map[string]any)
		line := int(m["line"].(float64))
		if m["path"] != "tools.js" || line < 1 || line > len(src) {
			t.Errorf("comment at %v:%v", m["path"], m["line"])
			continue
		}
		found := false
		for _, name := range repo.addedTools[:3] {
			if strings.Contains(src[line-1], `"`+name+`"`) && strings.Contains(fmt.Sprint(m["body"]), "tool-added") {
				found = true
			}
		}
		if !found {
			t.Errorf("comment on line %d (%q) is not about a tool added there: %v", line, src[line-1], m["body"])
		}
	}
	// The same pull request from a fork, in a shallow checkout: analyze
	// fetches the history for the diff and puts the review comments in the
	// bundle; publish posts them with bodies it renders itself.
	t.Run("review comments through the bundle", func(t *testing.T) {
		api := newActGitHub(t)
		api.setPull(pr, "open", repo.c4, actForkName, repo.c3)
		ws := repo.shallowWorkspace(t, "pr2")
		res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(pr, repo.c3, repo.c4, actForkName), repo.c4, "refs/pull/9/merge",
			map[string]string{"mode": "analyze", "command": "sh server.sh", "build": "cp mode.src mode", "review-comments": "true"}).run()
		if res.code != frontend.ExitOK {
			t.Fatalf("%s", res)
		}
		b, err := github.ReadBundleFile(res.outputs["bundle-file"])
		if err != nil {
			t.Fatal(err)
		}
		if len(b.ReviewComments) != 3 {
			t.Fatalf("bundle review comments: %+v, want one per added tool", b.ReviewComments)
		}
		pws := t.TempDir()
		os.MkdirAll(filepath.Join(pws, "mcp-surface-bundle"), 0o755)
		data, _ := os.ReadFile(res.outputs["bundle-file"])
		os.WriteFile(filepath.Join(pws, "mcp-surface-bundle", github.BundleFileName), data, 0o644)
		res = newActStep(t, api, pws, "workflow_run", actWorkflowRunEvent(repo.c4), repo.c3, "refs/heads/main",
			map[string]string{"mode": "publish", "review-comments": "true"}).run()
		if res.code != frontend.ExitOK {
			t.Fatalf("%s", res)
		}
		reviews := api.Reviews()
		if len(reviews) != 1 {
			t.Fatalf("%d reviews, want 1", len(reviews))
		}
		cs, _ := reviews[0].Body["comments"].([]any)
		if len(cs) != 3 || reviews[0].Body["commit_id"] != repo.c4 {
			t.Errorf("review: %v", reviews[0].Body)
		}
		for i, c := range cs {
			m := c.(map[string]any)
			if m["path"] != b.ReviewComments[i].Path || int(m["line"].(float64)) != b.ReviewComments[i].Line || !strings.Contains(fmt.Sprint(m["body"]), "tool-added") {
				t.Errorf("review comment %d: %v", i, m)
			}
		}
	})
}

func TestActionSeveralServers(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	// servers: in .mcp-surface.yaml, one working directory: a section per
	// server in the comment, a SARIF run per server.
	origin := filepath.Join(t.TempDir(), "origin")
	os.MkdirAll(filepath.Join(origin, "mcp"), 0o755)
	actGit(t, origin, "init", "-q")
	cfg := []byte("servers:\n  - name: tracker\n    command: [sh, server.sh, full]\n    snapshot: tracker.json\n  - name: issues\n    command: [sh, server.sh, tools-only]\n    snapshot: issues.json\n")
	script := []byte("#!/bin/sh\nMCP_SURFACE_TESTSERVER=\"$1\" exec \"$ACTION_TEST_SERVER\"\n")
	base := actCommit(t, origin, "two servers", map[string][]byte{
		"mcp/.mcp-surface.yaml": cfg, "mcp/server.sh": script,
		"mcp/tracker.json": actSnapshot(t, "full"), "mcp/issues.json": actSnapshot(t, "full"),
	})
	head := actCommit(t, origin, "issues keeps fewer tools", map[string][]byte{"mcp/issues.json": actSnapshot(t, "tools-only")})
	ws := filepath.Join(t.TempDir(), "ws")
	actGit(t, filepath.Dir(ws), "clone", "-q", "file://"+origin, ws)

	api := newActGitHub(t)
	api.setPull(3, "open", head, actRepoName, base)
	res := newActStep(t, api, ws, "pull_request", actPullRequestEvent(3, base, head, actRepoName), head, "refs/pull/3/merge",
		map[string]string{"working-directory": "mcp"}).run()
	if res.code != frontend.ExitFindings {
		t.Fatalf("%s", res)
	}
	comments := api.Comments(3)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "id=issues+tracker") ||
		!strings.Contains(comments[0].Body, "#### <code>issues</code>") || !strings.Contains(comments[0].Body, "#### <code>tracker</code>") {
		t.Fatalf("one comment with a section per server: %+v", comments)
	}
	data, err := os.ReadFile(res.outputs["sarif-file"])
	if err != nil {
		t.Fatal(err)
	}
	log := checkActSARIF(t, data)
	if runs, _ := log["runs"].([]any); len(runs) != 2 {
		t.Errorf("SARIF has %d runs, want one per server", len(runs))
	}
	if !strings.Contains(res.outputs["manifest-hash"], "issues=") || !strings.Contains(res.outputs["manifest-hash"], "tracker=") {
		t.Errorf("manifest-hash for several servers: %q", res.outputs["manifest-hash"])
	}

	// One job of a matrix: input server picks one of them; its comment is
	// its own.
	res = newActStep(t, api, ws, "pull_request", actPullRequestEvent(3, base, head, actRepoName), head, "refs/pull/3/merge",
		map[string]string{"working-directory": "mcp", "server": "tracker", "comment": "always"}).run()
	if res.code != frontend.ExitOK {
		t.Fatalf("tracker alone passes: %s", res)
	}
	if comments := api.Comments(3); len(comments) != 2 || !strings.Contains(comments[1].Body, "id=tracker -->") {
		t.Errorf("the matrix job's own comment: %+v", comments)
	}
}

// ---- action.yml and its documentation ----

var updateActionDocs = flag.Bool("update-action-docs", false, "rewrite the generated tables of docs/action.md from action.yml")

type actionYAMLInput struct {
	Description string  `yaml:"description"`
	Default     *string `yaml:"default"`
	Required    bool    `yaml:"required"`
}

type actionYAMLStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
}

type actionManifest struct {
	Name        string                     `yaml:"name"`
	Description string                     `yaml:"description"`
	Inputs      map[string]actionYAMLInput `yaml:"inputs"`
	Outputs     map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string           `yaml:"using"`
		Steps []actionYAMLStep `yaml:"steps"`
	} `yaml:"runs"`
	inputOrder, outputOrder []string
}

type actNamedInput struct{ name, def, desc string }

// inputList is the inputs in the order of action.yml.
func (m *actionManifest) inputList() []actNamedInput {
	var out []actNamedInput
	for _, n := range m.inputOrder {
		in := m.Inputs[n]
		def := ""
		if in.Default != nil {
			def = *in.Default
		}
		out = append(out, actNamedInput{n, def, in.Description})
	}
	return out
}

var (
	actYAMLOnce sync.Once
	actYAML     *actionManifest
	actYAMLErr  error
)

// actionYAML parses action.yml at the repository root.
func actionYAML(t *testing.T) *actionManifest {
	t.Helper()
	actYAMLOnce.Do(func() {
		data, err := os.ReadFile(filepath.Join(sharedtest.Root(t), "action.yml"))
		if err != nil {
			actYAMLErr = err
			return
		}
		var m actionManifest
		if actYAMLErr = yaml.Unmarshal(data, &m); actYAMLErr != nil {
			return
		}
		var doc yaml.Node
		if actYAMLErr = yaml.Unmarshal(data, &doc); actYAMLErr != nil {
			return
		}
		top := doc.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			var order *[]string
			switch top.Content[i].Value {
			case "inputs":
				order = &m.inputOrder
			case "outputs":
				order = &m.outputOrder
			default:
				continue
			}
			for j := 0; j+1 < len(top.Content[i+1].Content); j += 2 {
				*order = append(*order, top.Content[i+1].Content[j].Value)
			}
		}
		actYAML = &m
	})
	if actYAMLErr != nil {
		t.Fatalf("action.yml: %v", actYAMLErr)
	}
	return actYAML
}

func TestActionYAML(t *testing.T) {
	t.Parallel()
	m := actionYAML(t)
	if m.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", m.Runs.Using)
	}
	if m.Name == "" || m.Description == "" {
		t.Error("action.yml needs a name and a description")
	}

	// Inputs: the same set, order and defaults as the binary's list, each
	// documented.
	var binary []string
	for _, in := range Inputs {
		binary = append(binary, in.Name)
	}
	if strings.Join(m.inputOrder, " ") != strings.Join(binary, " ") {
		t.Errorf("action.yml inputs:\n  %v\nthe binary reads (Inputs):\n  %v", m.inputOrder, binary)
	}
	for _, in := range Inputs {
		y, ok := m.Inputs[in.Name]
		if !ok {
			continue
		}
		if strings.TrimSpace(y.Description) == "" {
			t.Errorf("input %s has no description", in.Name)
		}
		def := ""
		if y.Default != nil {
			def = *y.Default
		}
		if def != in.Default && !(in.Default == "." && def == ".") {
			t.Errorf("input %s: action.yml default %q, the binary's %q", in.Name, def, in.Default)
		}
		if y.Required {
			t.Errorf("input %s is required: every input has a default or is optional", in.Name)
		}
	}

	// Every input is read by the binary: reading the configuration asks
	// for each INPUT_ variable.
	asked := map[string]bool{}
	ae := actionenv.New(func(k string) string {
		asked[k] = true
		return ""
	}, io.Discard)
	if _, err := readActionConfig(ae); err != nil {
		t.Fatalf("reading empty inputs: %v", err)
	}
	for _, name := range m.inputOrder {
		if !asked["INPUT_"+strings.ToUpper(name)] {
			t.Errorf("input %s is never read by the binary", name)
		}
	}

	// Outputs: the same set, each documented and mapped from the step that
	// runs the binary.
	if strings.Join(m.outputOrder, " ") != strings.Join(Outputs, " ") {
		t.Errorf("action.yml outputs:\n  %v\nthe binary sets (Outputs):\n  %v", m.outputOrder, Outputs)
	}
	var run *actionYAMLStep
	for i, s := range m.Runs.Steps {
		if strings.Contains(s.Run, " action") && strings.Contains(s.Run, "MCP_SURFACE_BIN") {
			run = &m.Runs.Steps[i]
		}
	}
	if run == nil || run.ID == "" {
		t.Fatal("no step with an id runs `mcp-surface action`")
	}
	for name, o := range m.Outputs {
		if strings.TrimSpace(o.Description) == "" {
			t.Errorf("output %s has no description", name)
		}
		if want := "${{ steps." + run.ID + ".outputs." + name + " }}"; o.Value != want {
			t.Errorf("output %s: value %q, want %q", name, o.Value, want)
		}
	}

	// Every input reaches the binary through env:, by the runner's name.
	for _, name := range m.inputOrder {
		key := "INPUT_" + strings.ToUpper(name)
		if want := "${{ inputs." + name + " }}"; run.Env[key] != want {
			t.Errorf("the run step's env %s = %q, want %q", key, run.Env[key], want)
		}
	}
	for key := range run.Env {
		if name, ok := strings.CutPrefix(key, "INPUT_"); ok {
			if _, known := m.Inputs[strings.ToLower(name)]; !known {
				t.Errorf("the run step passes %s, which is no input", key)
			}
		}
	}
	for _, s := range m.Runs.Steps {
		checkRunText(t, "action.yml step "+s.Name, s.Run)
		if s.Run != "" && s.Shell == "" {
			t.Errorf("action.yml step %q: a composite run step needs shell:", s.Name)
		}
	}
}

// checkRunText refuses expressions in shell text: inputs and event fields
// written into a script are a script injection. Values go through env:.
func checkRunText(t *testing.T, where, run string) {
	t.Helper()
	for _, bad := range []string{"${{ inputs.", "${{ github.event.", "${{inputs.", "${{github.event.", "${{ github.head_ref", "${{ env."} {
		if strings.Contains(run, bad) {
			t.Errorf("%s: run text contains %q...: pass it through env:", where, bad)
		}
	}
	if strings.Contains(run, "${{") {
		t.Errorf("%s: run text contains an expression; pass values through env:", where)
	}
}

// The project's workflows follow the same rule.
func TestWorkflowsRunText(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(sharedtest.Root(t), ".github", "workflows", "*.yml"))
	if len(files) == 0 {
		t.Fatal("no workflows in .github/workflows")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf struct {
			Permissions any `yaml:"permissions"`
			Jobs        map[string]struct {
				Permissions any              `yaml:"permissions"`
				Steps       []actionYAMLStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(data, &wf); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if wf.Permissions == nil {
			t.Errorf("%s: no top-level permissions: (the default token may write)", filepath.Base(f))
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				checkRunText(t, fmt.Sprintf("%s job %s step %q", filepath.Base(f), job, s.Name), s.Run)
			}
		}
	}
	// The examples of docs/action.md too.
	doc, err := os.ReadFile(filepath.Join(sharedtest.Root(t), "docs", "action.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	workflows := 0
	for i, b := range blocks {
		for _, line := range strings.Split(string(b[1]), "\n") {
			if strings.Contains(line, "run:") {
				checkRunText(t, fmt.Sprintf("docs/action.md example %d", i+1), line)
			}
		}
		if !bytes.Contains(b[1], []byte("\njobs:\n")) {
			continue // a fragment
		}
		workflows++
		var wf struct {
			Jobs map[string]struct {
				Steps []actionYAMLStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(b[1], &wf); err != nil {
			t.Errorf("docs/action.md yaml example %d: %v", i+1, err)
			continue
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				checkRunText(t, fmt.Sprintf("docs/action.md example %d job %s step %q", i+1, job, s.Name), s.Run)
			}
		}
	}
	if workflows < 4 {
		t.Errorf("docs/action.md has %d complete workflows, want the quick start, the matrix and the fork-safe pair", workflows)
	}
}

// actionDocTables renders the inputs and outputs tables of docs/action.md
// from action.yml.
func actionDocTables(m *actionManifest) (inputs, outputs string) {
	cell := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
	}
	var b strings.Builder
	b.WriteString("| Input | Default | Description |\n| --- | --- | --- |\n")
	for _, in := range m.inputList() {
		def := ""
		if in.def != "" {
			def = "`" + in.def + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", in.name, def, cell(in.desc))
	}
	inputs = b.String()
	b.Reset()
	b.WriteString("| Output | Description |\n| --- | --- |\n")
	for _, name := range m.outputOrder {
		fmt.Fprintf(&b, "| `%s` | %s |\n", name, cell(m.Outputs[name].Description))
	}
	return inputs, b.String()
}

func TestActionDocs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(sharedtest.Root(t), "docs", "action.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	inputs, outputs := actionDocTables(actionYAML(t))
	for _, part := range []struct{ name, table string }{{"inputs", inputs}, {"outputs", outputs}} {
		begin := "<!-- BEGIN " + part.name + " (generated from action.yml: go test ./internal/app/action -run TestActionDocs -update-action-docs) -->\n"
		end := "<!-- END " + part.name + " -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("docs/action.md lacks the markers %q ... %q", strings.TrimSpace(begin), end)
		}
		got := doc[i+len(begin) : j]
		if got != part.table {
			if *updateActionDocs {
				doc = doc[:i+len(begin)] + part.table + doc[j:]
				continue
			}
			t.Errorf("the %s table of docs/action.md is not the one action.yml gives; run with -update-action-docs", part.name)
		}
	}
	if *updateActionDocs {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every publishing failure kind has a troubleshooting entry, and the
	// section internal/app/github's hints point to exists.
	for _, kind := range []github.Kind{github.KindForbidden, github.KindNotFound, github.KindRateLimited, github.KindUnauthorized,
		github.KindInvalid, github.KindTooLarge, github.KindUnavailable, github.KindUnexpected} {
		if !strings.Contains(doc, "### `"+string(kind)+"`") {
			t.Errorf("docs/action.md: no troubleshooting entry \"### `%s`\"", kind)
		}
	}
	if !strings.Contains(doc, "\n## Fork pull requests\n") {
		t.Error("docs/action.md: no \"## Fork pull requests\" section")
	}
}
