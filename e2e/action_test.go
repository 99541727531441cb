package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
)

// TestActionBinary runs the built binary as the composite action's last
// step does: a separate process whose inputs are INPUT_<NAME> variables
// with hyphens (which only a process environment, not a shell, can carry),
// in a git checkout of a pull request whose head removes tools.
func TestActionBinary(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	repo := filepath.Join(tmp, "repo")
	r := gittest.Init(t, repo)
	server := filepath.Join(tmp, "testserver")
	if out, err := exec.Command("go", "build", "-o", server, "../internal/testkit/testserver/cmd/testserver").CombinedOutput(); err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}

	r.Write("server.sh", []byte("#!/bin/sh\nexec \"$E2E_TESTSERVER\" \"$(cat mode.src)\"\n"))
	r.Write("mode.src", []byte("full\n"))
	base := r.Commit("base")
	r.Write("mode.src", []byte("tools-only\n"))
	head := r.Commit("head")

	event := map[string]any{
		"action": "synchronize", "number": 5,
		"pull_request": map[string]any{
			"number": 5, "state": "open",
			"head": map[string]any{"ref": "feature", "sha": head, "repo": map[string]any{"full_name": "contributor/tracker", "fork": true}},
			"base": map[string]any{"ref": "main", "sha": base, "repo": map[string]any{"full_name": "acme/tracker"}},
		},
		"repository": map[string]any{"full_name": "acme/tracker"},
	}
	data, _ := json.Marshal(event)
	eventPath := filepath.Join(tmp, "event.json")
	outPath := filepath.Join(tmp, "output")
	sumPath := filepath.Join(tmp, "summary")
	os.WriteFile(eventPath, data, 0o644)
	os.WriteFile(outPath, nil, 0o644)
	os.WriteFile(sumPath, nil, 0o644)

	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GITHUB_") && !strings.HasPrefix(k, "INPUT_") && !strings.HasPrefix(k, "RUNNER_") {
			env = append(env, kv)
		}
	}
	env = append(env, "MCP_SURFACE_SCHEMA_DIR="+spectest.SchemaDir(t))
	const token = "ghs_e2eActionToken0123456789abcdef"
	env = append(env,
		"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+eventPath,
		"GITHUB_OUTPUT="+outPath, "GITHUB_STEP_SUMMARY="+sumPath, "GITHUB_REPOSITORY=acme/tracker",
		"GITHUB_SHA="+head, "GITHUB_REF=refs/pull/5/merge", "GITHUB_WORKSPACE="+repo,
		"RUNNER_TEMP="+tmp, "RUNNER_TOOL_CACHE="+filepath.Join(tmp, "toolcache"), "E2E_TESTSERVER="+server,
		"INPUT_MODE=analyze", "INPUT_COMMAND=sh server.sh", "INPUT_FAIL-ON=error", "INPUT_SNAPSHOT=mcp-surface.json",
		"INPUT_WORKING-DIRECTORY=.", "INPUT_BASELINE=auto", "INPUT_BUNDLE=bundle", "INPUT_GITHUB-TOKEN="+token,
		"INPUT_COMMENT=always", "INPUT_REVIEW-COMMENTS=false",
	)

	// Not in the workspace: the action finds it in GITHUB_WORKSPACE.
	res := runBinary(t, tmp, env, "action")
	if res.code != 1 {
		t.Fatalf("removed tools: want exit 1, got %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	out, _ := os.ReadFile(outPath)
	for _, want := range []string{"breaking<<", "\ntrue\n", "verdict<<", "\nfail\n", "bundle-file<<"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "bundle", "mcp-surface-bundle.json")); err != nil {
		t.Errorf("no bundle: %v", err)
	}
	sum, _ := os.ReadFile(sumPath)
	if !bytes.Contains(sum, []byte("tool-removed")) {
		t.Errorf("the job summary lacks the report:\n%s", sum)
	}
	log := strings.ReplaceAll(res.stdout, "::add-mask::"+token+"\n", "")
	for what, text := range map[string]string{"stdout": log, "stderr": res.stderr, "summary": string(sum), "outputs": string(out)} {
		if strings.Contains(text, token) {
			t.Errorf("the token appears in %s", what)
		}
	}
}
