package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/github"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// actionInput is one input of action.yml as the binary reads it.
type actionInput struct {
	Name string
	// Default is what an empty or unset value means. action.yml declares
	// the same default (a test compares them); a wrapper that passes no
	// value gets the same behaviour.
	Default string
}

// DefaultAcceptLabel is the pull request label that accepts its breaking
// changes when neither the accept-label input nor acceptLabel of the
// configuration names one.
const DefaultAcceptLabel = "mcp-surface: accept-breaking"

// tokenDefault is action.yml's default of github-token: the expression is
// evaluated by the runner, so the binary's own default is "".
const tokenDefault = "${{ github.token }}"

// actionInputs lists every input the binary reads, in the order of
// action.yml. A test checks action.yml against it both ways.
var actionInputs = []actionInput{
	{"mode", modeFull},
	{"command", ""},
	{"shell", "false"},
	{"url", ""},
	{"headers", ""},
	{"sse", "false"},
	{"server", ""},
	{"working-directory", "."},
	{"build", ""},
	{"pass-env", ""},
	{"config", ""},
	{"snapshot", "mcp-surface.json"},
	{"baseline", check.BaselineAuto},
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
	{"github-token", tokenDefault},
}

// baselineKeywords are the baselines the baseline input names; any other
// value is a snapshot file.
var baselineKeywords = []string{check.BaselineAuto, check.BaselineSnapshot, check.BaselineBuild, check.BaselineNone}

// actionOutputs lists every output the binary sets; action.yml maps each
// from the step that runs the binary.
var actionOutputs = []string{
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
	PassEnv           []string // variables the build and the server get although withheld
	Config            string
	Snapshot          string
	Baseline          string
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
	Token             string
}

// inputReader reads inputs by name, applying the defaults of actionInputs,
// and records which it read (a test checks that every input is).
type inputReader struct {
	ae   *actionenv.Env
	read map[string]bool
	errs []error
}

func (r *inputReader) spec(name string) actionInput {
	i := slices.IndexFunc(actionInputs, func(in actionInput) bool { return in.Name == name })
	if i < 0 {
		panic("cli: input " + name + " is not in actionInputs")
	}
	r.read[name] = true
	return actionInputs[i]
}

func (r *inputReader) str(name string) string {
	in := r.spec(name)
	if v := r.ae.Input(name); v != "" {
		return v
	}
	if in.Default == tokenDefault {
		return ""
	}
	return in.Default
}

func (r *inputReader) boolean(name string) bool {
	in := r.spec(name)
	def, _ := strconv.ParseBool(in.Default)
	v, err := r.ae.InputBool(name, def)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	return v
}

func (r *inputReader) choice(name string, allowed ...string) string {
	return r.choiceOrBool(name, "", "", allowed...)
}

// choiceOrBool is choice for an input whose choices include an obvious
// yes and no: a boolean word means onTrue or onFalse.
func (r *inputReader) choiceOrBool(name, onTrue, onFalse string, allowed ...string) string {
	in := r.spec(name)
	v, err := r.ae.InputChoiceOrBool(name, in.Default, onTrue, onFalse, allowed...)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	return v
}

// readActionConfig reads every input. The secret ones (the token, header
// values) are masked before anything else is done with them.
func readActionConfig(ae *actionenv.Env) (*actionConfig, error) {
	r := &inputReader{ae: ae, read: map[string]bool{}}
	c := &actionConfig{}
	// Secrets first: nothing may be logged before they are masked.
	r.spec("github-token")
	c.Token = ae.SecretInput("github-token")
	r.spec("headers")
	c.Headers = ae.InputLines("headers")
	for _, h := range c.Headers {
		if _, v, ok := strings.Cut(h, ":"); ok {
			ae.Mask(strings.TrimSpace(v))
		}
	}

	c.Mode = r.choice("mode", modeFull, modeAnalyze, modePublish)
	c.Command = r.str("command")
	c.Shell = r.boolean("shell")
	c.URL = r.str("url")
	c.SSE = r.boolean("sse")
	c.Server = r.str("server")
	c.WorkingDirectory = r.str("working-directory")
	c.Build = r.str("build")
	r.spec("pass-env")
	passEnv, err := ae.InputVariableNames("pass-env")
	if err != nil {
		r.errs = append(r.errs, err)
	}
	c.PassEnv = passEnv
	c.Config = r.str("config")
	c.Snapshot = r.str("snapshot")
	c.Baseline = r.str("baseline")
	if i := slices.IndexFunc(baselineKeywords, func(k string) bool { return strings.EqualFold(k, c.Baseline) }); i >= 0 {
		c.Baseline = baselineKeywords[i]
	} else if v, ok := actionenv.ParseBool(c.Baseline); ok {
		// No snapshot file is called "false": the word means no baseline.
		// "true" names none of the baselines.
		if v {
			r.errs = append(r.errs, &actionenv.InputError{Name: "baseline", Value: c.Baseline, Want: "use one of " + strings.Join(baselineKeywords, ", ") + ", or a snapshot file (false means none)"})
		} else {
			c.Baseline = check.BaselineNone
		}
	}
	c.BaseRef = r.str("base-ref")
	c.ProtocolVersion = r.str("protocol-version")
	in := r.spec("startup-timeout")
	def, _ := time.ParseDuration(in.Default)
	d, err := ae.InputDuration("startup-timeout", def)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	c.StartupTimeout = d
	r.spec("shutdown-grace")
	if c.ShutdownGrace, err = ae.InputDuration("shutdown-grace", 0); err != nil {
		r.errs = append(r.errs, err)
	} else if c.ShutdownGrace == 0 && ae.Input("shutdown-grace") != "" {
		r.errs = append(r.errs, &actionenv.InputError{Name: "shutdown-grace", Value: ae.Input("shutdown-grace"), Want: "use a positive duration such as 500ms, or leave it empty"})
	}
	failOn := r.str("fail-on")
	level := failOn
	if v, ok := actionenv.ParseBool(failOn); ok && !v {
		level = "none" // fail-on: false, as people write "never fail"
	}
	if c.FailOn, err = rules.ParseLevel(level); err != nil {
		r.errs = append(r.errs, &actionenv.InputError{Name: "fail-on", Value: failOn, Want: "use error, warning, note, info or none (breaking and risky are accepted; false means none)"})
	}
	r.spec("fail-on-tags")
	c.FailOnTags = ae.InputList("fail-on-tags")
	r.spec("clients")
	if c.Clients, err = clients.ParseList(ae.InputList("clients")); err != nil {
		r.errs = append(r.errs, &actionenv.InputError{Name: "clients", Value: ae.Input("clients"), Want: "client profiles: " + strings.Join(clients.Names(), ", ") + " (claude-code:SERVER names the server)"})
	}
	c.Comment = r.choiceOrBool("comment", commentAlways, commentNever, commentAlways, commentOnChange, commentNever)
	c.AcceptLabel = strings.TrimSpace(r.str("accept-label"))
	c.CommentAuthor = r.str("comment-author")
	c.ReviewComments = r.boolean("review-comments")
	in = r.spec("max-review-comments")
	defMax, _ := strconv.Atoi(in.Default)
	if c.MaxReviewComments, err = ae.InputInt("max-review-comments", defMax); err != nil {
		r.errs = append(r.errs, err)
	} else if c.MaxReviewComments < 1 || c.MaxReviewComments > github.MaxBundleReviewComments {
		r.errs = append(r.errs, &actionenv.InputError{Name: "max-review-comments", Value: strconv.Itoa(c.MaxReviewComments), Want: fmt.Sprintf("between 1 and %d", github.MaxBundleReviewComments)})
	}
	c.SARIFFile = r.str("sarif-file")
	c.UploadSARIF = r.boolean("upload-sarif")
	c.ReportFile = r.str("report-file")
	c.Bundle = r.str("bundle")
	if err := errors.Join(r.errs...); err != nil {
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
