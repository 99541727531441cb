package action

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
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

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/githubtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// The end-to-end test of `mcp-surface action`: a real git repository, the
// test server at different modes at base and head, a stand-in GitHub REST
// API on loopback, and the environment a runner gives a step.

const (
	testToken = "ghs_ActionTestToken0123456789abcdefXYZ"
	baseRepo  = "acme/weather-mcp"
	forkRepo  = "contributor/weather-mcp"
)

// ---- the stand-in GitHub API ----

// stubGitHub is the stand-in GitHub REST API the action publishes to:
// githubtest's, mounted under /api/v3 as GitHub Enterprise Server's API is,
// and taking testToken. It associates no commit with a pull request (422, as
// GitHub answers for a fork's commit): the publisher must fall back to the
// open pull requests.
type stubGitHub struct{ *githubtest.Server }

func newStubGitHub(t *testing.T) *stubGitHub {
	api := &stubGitHub{githubtest.New(t, "/api/v3", testToken)}
	api.SetCommitStatus(http.StatusUnprocessableEntity)
	return api
}

// setPull adds or replaces pull request number: from headRepo's branch
// feature at headSHA into main at baseSHA.
func (f *stubGitHub) setPull(number int, state, headSHA, headRepo, baseSHA string) {
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
	modeSnapshotsMu sync.Mutex
	modeSnapshots   = map[string][]byte{}
)

// modeSnapshot is the committed snapshot of a test server mode.
func modeSnapshot(t *testing.T, mode string) []byte {
	t.Helper()
	modeSnapshotsMu.Lock()
	defer modeSnapshotsMu.Unlock()
	if data, ok := modeSnapshots[mode]; ok {
		return data
	}
	data := captureSnapshot(t, append(os.Environ(), testserver.EnvFor(mode)), os.Args[0])
	modeSnapshots[mode] = data
	return data
}

// The server of the test repository: the build writes the mode, the
// script runs the test binary as that mode's server.
const serverScript = `#!/bin/sh
# The MCP server of this repository: the test server in the mode the build wrote.
if [ -n "$ACTION_TEST_ENV_DUMP" ]; then env > "$ACTION_TEST_ENV_DUMP"; fi
MCP_SURFACE_TESTSERVER="$(cat mode)" exec "$ACTION_TEST_SERVER"
`

// toolsSource registers tools the way a TypeScript server does, so that
// findings about them are anchored to these lines.
func toolsSource(tools ...string) []byte {
	var b strings.Builder
	b.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\nconst server = new McpServer({ name: \"tracker\", version: \"1.0.0\" });\n\n")
	for _, name := range tools {
		fmt.Fprintf(&b, "server.registerTool(%q, { description: \"...\" }, handler);\n", name)
	}
	b.WriteString("\nexport default server;\n")
	return []byte(b.String())
}

// testRepo is the origin repository and its commits:
//
//	main:      c0  full, snapshot committed
//	pr1:       c0 ← c1 (tools-only, snapshot updated: breaking) ← c2 (back to full)
//	v2:        c0 ← c3 (tools-only, no snapshot, tools.js)
//	pr2:       c3 ← c4 (full, tools.js registers the added tools)
type testRepo struct {
	origin                string
	c0, c1, c2, c3, c4    string
	addedTools, keptTools []string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	r := &testRepo{origin: newOrigin(t)}
	full, toolsOnly := modeSnapshot(t, "full"), modeSnapshot(t, "tools-only")
	r.c0 = commitFiles(t, r.origin, "server", map[string][]byte{
		"server.sh":        []byte(serverScript),
		"mode.src":         []byte("full\n"),
		".gitignore":       []byte("mode\nmcp-surface.sarif\nmcp-surface-bundle/\n"),
		"mcp-surface.json": full,
	})
	gitIn(t, r.origin, "checkout", "-q", "-b", "pr1")
	r.c1 = commitFiles(t, r.origin, "keep only the issue tools", map[string][]byte{"mode.src": []byte("tools-only\n"), "mcp-surface.json": toolsOnly})
	gitIn(t, r.origin, "branch", "pr1-v1")
	r.c2 = commitFiles(t, r.origin, "bring the tools back", map[string][]byte{"mode.src": []byte("full\n"), "mcp-surface.json": full})

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
		if !slices.Contains(r.keptTools, tl.Name) {
			r.addedTools = append(r.addedTools, tl.Name)
		}
	}
	gitIn(t, r.origin, "checkout", "-q", "-b", "v2", r.c0)
	r.c3 = commitFiles(t, r.origin, "v2: tools only, no snapshot", map[string][]byte{
		"mode.src": []byte("tools-only\n"), "mcp-surface.json": nil, "tools.js": toolsSource(r.keptTools...),
	})
	gitIn(t, r.origin, "checkout", "-q", "-b", "pr2")
	r.c4 = commitFiles(t, r.origin, "the whole tracker", map[string][]byte{
		"mode.src": []byte("full\n"), "tools.js": toolsSource(append(append([]string(nil), r.keptTools...), r.addedTools[:3]...)...),
	})
	gitIn(t, r.origin, "checkout", "-q", "main")
	return r
}

// workspace is a full clone of the origin checked out at sha (detached),
// as actions/checkout leaves it with fetch-depth: 0.
func (r *testRepo) workspace(t *testing.T, sha string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	gitIn(t, filepath.Dir(ws), "clone", "-q", "file://"+r.origin, ws)
	gitIn(t, ws, "checkout", "-q", "--detach", sha)
	return ws
}

// shallowWorkspace is actions/checkout's default: one commit, no history.
func (r *testRepo) shallowWorkspace(t *testing.T, branch string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "shallow")
	gitIn(t, filepath.Dir(ws), "clone", "-q", "--depth", "1", "--branch", branch, "file://"+r.origin, ws)
	return ws
}

// ---- events ----

func repoJSON(full string, fork bool) map[string]any {
	owner, name, _ := strings.Cut(full, "/")
	return map[string]any{
		"id": 712345678, "node_id": "R_kgDOKx1a2s", "name": name, "full_name": full, "private": false,
		"owner":    map[string]any{"login": owner, "id": 1234567, "type": "Organization"},
		"html_url": "https://github.com/" + full, "fork": fork, "default_branch": "main",
	}
}

// pullRequestEvent is a pull_request "synchronize" payload.
func pullRequestEvent(number int, baseSHA, headSHA, headRepo string) []byte {
	pr := map[string]any{
		"url": fmt.Sprintf("https://api.github.com/repos/%s/pulls/%d", baseRepo, number),
		"id":  2109876543, "node_id": "PR_kwDOLx1a2s59u3fP", "number": number, "state": "open", "locked": false,
		"html_url": fmt.Sprintf("https://github.com/%s/pull/%d", baseRepo, number),
		"title":    "Rework the tools", "draft": false, "merged": false, "mergeable": nil,
		"user": map[string]any{"login": "contributor", "id": 7654321, "type": "User"},
		"body": "::set-output name=x::not a command\n@everyone",
		"head": map[string]any{"label": "contributor:feature", "ref": "feature", "sha": headSHA,
			"repo": repoJSON(headRepo, headRepo != baseRepo)},
		"base":               map[string]any{"label": "acme:main", "ref": "main", "sha": baseSHA, "repo": repoJSON(baseRepo, false)},
		"author_association": "CONTRIBUTOR", "commits": 2, "additions": 12, "deletions": 40, "changed_files": 2,
	}
	data, _ := json.MarshalIndent(map[string]any{
		"action": "synchronize", "number": number, "before": strings.Repeat("1", 40), "after": headSHA,
		"pull_request": pr, "repository": repoJSON(baseRepo, false),
		"sender": map[string]any{"login": "contributor", "id": 7654321, "type": "User"},
	}, "", "  ")
	return data
}

func pushEvent(before, after string) []byte {
	data, _ := json.MarshalIndent(map[string]any{
		"ref": "refs/heads/main", "before": before, "after": after, "created": false, "deleted": false, "forced": false,
		"base_ref": nil, "repository": repoJSON(baseRepo, false),
		"pusher":      map[string]any{"name": "maintainer", "email": "maintainer@example.com"},
		"head_commit": map[string]any{"id": after, "message": "Merge pull request #7"},
	}, "", "  ")
	return data
}

// workflowRunEvent is a workflow_run "completed" payload for a run of
// the analyzing workflow on a fork's pull request: pull_requests is empty.
func workflowRunEvent(headSHA string) []byte {
	data, _ := json.MarshalIndent(map[string]any{
		"action": "completed",
		"workflow_run": map[string]any{
			"id": int64(10987654321), "name": "mcp-surface analyze", "head_branch": "feature", "head_sha": headSHA,
			"path": ".github/workflows/mcp-surface.yml", "run_number": 318, "event": "pull_request",
			"status": "completed", "conclusion": "failure", "run_attempt": 1, "pull_requests": []any{},
			"repository": repoJSON(baseRepo, false), "head_repository": repoJSON(forkRepo, true),
		},
		"repository": repoJSON(baseRepo, false),
		"sender":     map[string]any{"login": "contributor", "id": 7654321},
	}, "", "  ")
	return data
}

// ---- one step ----

// runnerStep is one run of the action: the runner's environment for it.
type runnerStep struct {
	t      *testing.T
	vars   map[string]string
	dir    string // RUNNER_TEMP and the files the runner creates
	output string
	sum    string
}

// newStep sets the environment as a runner does for a composite
// action's step: the default variables, the event file, empty output and
// summary files, and every input of action.yml as INPUT_<NAME> (hyphens
// kept) with action.yml's default unless given.
func newStep(t *testing.T, api *stubGitHub, ws, event string, payload []byte, sha, ref string, inputs map[string]string) *runnerStep {
	t.Helper()
	dir := t.TempDir()
	s := &runnerStep{t: t, dir: dir, output: filepath.Join(dir, "output"), sum: filepath.Join(dir, "summary"), vars: map[string]string{}}
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
		"GITHUB_SERVER_URL": "https://github.example", "GITHUB_REPOSITORY": baseRepo, "GITHUB_REPOSITORY_OWNER": "acme",
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
			v = testToken // the runner evaluates ${{ github.token }}
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

type runResult struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	summary        string
	ws, temp       string // the step's workspace and RUNNER_TEMP
}

func (s *runnerStep) run() runResult {
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
	res := runResult{code: code, stdout: stdout.String(), stderr: stderr.String(), ws: s.vars["GITHUB_WORKSPACE"], temp: s.dir}
	outData, _ := os.ReadFile(s.output)
	res.outputs = parseOutputs(s.t, outData)
	sum, _ := os.ReadFile(s.sum)
	res.summary = string(sum)
	// The runner consumes ::add-mask:: commands: they never reach the log.
	// Masking the token comes first, before anything else is written.
	var logged []string
	for i, line := range strings.Split(res.stdout, "\n") {
		if strings.HasPrefix(line, "::add-mask::") {
			if strings.Contains(line, testToken) && i != 0 {
				s.t.Errorf("the token is masked on line %d of stdout, not first thing", i+1)
			}
			continue
		}
		logged = append(logged, line)
	}
	if !strings.HasPrefix(res.stdout, "::add-mask::"+testToken+"\n") {
		s.t.Errorf("stdout does not start by masking the token:\n%.300s", res.stdout)
	}
	for what, text := range map[string]string{"the log (stdout)": strings.Join(logged, "\n"), "stderr": res.stderr, "the job summary": res.summary, "the outputs": string(outData)} {
		if strings.Contains(text, testToken) {
			s.t.Errorf("the token appears in %s", what)
		}
	}
	for _, name := range []string{"sarif-file", "report-file", "bundle-file"} {
		if p := res.outputs[name]; p != "" {
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(testToken)) {
				s.t.Errorf("the token appears in %s", name)
			}
		}
	}
	return res
}

func (r runResult) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s\n--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// parseOutputs reads a GITHUB_OUTPUT file: name<<DELIMITER, the value,
// DELIMITER.
func parseOutputs(t *testing.T, data []byte) map[string]string {
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
	sarifOnce   sync.Once
	sarifSchema *jsonschema.Schema
	sarifErr    error
)

// checkSARIF validates a SARIF file against the OASIS 2.1.0 schema
// (see sharedtest).
func checkSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	path, err := sharedtest.SARIFSchema()
	sharedtest.Require(t, err)
	sarifOnce.Do(func() {
		sarifSchema, sarifErr = jsonschema.NewCompiler().Compile(path)
	})
	if sarifErr != nil {
		t.Fatalf("SARIF schema: %v", sarifErr)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sarifSchema.Validate(inst); err != nil {
		t.Fatalf("SARIF does not match sarif-schema-2.1.0.json: %v", err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	return m
}
