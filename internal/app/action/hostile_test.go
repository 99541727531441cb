package action

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/runnertest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// End-to-end tests of the action against hostile pull requests: a server
// of a matrix that tries to take over another server's comment, and a
// build and a server that look for the runner's credentials.

// helperServerEnv turns the re-executed test binary into a small MCP
// server (TestActionHelperServer): one tool whose description is the
// content of the file the variable names, so that a commit changes it.
const helperServerEnv = "ACTION_TEST_HELPER_DESCRIPTION_FILE"

// helperServerScript runs the helper server with description.txt of its
// working directory; with ACTION_TEST_ENV_DUMP set it first writes its
// environment there.
const helperServerScript = `#!/bin/sh
if [ -n "$ACTION_TEST_ENV_DUMP" ]; then env > "$ACTION_TEST_ENV_DUMP"; fi
` + helperServerEnv + `="$PWD/description.txt" exec "$ACTION_TEST_SERVER" -test.run='^TestActionHelperServer$'
`

// TestActionHelperServer is not a test: run by a server script of the
// tests below, it serves over stdio and exits.
func TestActionHelperServer(t *testing.T) {
	path := os.Getenv(helperServerEnv)
	if path == "" {
		t.Skip("the helper server of the action's end-to-end tests")
	}
	desc, err := os.ReadFile(path)
	if err != nil {
		os.Stderr.WriteString("helper server: " + err.Error() + "\n")
		os.Exit(1)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "beta", Version: "1.0.0"}, nil)
	srv.AddTool(&mcp.Tool{
		Name: "lookup", Description: strings.TrimRight(string(desc), "\n"),
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	_ = srv.Run(context.Background(), &mcp.IOTransport{Reader: os.Stdin, Writer: os.Stdout})
	// Before the testing package prints its verdict on stdout.
	os.Exit(0)
}

// helperSnapshot is the snapshot of the helper server with a description.
func helperSnapshot(t *testing.T, description string) []byte {
	t.Helper()
	dir := t.TempDir()
	descFile := filepath.Join(dir, "description.txt")
	if err := os.WriteFile(descFile, []byte(description), 0o644); err != nil {
		t.Fatal(err)
	}
	return captureSnapshot(t, append(os.Environ(), helperServerEnv+"="+descFile), os.Args[0], "-test.run=^TestActionHelperServer$")
}

// TestActionMatrixServerCannotHijackAnotherComment: a matrix of two
// servers, alpha and beta, one job each. The pull request puts alpha's
// comment marker in beta's tool description, which beta's comment shows in
// a text diff. Each job keeps editing its own comment: alpha's report never
// disappears, and no comment carries a live marker but its own.
func TestActionMatrixServerCannotHijackAnotherComment(t *testing.T) {
	t.Parallel()
	alphaMarker, betaMarker := report.Marker("alpha"), report.Marker("beta")
	const benign = "Looks things up in the catalogue."
	hostile := benign + "\n" + alphaMarker + "\nAlso <!-- hidden --> and -->.\n"

	origin := newOrigin(t)
	cfg := []byte("servers:\n  - name: alpha\n    command: [sh, alpha.sh]\n    snapshot: alpha.json\n  - name: beta\n    command: [sh, beta.sh]\n    snapshot: beta.json\n")
	base := commitFiles(t, origin, "two servers", map[string][]byte{
		"mcp/.mcp-surface.yaml": cfg,
		"mcp/alpha.sh":          []byte("#!/bin/sh\nMCP_SURFACE_TESTSERVER=full exec \"$ACTION_TEST_SERVER\"\n"),
		"mcp/beta.sh":           []byte(helperServerScript),
		"mcp/description.txt":   []byte(benign + "\n"),
		"mcp/alpha.json":        modeSnapshot(t, "full"),
		"mcp/beta.json":         helperSnapshot(t, benign),
	})
	head := commitFiles(t, origin, "beta: a longer description", map[string][]byte{"mcp/description.txt": []byte(hostile)})
	ws := cloneOf(t, origin)
	gitIn(t, ws, "checkout", "-q", "--detach", head)

	api := newStubGitHub(t)
	api.setPull(5, "open", head, baseRepo, base)
	job := func(server string) runResult {
		t.Helper()
		res := newStep(t, api, ws, "pull_request", pullRequestEvent(5, base, head, baseRepo), head, "refs/pull/5/merge",
			map[string]string{"working-directory": "mcp", "server": server, "comment": "always"}).run()
		if res.code == frontend.ExitFailure {
			t.Fatalf("job %s: %s", server, res)
		}
		if first, _, _ := strings.Cut(res.summary, "\n"); first != report.Marker(server) {
			t.Errorf("job %s: the job summary starts with %q", server, first)
		}
		checkOneMarker(t, "job "+server+"'s summary", res.summary)
		return res
	}
	// check says that each server has its own comment, in the order they
	// were created, and that beta's still shows beta's report.
	check := func(when string) {
		t.Helper()
		cs := api.Comments(5)
		if len(cs) != 2 {
			t.Fatalf("%s: %d comments, want one per server:\n%+v", when, len(cs), cs)
		}
		for i, want := range []string{betaMarker, alphaMarker} {
			if first, _, _ := strings.Cut(cs[i].Body, "\n"); first != want {
				t.Errorf("%s: comment %d starts with %q, want %q", when, i, first, want)
			}
			checkOneMarker(t, when+": comment "+want, cs[i].Body)
		}
		if !strings.Contains(cs[0].Body, "tool-description-changed") || !strings.Contains(cs[0].Body, `+ <\u0021-- mcp-surface:report id=alpha --\u003e`) {
			t.Errorf("%s: beta's comment lacks its text diff, the marker shown broken:\n%s", when, cs[0].Body)
		}
		if strings.Contains(cs[1].Body, "tool-description-changed") {
			t.Errorf("%s: alpha's comment holds beta's report:\n%s", when, cs[1].Body)
		}
	}

	job("beta")
	if cs := api.Comments(5); len(cs) != 1 {
		t.Fatalf("after beta's job: %d comments, want 1", len(cs))
	}
	job("alpha")
	check("after alpha's job")
	// The next push: both jobs again, in either order.
	job("beta")
	job("alpha")
	check("after the second run")
	job("alpha")
	job("beta")
	check("after the third run")
	if n := api.Count("POST", `/repos/acme/weather-mcp/issues/5/comments`); n != 2 {
		t.Errorf("%d comments created, want 2", n)
	}
}

// checkOneMarker: the only HTML comment opener or closer in a comment or
// summary is the marker on its first line.
func checkOneMarker(t *testing.T, what, body string) {
	t.Helper()
	_, rest, _ := strings.Cut(body, "\n")
	if strings.Contains(rest, "<!--") || strings.Contains(rest, "-->") {
		i := strings.Index(rest, "<!--")
		if i < 0 {
			i = strings.Index(rest, "-->")
		}
		t.Errorf("%s: an HTML comment opener or closer after the first line: %q", what, rest[max(0, i-80):min(len(rest), i+80)])
	}
}

// TestActionWithholdsRunnerCredentials: the build and the server of a
// pull request run without the runner's credentials, the inputs or the
// token under another name; pass-env lets one through on purpose.
func TestActionWithholdsRunnerCredentials(t *testing.T) {
	t.Parallel()
	origin := newOrigin(t)
	const desc = "Looks things up."
	sha := commitFiles(t, origin, "one server", map[string][]byte{
		"server.sh": []byte(helperServerScript), "description.txt": []byte(desc + "\n"),
		"mcp-surface.json": helperSnapshot(t, desc),
	})
	ws := cloneOf(t, origin)

	dumps := t.TempDir()
	credentials := map[string]string{
		"GITHUB_TOKEN":                   testToken,
		"ACTIONS_RUNTIME_TOKEN":          "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.runtime-token",
		"ACTIONS_RUNTIME_URL":            "https://pipelines.actions.example/abc/",
		"ACTIONS_ID_TOKEN_REQUEST_TOKEN": "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.oidc-request-token",
		"ACTIONS_ID_TOKEN_REQUEST_URL":   "https://oidc.actions.example/token?api-version=2.0",
		"ACTIONS_CACHE_URL":              "https://cache.actions.example/abc/",
		"ACTIONS_RESULTS_URL":            "https://results-receiver.actions.example/",
		"GH_TOKEN":                       testToken, // the token under a name of the job's own
	}
	for _, tc := range []struct {
		name, passEnv string
		passed        []string // credentials that arrive
	}{
		{name: "withheld"},
		{name: "passed on purpose", passEnv: "ACTIONS_ID_TOKEN_REQUEST_URL, ACTIONS_ID_TOKEN_REQUEST_TOKEN\nGH_TOKEN", passed: []string{"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "GH_TOKEN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			serverDump := filepath.Join(dumps, tc.name+".server")
			buildDump := filepath.Join(dumps, tc.name+".build")
			step := newStep(t, nil, ws, "push", pushEvent(strings.Repeat("0", 40), sha), sha, "refs/heads/main", map[string]string{
				"command": "sh server.sh", "build": `env > "$ACTION_TEST_BUILD_DUMP"`, "pass-env": tc.passEnv, "comment": "never",
			})
			for k, v := range credentials {
				step.vars[k] = v
			}
			step.vars["ACTION_TEST_ENV_DUMP"] = serverDump
			step.vars["ACTION_TEST_BUILD_DUMP"] = buildDump
			step.vars["MY_OWN_SETTING"] = "kept"
			res := step.run()
			if res.code != frontend.ExitOK {
				t.Fatalf("%s", res)
			}
			for what, path := range map[string]string{"the server": serverDump, "the build": buildDump} {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%s did not run: %v", what, err)
				}
				got := map[string]string{}
				for _, line := range strings.Split(string(data), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok {
						got[k] = v
					}
				}
				for name, value := range credentials {
					passed := slices.Contains(tc.passed, name)
					if v, ok := got[name]; ok != passed || (passed && v != value) {
						t.Errorf("%s: %s arrived: %v (%q), want %v", what, name, ok, v, passed)
					}
					if !passed && value != testToken && strings.Contains(string(data), value) {
						t.Errorf("%s: the value of %s arrived under another name", what, name)
					}
				}
				if !slices.Contains(tc.passed, "GH_TOKEN") && strings.Contains(string(data), testToken) {
					t.Errorf("%s received the token", what)
				}
				for k := range got {
					if strings.HasPrefix(strings.ToUpper(k), "INPUT_") {
						t.Errorf("%s received the input %s", what, k)
					}
				}
				if got["MY_OWN_SETTING"] != "kept" || got["PATH"] == "" {
					t.Errorf("%s lost the job's own variables: MY_OWN_SETTING=%q PATH=%q", what, got["MY_OWN_SETTING"], got["PATH"])
				}
			}
		})
	}
}

// TestActionConfigCannotReadRunnerCredentials: the pull request's
// .mcp-surface.yaml cannot send a withheld variable to its server through
// ${VAR} (here a probe's arguments): it reads as unset, unless pass-env
// names it.
func TestActionConfigCannotReadRunnerCredentials(t *testing.T) {
	t.Parallel()
	origin := newOrigin(t)
	const desc = "Looks things up."
	cfg := "servers:\n  - name: beta\n    command: [sh, server.sh]\n    snapshot: mcp-surface.json\n" +
		"    probes:\n      - method: tools/call\n        name: lookup\n        arguments: {q: \"${ACTIONS_RUNTIME_TOKEN}\"}\n"
	sha := commitFiles(t, origin, "one server, one probe", map[string][]byte{
		".mcp-surface.yaml": []byte(cfg), "server.sh": []byte(helperServerScript), "description.txt": []byte(desc + "\n"),
		"mcp-surface.json": helperSnapshot(t, desc),
	})
	ws := cloneOf(t, origin)
	for _, passEnv := range []string{"", "ACTIONS_RUNTIME_TOKEN"} {
		step := newStep(t, nil, ws, "push", pushEvent(strings.Repeat("0", 40), sha), sha, "refs/heads/main", map[string]string{
			"pass-env": passEnv, "comment": "never",
		})
		step.vars["ACTIONS_RUNTIME_TOKEN"] = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.runtime-token"
		res := step.run()
		if passEnv == "" {
			if res.code != frontend.ExitFailure || !strings.Contains(res.stdout, "environment variable ACTIONS_RUNTIME_TOKEN is not set") {
				t.Errorf("withheld: want exit 2 naming the variable, got %s", res)
			}
		} else if res.code != frontend.ExitOK {
			t.Errorf("pass-env %s: %s", passEnv, res)
		}
	}
}

// TestActionLogOfHostileServers runs the action against servers whose
// output tries to forge workflow commands, and reads its log (stdout and
// stderr) as the runner would.
func TestActionLogOfHostileServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode string
		code int
		want string
	}{
		{testserver.ModeHostileStderr, frontend.ExitFailure, `\u003a:add-mask::forged`},
		{testserver.ModeInvalidJSONCR, frontend.ExitFailure, `"a\r::error::forged`},
		{testserver.ModeHostileNoise, frontend.ExitFindings, "stdout-not-jsonrpc"},
		{testserver.ModeHostileNames, frontend.ExitOK, "tool-name-invalid"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			ws := t.TempDir()
			pidFile := filepath.Join(t.TempDir(), "pid")
			script := "#!/bin/sh\n" + testserver.EnvFor(tc.mode) + " " + testserver.PidFileVar + "=" + pidFile + ` exec "$ACTION_TEST_SERVER"` + "\n"
			if err := os.WriteFile(filepath.Join(ws, "server.sh"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			step := newStep(t, nil, ws, "workflow_dispatch", []byte(`{}`), "0123456789abcdef0123456789abcdef01234567", "refs/heads/main",
				map[string]string{"command": "sh server.sh", "baseline": "none", "comment": "never", "upload-sarif": "false"})
			r := step.run()
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, r)
			}
			if !strings.Contains(r.stdout+r.stderr+r.summary, tc.want) {
				t.Errorf("the log lacks %q:\n%s", tc.want, r)
			}
			runnertest.AssertNothingForged(t, "the log (stdout)", r.stdout)
			runnertest.AssertNothingForged(t, "stderr", r.stderr)
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(string(data))
			testserver.AssertGone(t, pid)
		})
	}
}
