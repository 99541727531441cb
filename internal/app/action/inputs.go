package action

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// Input is one input of action.yml as the binary reads it (see
// actionenv.InputSpec).
type Input struct{ Name, Default string }

// DefaultAcceptLabel is the pull request label that accepts its breaking
// changes when neither the accept-label input nor acceptLabel of the
// configuration names one.
const DefaultAcceptLabel = "mcp-surface: accept-breaking"

// TokenDefault is action.yml's default of github-token: the expression is
// evaluated by the runner, so the binary's own default is "" (see
// actionenv.InputSpec).
const TokenDefault = "${{ github.token }}"

// Inputs lists every input the binary reads, in the order of
// action.yml. A test checks action.yml against it both ways.
var Inputs = []Input{
	{"mode", modeFull},
	{"command", ""},
	{"shell", "false"},
	{"url", ""},
	{"headers", ""},
	{"sse", "false"},
	{"server", ""},
	{"working-directory", "."},
	{"build", ""},
	{"jobs", "0"},
	{"pass-env", ""},
	{"config", ""},
	{"snapshot", "mcp-surface.json"},
	{"baseline", string(check.BaselineAuto)},
	{"base-ref", ""},
	{"protocol-version", capture.LatestRevision},
	{"startup-timeout", capture.DefaultLimits.StartupTimeout.String()},
	// Empty: the server's shutdownGrace, else capture.DefaultLimits'.
	{"shutdown-grace", ""},
	{"fail-on", "error"},
	{"fail-on-tags", ""},
	{"clients", ""},
	{"comment", commentOnChange},
	{"accept-label", ""},
	{"comment-author", github.DefaultCommentAuthor},
	{"review-comments", "false"},
	{"max-review-comments", strconv.Itoa(github.DefaultMaxReviewComments)},
	{"sarif-file", "mcp-surface.sarif"},
	{"upload-sarif", "false"},
	{"report-file", ""},
	{"bundle", "mcp-surface-bundle"},
	{"lock", ""},
	{"lock-configs", ""},
	{"github-token", TokenDefault},
}

// maxJobs bounds the jobs input, against a typo that would start
// thousands of servers at once.
const maxJobs = 256

// Outputs lists every output the binary sets; action.yml maps each
// from the step that runs the binary.
var Outputs = []string{
	"verdict", "exit-code", "breaking", "errors", "warnings", "notes",
	"suggested-bump", "manifest-hash", "base-manifest-hash",
	"sarif-file", "report-file", "bundle-file",
}

// actionConfig is the inputs, parsed.
type actionConfig struct {
	Mode              string
	Command           string
	Shell             bool
	URL               string
	Headers           []string
	SSE               bool
	Server            string
	WorkingDirectory  string
	Build             string
	Jobs              int      // builds and captures at once; 0: the CPUs
	PassEnv           []string // variables the build and the server get although withheld
	Config            string
	Snapshot          string
	Baseline          check.Baseline
	BaseRef           string
	ProtocolVersion   string
	StartupTimeout    time.Duration
	ShutdownGrace     time.Duration // 0: the server's, else the default
	FailOn            rules.Level
	FailOnTags        []string
	Clients           []clients.Profile
	Comment           string
	AcceptLabel       string // "" for the configuration's, else DefaultAcceptLabel
	CommentAuthor     string
	ReviewComments    bool
	MaxReviewComments int
	SARIFFile         string
	UploadSARIF       bool
	ReportFile        string
	Bundle            string
	Lock              string   // the lock file: check the locked servers instead
	LockConfigs       []string // the client configurations, [FORMAT:]FILE
	Token             string
}

// readActionConfig reads every input. The secret ones (the token, header
// values) are masked before anything else is done with them.
func readActionConfig(ae *actionenv.Env) (*actionConfig, error) {
	specs := make([]actionenv.InputSpec, len(Inputs))
	for i, in := range Inputs {
		specs[i] = actionenv.InputSpec(in)
	}
	r := ae.Inputs(specs)
	c := &actionConfig{}
	// Secrets first: nothing may be logged before they are masked.
	c.Token = r.Secret("github-token")
	c.Headers = r.Lines("headers")
	for _, h := range c.Headers {
		if _, v, ok := strings.Cut(h, ":"); ok {
			ae.Mask(strings.TrimSpace(v))
		}
	}

	c.Mode = r.Choice("mode", modeFull, modeAnalyze, modePublish)
	c.Command = r.String("command")
	c.Shell = r.Bool("shell")
	c.URL = r.String("url")
	c.SSE = r.Bool("sse")
	c.Server = r.String("server")
	c.WorkingDirectory = r.String("working-directory")
	c.Build = r.String("build")
	c.Jobs = r.IntBetween("jobs", 0, maxJobs)
	c.PassEnv = r.VariableNames("pass-env")
	c.Config = r.String("config")
	c.Snapshot = r.String("snapshot")
	// A mode's name in any case; any other value is a snapshot file.
	baseline := r.String("baseline")
	c.Baseline = check.Baseline{File: baseline}
	if i := slices.IndexFunc(check.BaselineModes, func(k check.BaselineMode) bool { return strings.EqualFold(string(k), baseline) }); i >= 0 {
		c.Baseline = check.Baseline{Mode: check.BaselineModes[i]}
	} else if v, ok := actionenv.ParseBool(baseline); ok {
		// No snapshot file is called "false": the word means no baseline.
		// "true" names none of the baselines.
		if v {
			var modes []string
			for _, m := range check.BaselineModes {
				modes = append(modes, string(m))
			}
			r.Fail(&actionenv.InputError{Name: "baseline", Value: baseline, Want: "use one of " + strings.Join(modes, ", ") + ", or a snapshot file (false means none)"})
		} else {
			c.Baseline = check.Baseline{Mode: check.BaselineNone}
		}
	}
	c.BaseRef = r.String("base-ref")
	c.ProtocolVersion = r.String("protocol-version")
	c.StartupTimeout = r.Duration("startup-timeout")
	c.ShutdownGrace = r.PositiveDuration("shutdown-grace", "use a positive duration such as 500ms, or leave it empty")
	failOn := r.String("fail-on")
	level := failOn
	if v, ok := actionenv.ParseBool(failOn); ok && !v {
		level = "none" // fail-on: false, as people write "never fail"
	}
	var err error
	if c.FailOn, err = rules.ParseLevel(level); err != nil {
		r.Fail(&actionenv.InputError{Name: "fail-on", Value: failOn, Want: "use error, warning, note, info or none (breaking and risky are accepted; false means none)"})
	}
	c.FailOnTags = r.List("fail-on-tags")
	if c.Clients, err = clients.ParseList(r.List("clients")); err != nil {
		r.Fail(&actionenv.InputError{Name: "clients", Value: ae.Input("clients"), Want: "client profiles: " + strings.Join(clients.Names(), ", ") + " (claude-code:SERVER names the server)"})
	}
	c.Comment = r.ChoiceOrBool("comment", commentAlways, commentNever, commentAlways, commentOnChange, commentNever)
	c.AcceptLabel = strings.TrimSpace(r.String("accept-label"))
	c.CommentAuthor = r.String("comment-author")
	c.ReviewComments = r.Bool("review-comments")
	c.MaxReviewComments = r.IntBetween("max-review-comments", 1, github.MaxBundleReviewComments)
	c.SARIFFile = r.String("sarif-file")
	c.UploadSARIF = r.Bool("upload-sarif")
	c.ReportFile = r.String("report-file")
	c.Bundle = r.String("bundle")
	c.Lock = r.String("lock")
	c.LockConfigs = r.Lines("lock-configs")
	if err := r.Err(); err != nil {
		return c, &usageError{err.Error()}
	}
	if c.Command != "" && c.URL != "" {
		return c, usagef("inputs command and url: give one, not both")
	}
	if c.URL == "" && (len(c.Headers) > 0 || c.SSE) {
		return c, usagef("inputs headers and sse need url")
	}
	if !slices.Contains(capture.Revisions, c.ProtocolVersion) {
		return c, usagef("input protocol-version %q: use one of %s", c.ProtocolVersion, strings.Join(capture.Revisions, ", "))
	}
	if filepath.IsAbs(c.WorkingDirectory) || strings.HasPrefix(filepath.Clean(c.WorkingDirectory), "..") {
		return c, usagef("input working-directory %q: give a directory inside the repository, relative to it", c.WorkingDirectory)
	}
	return c, nil
}
