package guard

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session runs one go-sdk client session: every list paged to its end,
// then a call of the first tool, prompt and resource; it returns what the
// client's API gave, as JSON.
func session(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out []any
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	var prompts []*mcp.Prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, p)
	}
	var resources []*mcp.Resource
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		resources = append(resources, r)
	}
	var templates []*mcp.ResourceTemplate
	for r, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates = append(templates, r)
	}
	out = append(out, cs.InitializeResult(), tools, prompts, resources, templates)
	i := slices.IndexFunc(tools, func(x *mcp.Tool) bool { return x.Name == "ping" })
	if i < 0 {
		t.Fatalf("no tool ping among %d", len(tools))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, res)
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: prompts[0].Name, Arguments: map[string]string{}})
	out = append(out, pr, errText(err))
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: resources[0].URI})
	out = append(out, rr, errText(err))
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestGuardIsTransparent: a go-sdk client through the guard to a server
// whose lock is current gets every result it gets directly, and receives
// the very bytes, line for line.
func TestGuardIsTransparent(t *testing.T) {
	const mode = testserver.ModeFull
	l := lockOf(t, mode)

	tr, directBytes, stop := direct(t, mode)
	cs, _ := connect(t, tr)
	want := session(t, cs)
	// What came after the session's last answer (the answer to the
	// long-lived listen request, sent when the server sees its stdin
	// close) is left out: the client had stopped reading.
	dl := directBytes.Lines()
	cs.Close()
	stop()

	g := startGuard(t, l, mode, ModeBlock)
	cs, _ = connect(t, g.transport)
	got := session(t, cs)
	gl := g.received.Lines()
	cs.Close()
	if err := g.wait(t); err != nil {
		t.Fatalf("guard: %v\nstderr:\n%s", err, g.stderr)
	}
	if got != want {
		t.Errorf("results through the guard differ:\n got %s\nwant %s", got, want)
	}
	// The server may write a notification before or after an answer
	// (its goroutines race), so the lines are compared as a set.
	slices.Sort(gl)
	slices.Sort(dl)
	if len(dl) < 10 || !slices.Equal(gl, dl) {
		t.Errorf("the client received other bytes through the guard (%d lines) than directly (%d lines)", len(gl), len(dl))
		for i := range min(len(gl), len(dl)) {
			if gl[i] != dl[i] {
				t.Errorf("first difference:\n got %s\nwant %s", gl[i], dl[i])
				break
			}
		}
	}
	if !strings.Contains(g.log.String(), `"decision":"checked"`) || strings.Contains(g.log.String(), `"change":`) {
		t.Errorf("a current lock made decisions:\n%s", g.stderr)
	}
	if !strings.Contains(g.stderr.String(), "checked tools/list: 4 tool(s), 4 as locked") {
		t.Errorf("stderr does not say the pages were checked:\n%s", g.stderr)
	}
}

// decisions reads the log file's JSON lines.
func decisions(t *testing.T, log string) []Decision {
	t.Helper()
	var out []Decision
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var d Decision
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, d)
	}
	return out
}

// toolNames lists the tools a client is shown, with their descriptions.
func toolNames(t *testing.T, cs *mcp.ClientSession) map[string]string {
	t.Helper()
	out := map[string]string{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool.Description
	}
	return out
}

// pull calls a hook of the rug-pull server and waits for its list_changed.
func pull(t *testing.T, cs *mcp.ClientSession, changed chan struct{}, hook string) {
	t.Helper()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: hook}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(time.Minute):
		t.Fatal("no notifications/tools/list_changed within a minute")
	}
}

// TestGuardBlocksARugPull: the server turns a description into an
// instruction mid-session; the next listing lacks the tool, a call to it
// is refused with an error naming it, the client never receives the new
// text, and stderr and the log say what happened. A typo fixed meanwhile
// passes, with a log line.
func TestGuardBlocksARugPull(t *testing.T) {
	const mode = testserver.ModeRugPull
	l := lockOf(t, mode)
	g := startGuard(t, l, mode, ModeBlock)
	cs, changed := connect(t, g.transport)

	if d := toolNames(t, cs); len(d) != 4 || d["read_file"] != testserver.ReadFileDescription {
		t.Fatalf("before the change: %v", d)
	}
	pull(t, cs, changed, testserver.TypoFixTrigger)
	if d := toolNames(t, cs); len(d) != 4 || d["search_files"] != testserver.TypoFixedDescription {
		t.Fatalf("after the typo fix: %v", d)
	}
	pull(t, cs, changed, testserver.RugPullTrigger)
	d := toolNames(t, cs)
	if _, ok := d["read_file"]; ok || len(d) != 3 {
		t.Fatalf("after the rug pull, the client is shown %v; want read_file left out", d)
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "x"}})
	var rpcErr interface{ Error() string }
	if err == nil {
		t.Fatal("a call to the blocked tool succeeded")
	}
	rpcErr = err
	for _, want := range []string{`tool "read_file"`, "mcp-surface lock --check", "possible tool poisoning"} {
		if !strings.Contains(rpcErr.Error(), want) {
			t.Errorf("the refusal %q does not say %q", rpcErr.Error(), want)
		}
	}
	// Another tool still works.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "x"}}); err != nil {
		t.Errorf("search_files: %v", err)
	}
	cs.Close()
	if err := g.wait(t); err != nil {
		t.Fatalf("guard: %v", err)
	}
	if b := g.received.Bytes(); strings.Contains(string(b), "id_rsa") || strings.Contains(string(b), "IMPORTANT") {
		t.Errorf("the client received the new description:\n%s", b)
	}
	stderr := g.stderr.String()
	for _, want := range []string{`blocked changed tool "read_file"`, `passed changed tool "search_files"`, `refused tools/call of tool "read_file"`, "mcp-surface lock --check"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var blocked, passed, refused bool
	for _, d := range decisions(t, g.log.String()) {
		switch {
		case d.Decision == DecisionBlocked && d.Kind == "tool" && d.Name == "read_file" && d.Mode == ModeBlock:
			blocked = slices.Contains(d.Rules, "text-sensitive-reference-added") && d.Server == ".mcp.json › rug-pull"
		case d.Decision == DecisionPassed && d.Name == "search_files":
			passed = slices.Contains(d.Rules, "tool-description-changed")
		case d.Decision == DecisionRefused && d.Name == "read_file":
			refused = true
		}
	}
	if !blocked || !passed || !refused {
		t.Errorf("the log lacks a decision (blocked %v, passed %v, refused %v):\n%s", blocked, passed, refused, g.log)
	}
}

// TestGuardFailEndsTheSession: under fail, the listing after the rug
// pull is answered with an error and the guard ends with ErrChanged.
func TestGuardFailEndsTheSession(t *testing.T) {
	const mode = testserver.ModeRugPull
	l := lockOf(t, mode)
	g := startGuard(t, l, mode, ModeFail)
	cs, changed := connect(t, g.transport)
	toolNames(t, cs)
	pull(t, cs, changed, testserver.RugPullTrigger)
	_, err := cs.ListTools(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "session ends") || !strings.Contains(err.Error(), "read_file") {
		t.Errorf("the listing after the change answered %v; want the error that ends the session", err)
	}
	if err := g.wait(t); !errors.Is(err, ErrChanged) {
		t.Errorf("the guard ended with %v, want ErrChanged", err)
	}
	cs.Close()
	if b := g.received.Bytes(); strings.Contains(string(b), "id_rsa") {
		t.Errorf("the client received the new description")
	}
	if !strings.Contains(g.log.String(), `"decision":"failed"`) {
		t.Errorf("the log lacks the failure:\n%s", g.log)
	}
}

// TestGuardWarnPasses: under warn, the changed tool reaches the client
// and the change is logged.
func TestGuardWarnPasses(t *testing.T) {
	const mode = testserver.ModeRugPull
	l := lockOf(t, mode)
	g := startGuard(t, l, mode, ModeWarn)
	cs, changed := connect(t, g.transport)
	toolNames(t, cs)
	pull(t, cs, changed, testserver.RugPullTrigger)
	if d := toolNames(t, cs); d["read_file"] != testserver.RugPullDescription {
		t.Errorf("under warn the client is shown %v", d)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "x"}}); err != nil {
		t.Errorf("under warn a call failed: %v", err)
	}
	cs.Close()
	if err := g.wait(t); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.stderr.String(), `warning, passed changed tool "read_file"`) || !strings.Contains(g.log.String(), `"decision":"warned"`) {
		t.Errorf("the change was not logged:\n%s\n%s", g.stderr, g.log)
	}
}

// TestGuardEndsStubbornServer: a server that ignores the end of its
// input, or closes its output and stays, is stopped once the client has
// gone or the output ended: the guard returns.
func TestGuardEndsStubbornServer(t *testing.T) {
	l := lockOf(t, testserver.ModeRugPull)
	for name, script := range map[string]string{
		"ignores EOF":          "exec sleep 1000",
		"closes its output":    "exec sleep 1000 >&-",
		"ignores EOF and TERM": "trap '' TERM; sleep 1000; sleep 1000",
	} {
		done := make(chan error, 1)
		stdin, keep := io.Pipe()
		if name == "ignores EOF" || name == "ignores EOF and TERM" {
			keep.Close() // the client is gone at once
		} else {
			defer keep.Close() // the client stays
		}
		go func() {
			done <- Run(context.Background(), Config{Server: capture.Command{Argv: []string{"/bin/sh", "-c", script}, Env: os.Environ()},
				Session: NewSession(Options{Entry: &l.Entries[0]}), Grace: 20 * time.Millisecond,
				Stdin: stdin, Stdout: io.Discard, Stderr: io.Discard})
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the guard did not end", name)
		}
	}
}

// TestGuardServerStderr: the server's stderr reaches the guard's stderr
// line by line with control characters escaped, a last line without its
// end included.
func TestGuardServerStderr(t *testing.T) {
	l := lockOf(t, testserver.ModeRugPull)
	var stderr syncbuf.Buffer
	err := Run(context.Background(), Config{
		Server:  capture.Command{Argv: []string{"/bin/sh", "-c", `printf 'starting\n\033[1A\033[2Kall clear\nlast' >&2`}, Env: os.Environ()},
		Session: NewSession(Options{Entry: &l.Entries[0]}), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	got := stderr.String()
	if strings.ContainsRune(got, '\033') || !strings.Contains(got, "starting\n") || !strings.Contains(got, "all clear\n") || !strings.HasSuffix(got, "last\n") {
		t.Errorf("the server's stderr came through as %q", got)
	}
}
