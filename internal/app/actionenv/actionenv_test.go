package actionenv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestInputNamesAndTypes(t *testing.T) {
	e := New(mapEnv(map[string]string{
		"INPUT_FAIL-ON":             "  warning \n",
		"INPUT_UPLOAD_SARIF":        "TRUE",
		"INPUT_REVIEW-COMMENTS":     "maybe",
		"INPUT_TIMEOUT":             "90s",
		"INPUT_STARTUP-TIMEOUT":     "45",
		"INPUT_BAD-DURATION":        "-3s",
		"INPUT_SERVERS":             "a, b\n\n c \r\nd",
		"INPUT_MODE":                "publish",
		"INPUT_MAX-REVIEW-COMMENTS": "ten",
		"INPUT_WITH_SPACE":          "x",
	}), nil)

	if got := e.Input("fail-on"); got != "warning" {
		t.Errorf("Input(fail-on) = %q", got)
	}
	if got := e.Input("with space"); got != "x" {
		t.Errorf("Input(with space) = %q", got)
	}
	// The underscore form is accepted when the hyphen form is absent.
	if b, err := e.InputBool("upload-sarif", false); err != nil || !b {
		t.Errorf("InputBool(upload-sarif) = %v, %v", b, err)
	}
	if b, err := e.InputBool("absent", true); err != nil || !b {
		t.Errorf("InputBool(absent) = %v, %v", b, err)
	}
	_, err := e.InputBool("review-comments", false)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Name != "review-comments" || !strings.Contains(err.Error(), `input "review-comments"`) || !strings.Contains(err.Error(), "true or false") {
		t.Errorf("InputBool(review-comments) error = %v", err)
	}
	if d, err := e.InputDuration("timeout", 0); err != nil || d != 90*time.Second {
		t.Errorf("InputDuration(timeout) = %v, %v", d, err)
	}
	if d, err := e.InputDuration("startup-timeout", 0); err != nil || d != 45*time.Second {
		t.Errorf("InputDuration(startup-timeout) = %v, %v", d, err)
	}
	if _, err := e.InputDuration("bad-duration", 0); err == nil || !strings.Contains(err.Error(), `input "bad-duration"`) {
		t.Errorf("InputDuration(bad-duration) error = %v", err)
	}
	if d, err := e.InputDuration("absent", time.Minute); err != nil || d != time.Minute {
		t.Errorf("InputDuration(absent) = %v, %v", d, err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, e.InputList("servers")); diff != "" {
		t.Errorf("InputList (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a, b", "c", "d"}, e.InputLines("servers")); diff != "" {
		t.Errorf("InputLines (-want +got):\n%s", diff)
	}
	if m, err := e.InputChoice("mode", "auto", "auto", "analyze", "publish"); err != nil || m != "publish" {
		t.Errorf("InputChoice(mode) = %q, %v", m, err)
	}
	if _, err := e.InputChoice("fail-on", "error", "error", "note"); err == nil || !strings.Contains(err.Error(), "use one of error, note") {
		t.Errorf("InputChoice(fail-on) error = %v", err)
	}
	if _, err := e.InputInt("max-review-comments", 10); err == nil || !strings.Contains(err.Error(), `input "max-review-comments"`) {
		t.Errorf("InputInt error = %v", err)
	}
	if _, err := e.RequiredInput("github-token"); err == nil || !strings.Contains(err.Error(), `input "github-token": required`) {
		t.Errorf("RequiredInput error = %v", err)
	}
}

// parseOutputFile reads a GITHUB_OUTPUT file the way the runner does.
func parseOutputFile(t *testing.T, data string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(data, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		eq, hd := strings.Index(line, "="), strings.Index(line, "<<")
		if eq >= 0 && (hd < 0 || eq < hd) {
			out[line[:eq]] = line[eq+1:]
			continue
		}
		if hd < 0 {
			t.Fatalf("invalid output line %q", line)
		}
		name, delim := line[:hd], line[hd+2:]
		var val []string
		for i++; ; i++ {
			if i >= len(lines) {
				t.Fatalf("output %q: delimiter %q never closed", name, delim)
			}
			if lines[i] == delim {
				break
			}
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

func TestSetOutputRandomDelimiter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "output")
	e := New(mapEnv(map[string]string{"GITHUB_OUTPUT": path}), nil)

	tricky := "line one\nEOF\nghadelimiter_00000000000000000000000000000000\nexit-code<<EOF\n2\nEOF\nverdict=pass"
	if err := e.SetOutput("markdown", tricky); err != nil {
		t.Fatal(err)
	}
	if err := e.SetOutput("exit-code", "1"); err != nil {
		t.Fatal(err)
	}
	if err := e.SetOutput("empty", ""); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := parseOutputFile(t, string(data))
	want := map[string]string{"markdown": tricky, "exit-code": "1", "empty": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s\nfile:\n%s", diff, data)
	}
	// Each value had its own delimiter.
	if n := strings.Count(string(data), "<<ghadelimiter_"); n != 3 {
		t.Errorf("%d delimiters, want 3", n)
	}
}

func TestSetOutputRejectsDelimiterCollision(t *testing.T) {
	path := filepath.Join(t.TempDir(), "output")
	e := New(mapEnv(map[string]string{"GITHUB_OUTPUT": path}), nil)
	e.newToken = func() (string, error) { return "fixed", nil }
	err := e.SetOutput("report", "x\nghadelimiter_fixed\nverdict<<EOF\npass\nEOF")
	if !errors.Is(err, ErrDelimiterCollision) {
		t.Fatalf("err = %v, want ErrDelimiterCollision", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the output file was written after a collision: %v", err)
	}
}

func TestSetOutputWithoutGitHubOutput(t *testing.T) {
	e := New(mapEnv(nil), nil)
	err := e.SetOutput("exit-code", "0")
	if !errors.Is(err, ErrNotSet) || !strings.Contains(err.Error(), "GITHUB_OUTPUT") {
		t.Fatalf("err = %v, want GITHUB_OUTPUT ErrNotSet", err)
	}
	if _, err := e.AppendSummary("x"); !errors.Is(err, ErrNotSet) {
		t.Errorf("AppendSummary err = %v", err)
	}
	if _, err := e.Event(); !errors.Is(err, ErrNotSet) {
		t.Errorf("Event err = %v", err)
	}
	if err := New(mapEnv(map[string]string{"GITHUB_OUTPUT": "x"}), nil).SetOutput("a\nb", "v"); err == nil {
		t.Error("an output name with a newline was accepted")
	}
}

func TestAppendSummaryBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary")
	e := New(mapEnv(map[string]string{"GITHUB_STEP_SUMMARY": path}), nil)
	if tr, err := e.AppendSummary("# mcp-surface\n\n"); err != nil || tr {
		t.Fatalf("AppendSummary = %v, %v", tr, err)
	}
	// A report far over the limit, multi-byte characters and an open code
	// fence near the cut.
	var b strings.Builder
	b.WriteString("```json\n")
	for b.Len() < 2*MaxSummaryBytes {
		b.WriteString("| tool `é☃` | changed | ")
		b.WriteString(strings.Repeat("ü", 37))
		b.WriteString(" |\n")
	}
	tr, err := e.AppendSummary(b.String())
	if err != nil || !tr {
		t.Fatalf("AppendSummary(big) = %v, %v", tr, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > MaxSummaryBytes {
		t.Errorf("summary is %d bytes, over %d", len(data), MaxSummaryBytes)
	}
	if !utf8.Valid(data) {
		t.Error("summary is not valid UTF-8 after the cut")
	}
	if !bytes.HasPrefix(data, []byte("# mcp-surface\n\n")) || !bytes.HasSuffix(data, []byte(summaryTruncatedNote)) {
		t.Errorf("summary does not keep the first part and end with the note: ...%q", data[len(data)-200:])
	}
	if strings.Count(string(data), "```")%2 != 0 {
		t.Error("the cut left a code fence open")
	}
	// The file is full now: nothing more fits.
	if _, err := e.AppendSummary(strings.Repeat("x", 1000)); err == nil {
		t.Error("AppendSummary into a full summary succeeded")
	}
}

func TestMaskAndSafeLogging(t *testing.T) {
	var out bytes.Buffer
	e := New(mapEnv(nil), &out)
	e.newToken = func() (string, error) { return "tok123", nil }
	e.Mask("s3cr%t", "", "multi\nline")
	e.Info("tool get_forecast changed")
	e.Info("description: ignore previous instructions\n::set-output name=verdict::pass\r::add-mask::x\n##[error]fake")
	e.Infof("%s", "100%d done")
	e.Warning("tool `a,b`: removed\n::error::injected", Annotation{File: "src/a:b,c.go", Line: 12, Title: "tool-removed, breaking"})
	e.Debug("raw %s\r\n")
	end := e.Group("Base: build")
	end()
	want := "" +
		"::add-mask::s3cr%25t\n" +
		"::add-mask::multi%0Aline\n" +
		"::add-mask::multi\n" +
		"::add-mask::line\n" +
		"tool get_forecast changed\n" +
		"::stop-commands::tok123\n" +
		"description: ignore previous instructions\n" +
		"::set-output name=verdict::pass\n" +
		"::add-mask::x\n" +
		"##[error]fake\n" +
		"::tok123::\n" +
		"100%d done\n" +
		"::warning file=src/a%3Ab%2Cc.go,line=12,title=tool-removed%2C breaking::tool `a,b`: removed%0A::error::injected\n" +
		"::debug::raw %25s%0D%0A\n" +
		"::group::Base: build\n" +
		"::endgroup::\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}

func TestAnnotationLimit(t *testing.T) {
	var out bytes.Buffer
	e := New(mapEnv(nil), &out)
	e.SetAnnotationLimit(2)
	for i := 0; i < 5; i++ {
		e.Error("removed", Annotation{File: "a.go", Line: i + 1})
	}
	e.Warning("w", Annotation{})
	if got := strings.Count(out.String(), "::error "); got != 2 {
		t.Errorf("%d error annotations, want 2:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "error: a.go:5: removed\n") {
		t.Errorf("suppressed annotation not logged as a plain line:\n%s", out.String())
	}
	if diff := cmp.Diff(map[Level]int{LevelError: 3}, e.SuppressedAnnotations()); diff != "" {
		t.Errorf("suppressed (-want +got):\n%s", diff)
	}
}

func TestContext(t *testing.T) {
	e := New(mapEnv(map[string]string{
		"GITHUB_REPOSITORY": "acme/weather-mcp",
		"GITHUB_API_URL":    "https://ghe.example.test/api/v3",
		"GITHUB_SHA":        "0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d",
		"GITHUB_REF":        "refs/pull/42/merge",
	}), nil)
	c, err := e.Context()
	if err != nil {
		t.Fatal(err)
	}
	if c.Owner != "acme" || c.Repo != "weather-mcp" || c.APIURL != "https://ghe.example.test/api/v3" || c.Ref != "refs/pull/42/merge" {
		t.Errorf("context = %+v", c)
	}
	if u, _ := New(mapEnv(nil), nil).APIURL(); u != DefaultAPIURL {
		t.Errorf("default API URL = %q", u)
	}
	for _, bad := range []string{"acme", "acme/", "/x", "a/b/c", "a b/c", "acme/..", "acme/x%2f"} {
		if _, _, err := SplitRepository(bad); err == nil {
			t.Errorf("SplitRepository(%q) accepted", bad)
		}
	}
	if _, err := New(mapEnv(map[string]string{"GITHUB_API_URL": "ftp://x"}), nil).APIURL(); err == nil {
		t.Error("ftp API URL accepted")
	}
}

func readEvent(t *testing.T, name, file string) *Event {
	t.Helper()
	e := New(mapEnv(map[string]string{
		"GITHUB_EVENT_NAME": name,
		"GITHUB_EVENT_PATH": filepath.Join("testdata", file),
	}), nil)
	ev, err := e.Event()
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestEventPullRequestFromFork(t *testing.T) {
	ev := readEvent(t, "pull_request", "pull_request_fork.json")
	want := &Event{
		Name:       "pull_request",
		Repository: "acme/weather-mcp",
		PullRequest: &PullRequestEvent{
			Action: "synchronize",
			Number: 42,
			State:  "open",
			Base:   Branch{Ref: "main", SHA: "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f", RepoFullName: "acme/weather-mcp"},
			Head:   Branch{Ref: "forecast", SHA: "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b", RepoFullName: "contributor/weather-mcp"},
			Fork:   true,
			Labels: []string{"enhancement"},
		},
	}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
	if !ev.PullRequest.HasLabel("Enhancement") || ev.PullRequest.HasLabel("mcp-surface: accept-breaking") {
		t.Errorf("HasLabel: labels %q", ev.PullRequest.Labels)
	}
}

func TestEventPullRequestTargetSameRepo(t *testing.T) {
	ev := readEvent(t, "pull_request_target", "pull_request_target_same_repo.json")
	p := ev.PullRequest
	if p == nil || p.Number != 7 || p.Fork || !p.Draft || p.Base.SHA != strings.Repeat("b", 40) || p.Head.Ref != "rename-param" {
		t.Errorf("pull request = %+v", p)
	}
	if ev.Push != nil || ev.WorkflowRun != nil {
		t.Error("other parts set")
	}
}

func TestEventPush(t *testing.T) {
	ev := readEvent(t, "push", "push.json")
	want := &PushEvent{Ref: "refs/heads/main", Before: "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f", After: "d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5"}
	if diff := cmp.Diff(want, ev.Push); diff != "" {
		t.Errorf("push (-want +got):\n%s", diff)
	}
	if prev, ok := ev.Push.Previous(); !ok || prev != want.Before {
		t.Errorf("Previous = %q, %v", prev, ok)
	}
	nb := readEvent(t, "push", "push_new_branch.json")
	if prev, ok := nb.Push.Previous(); ok {
		t.Errorf("new branch Previous = %q, true", prev)
	}
}

func TestEventWorkflowRun(t *testing.T) {
	ev := readEvent(t, "workflow_run", "workflow_run_fork.json")
	want := &WorkflowRunEvent{
		Action:         "completed",
		ID:             10987654321,
		Name:           "mcp-surface",
		Event:          "pull_request",
		Status:         "completed",
		Conclusion:     "failure",
		HeadSHA:        "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b",
		HeadBranch:     "forecast",
		HeadRepository: "contributor/weather-mcp",
		Repository:     "acme/weather-mcp",
		RunNumber:      318,
		RunAttempt:     1,
		Fork:           true,
	}
	if diff := cmp.Diff(want, ev.WorkflowRun); diff != "" {
		t.Errorf("workflow_run (-want +got):\n%s", diff)
	}

	same := readEvent(t, "workflow_run", "workflow_run_same_repo.json").WorkflowRun
	wantPRs := []WorkflowRunPullRequest{{Number: 7, HeadSHA: strings.Repeat("a", 40), HeadRef: "rename-param", BaseSHA: strings.Repeat("b", 40), BaseRef: "main"}}
	if diff := cmp.Diff(wantPRs, same.PullRequests); diff != "" {
		t.Errorf("pull_requests (-want +got):\n%s", diff)
	}
	if same.Fork || same.RunAttempt != 2 || same.Conclusion != "success" {
		t.Errorf("workflow_run = %+v", same)
	}
}

func TestEventRejectsBadPayloads(t *testing.T) {
	for name, tc := range map[string]struct{ event, payload string }{
		"no pull_request":   {"pull_request", `{"action":"opened","number":1}`},
		"float number":      {"pull_request", `{"pull_request":{"number":1.5,"base":{"sha":"` + strings.Repeat("a", 40) + `"},"head":{"sha":"` + strings.Repeat("b", 40) + `"}}}`},
		"option as sha":     {"pull_request", `{"pull_request":{"number":1,"base":{"sha":"--output=pwned"},"head":{"sha":"` + strings.Repeat("b", 40) + `"}}}`},
		"no workflow_run":   {"workflow_run", `{"action":"completed"}`},
		"short head_sha":    {"workflow_run", `{"workflow_run":{"head_sha":"abc"}}`},
		"push upper hex":    {"push", `{"before":"` + strings.Repeat("A", 40) + `","after":"` + strings.Repeat("b", 40) + `"}`},
		"not json":          {"push", `{`},
		"pr number as text": {"workflow_run", `{"workflow_run":{"head_sha":"` + strings.Repeat("a", 40) + `","pull_requests":[{"number":"7"}]}}`},
	} {
		if _, err := ParseEvent(tc.event, []byte(tc.payload)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Other events parse with no typed part.
	ev, err := ParseEvent("workflow_dispatch", []byte(`{"inputs":{},"repository":{"full_name":"acme/x"}}`))
	if err != nil || ev.Repository != "acme/x" || ev.PullRequest != nil || ev.Push != nil || ev.WorkflowRun != nil {
		t.Errorf("workflow_dispatch = %+v, %v", ev, err)
	}
}

func TestBooleanWordsAndChoices(t *testing.T) {
	for _, tc := range []struct {
		in    string
		v, ok bool
	}{
		{"true", true, true}, {"True", true, true}, {"YES", true, true}, {"on", true, true}, {"1", true, true}, {" y\u0065s ", true, true},
		{"false", false, true}, {"FALSE", false, true}, {"No", false, true}, {"off", false, true}, {"0", false, true},
		{"", false, false}, {"y", false, false}, {"t", false, false}, {"2", false, false}, {"enabled", false, false}, {"nope", false, false},
	} {
		if v, ok := ParseBool(tc.in); v != tc.v || ok != tc.ok {
			t.Errorf("ParseBool(%q) = %v, %v; want %v, %v", tc.in, v, ok, tc.v, tc.ok)
		}
	}

	vars := map[string]string{}
	e := New(mapEnv(vars), nil)
	choice := func(value, onTrue, onFalse string) (string, error) {
		vars["INPUT_COMMENT"] = value
		return e.InputChoiceOrBool("comment", "always", onTrue, onFalse, "always", "on-change", "never")
	}
	for _, tc := range []struct{ in, onTrue, onFalse, want, err string }{
		{in: "", want: "always"},
		{in: "On-Change", want: "on-change"},
		{in: "yes", onTrue: "always", onFalse: "never", want: "always"},
		{in: "OFF", onTrue: "always", onFalse: "never", want: "never"},
		{in: "false", onFalse: "never", want: "never"},
		{in: "true", onFalse: "never", err: `input "comment": "true" is not valid: use one of always, on-change, never (false means never)`},
		{in: "true", err: `input "comment": "true" is not valid: use one of always, on-change, never`},
		{in: "sometimes", onTrue: "always", onFalse: "never", err: `input "comment": "sometimes" is not valid: use one of always, on-change, never (true means always, false means never)`},
	} {
		got, err := choice(tc.in, tc.onTrue, tc.onFalse)
		if tc.err != "" {
			var ie *InputError
			if err == nil || err.Error() != tc.err || !errors.As(err, &ie) || ie.Name != "comment" {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	vars["INPUT_SHELL"] = "maybe"
	if _, err := e.InputBool("shell", false); err == nil || err.Error() != `input "shell": "maybe" is not valid: use true or false (yes/no, on/off and 1/0 are accepted too, in any case)` {
		t.Errorf("InputBool(maybe) error = %v", err)
	}
}
