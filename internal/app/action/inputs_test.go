package action

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// readInputs reads the action's configuration from the given inputs
// (named as in action.yml).
func readInputs(inputs map[string]string) (*actionConfig, error) {
	env := map[string]string{}
	for k, v := range inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	return readActionConfig(actionenv.New(func(k string) string { return env[k] }, io.Discard))
}

// TestActionInputsPeopleType: boolean inputs take the words people write
// (true/false, yes/no, on/off, 1/0, in any case), and so do the choices
// with an obvious yes and no.
func TestActionInputsPeopleType(t *testing.T) {
	t.Parallel()
	truthy := []string{"true", "True", "TRUE", "yes", "Yes", "on", "ON", "1"}
	falsy := []string{"false", "False", "no", "NO", "off", "Off", "0"}
	booleans := map[string]func(*actionConfig) bool{
		"shell":           func(c *actionConfig) bool { return c.Shell },
		"review-comments": func(c *actionConfig) bool { return c.ReviewComments },
		"upload-sarif":    func(c *actionConfig) bool { return c.UploadSARIF },
		"sse":             func(c *actionConfig) bool { return c.SSE },
	}
	for name, get := range booleans {
		for _, words := range []struct {
			list []string
			want bool
		}{{truthy, true}, {falsy, false}} {
			for _, w := range words.list {
				in := map[string]string{name: w}
				if name == "sse" {
					in["url"] = "http://127.0.0.1:1/mcp"
				}
				c, err := readInputs(in)
				if err != nil || get(c) != words.want {
					t.Errorf("%s: %s gives %v, %v; want %v", name, w, get(c), err, words.want)
				}
			}
		}
		_, err := readInputs(map[string]string{name: "maybe"})
		if err == nil || !strings.Contains(err.Error(), `input "`+name+`": "maybe" is not valid: use true or false (yes/no, on/off and 1/0`) {
			t.Errorf("%s: maybe: %v", name, err)
		}
	}

	for _, tc := range []struct{ value, want string }{
		{"", commentOnChange}, {"always", commentAlways}, {"Always", commentAlways}, {"ON-CHANGE", commentOnChange},
		{"never", commentNever}, {"true", commentAlways}, {"yes", commentAlways}, {"1", commentAlways},
		{"false", commentNever}, {"No", commentNever}, {"off", commentNever}, {"0", commentNever},
	} {
		c, err := readInputs(map[string]string{"comment": tc.value})
		if err != nil || c.Comment != tc.want {
			t.Errorf("comment: %q gives %q, %v; want %q", tc.value, c.Comment, err, tc.want)
		}
	}
	if _, err := readInputs(map[string]string{"comment": "sometimes"}); err == nil ||
		!strings.Contains(err.Error(), `input "comment": "sometimes" is not valid: use one of always, on-change, never (true means always, false means never)`) {
		t.Errorf("comment: sometimes: %v", err)
	}

	for _, tc := range []struct {
		value string
		want  rules.Level
	}{{"", rules.LevelError}, {"warning", rules.LevelWarning}, {"Note", rules.LevelNote}, {"none", ""}, {"false", ""}, {"off", ""}, {"0", ""}} {
		c, err := readInputs(map[string]string{"fail-on": tc.value})
		if err != nil || c.FailOn != tc.want {
			t.Errorf("fail-on: %q gives %q, %v; want %q", tc.value, c.FailOn, err, tc.want)
		}
	}
	// true names no level: refused, with the levels listed.
	for _, v := range []string{"true", "yes", "sometimes"} {
		_, err := readInputs(map[string]string{"fail-on": v})
		if err == nil || !strings.Contains(err.Error(), `input "fail-on": "`+v+`" is not valid: use error, warning, note, info or none`) || !strings.Contains(err.Error(), "false means none") {
			t.Errorf("fail-on: %s: %v", v, err)
		}
	}

	mode := func(m check.BaselineMode) check.Baseline { return check.Baseline{Mode: m} }
	for _, tc := range []struct {
		value string
		want  check.Baseline
	}{
		{"", mode(check.BaselineAuto)}, {"Snapshot", mode(check.BaselineSnapshot)}, {"BUILD", mode(check.BaselineBuild)}, {"none", mode(check.BaselineNone)},
		{"false", mode(check.BaselineNone)}, {"no", mode(check.BaselineNone)}, {"Off", mode(check.BaselineNone)}, {"0", mode(check.BaselineNone)},
		{"base.json", check.Baseline{File: "base.json"}}, {"snapshots/Auto.json", check.Baseline{File: "snapshots/Auto.json"}},
	} {
		c, err := readInputs(map[string]string{"baseline": tc.value})
		if err != nil || c.Baseline != tc.want {
			t.Errorf("baseline: %q gives %+v, %v; want %+v", tc.value, c.Baseline, err, tc.want)
		}
	}
	if _, err := readInputs(map[string]string{"baseline": "yes"}); err == nil ||
		!strings.Contains(err.Error(), `input "baseline": "yes" is not valid: use one of auto, snapshot, build, none, or a snapshot file (false means none)`) {
		t.Errorf("baseline: yes: %v", err)
	}

	// Mode has no yes or no: a boolean word is refused like any other.
	for _, tc := range []struct{ value, want string }{{"", modeFull}, {"Analyze", modeAnalyze}, {"PUBLISH", modePublish}} {
		c, err := readInputs(map[string]string{"mode": tc.value})
		if err != nil || c.Mode != tc.want {
			t.Errorf("mode: %q gives %q, %v; want %q", tc.value, c.Mode, err, tc.want)
		}
	}
	if _, err := readInputs(map[string]string{"mode": "true"}); err == nil || !strings.Contains(err.Error(), `input "mode": "true" is not valid: use one of full, analyze, publish`) {
		t.Errorf("mode: true: %v", err)
	}

	// Several bad inputs: each is named.
	_, err := readInputs(map[string]string{"shell": "y", "comment": "x", "upload-sarif": "t"})
	for _, name := range []string{"shell", "comment", "upload-sarif"} {
		if err == nil || !strings.Contains(err.Error(), `input "`+name+`"`) {
			t.Errorf("several bad inputs: %v does not name %s", err, name)
		}
	}
}

// TestActionPassEnvInput: pass-env takes variable names, comma- or
// line-separated, and refuses anything else.
func TestActionPassEnvInput(t *testing.T) {
	t.Parallel()
	c, err := readInputs(map[string]string{"pass-env": "GITHUB_TOKEN,\n ACTIONS_ID_TOKEN_REQUEST_URL \n"})
	if err != nil || !slices.Equal(c.PassEnv, []string{"GITHUB_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL"}) {
		t.Errorf("pass-env = %q, %v", c.PassEnv, err)
	}
	if c, err := readInputs(nil); err != nil || c.PassEnv != nil {
		t.Errorf("no pass-env = %q, %v", c.PassEnv, err)
	}
	_, err = readInputs(map[string]string{"pass-env": "GITHUB_TOKEN=x"})
	if err == nil || !strings.Contains(err.Error(), `input "pass-env": "GITHUB_TOKEN=x" is not valid`) {
		t.Errorf("pass-env with a value: %v", err)
	}
}

func TestShutdownGraceInput(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"": 0, "250ms": 250 * time.Millisecond, "2": 2 * time.Second} {
		c, err := readInputs(map[string]string{"shutdown-grace": in})
		if err != nil || c.ShutdownGrace != want {
			t.Errorf("shutdown-grace %q: %v, %v; want %v", in, c.ShutdownGrace, err, want)
		}
	}
	for _, bad := range []string{"0", "-1s", "soon"} {
		if _, err := readInputs(map[string]string{"shutdown-grace": bad}); err == nil || !strings.Contains(err.Error(), "shutdown-grace") {
			t.Errorf("shutdown-grace %q: error %v, want one naming the input", bad, err)
		}
	}
}
