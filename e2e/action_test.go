package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/spectest"
)

// TestActionBinary runs the built binary as the composite action's last
// step does: a separate process whose inputs are INPUT_<NAME> variables
// with hyphens (which only a process environment, not a shell, can carry),
// in a git checkout of a pull request whose head removes tools.
func TestActionBinary(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	tmp := t.TempDir()
	server := filepath.Join(tmp, "testserver")
	if out, err := exec.Command("go", "build", "-o", server, "../internal/testserver/cmd/testserver").CombinedOutput(); err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}

	repo := filepath.Join(tmp, "repo")
	os.MkdirAll(repo, 0o755)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
			"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("server.sh", "#!/bin/sh\nexec \"$E2E_TESTSERVER\" \"$(cat mode.src)\"\n")
	write("mode.src", "full\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	write("mode.src", "tools-only\n")
	git("commit", "-q", "-am", "head")
	head := git("rev-parse", "HEAD")

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

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, "action")
	cmd.Dir = tmp // not the workspace: the action finds it in GITHUB_WORKSPACE
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 1 {
		t.Fatalf("removed tools: want exit 1, got %d\n%s\n%s", code, stdout.String(), stderr.String())
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
	log := strings.ReplaceAll(stdout.String(), "::add-mask::"+token+"\n", "")
	for what, text := range map[string]string{"stdout": log, "stderr": stderr.String(), "summary": string(sum), "outputs": string(out)} {
		if strings.Contains(text, token) {
			t.Errorf("the token appears in %s", what)
		}
	}
}
