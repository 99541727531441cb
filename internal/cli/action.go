package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/github"
	"github.com/mcp-surface/mcp-surface/internal/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/locate"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func init() {
	register(&command{
		name:    "action",
		summary: "run as a GitHub Actions step: inputs from INPUT_*, verdict as comment, summary, annotations and SARIF",
		run:     runAction,
	})
}

const actionUsage = `

Runs the whole pipeline (see ` + "`mcp-surface check`" + `) as a GitHub Actions step and
publishes the verdict. Everything comes from the runner's environment: the
inputs of action.yml as INPUT_<NAME> (upper case, hyphens kept, e.g.
INPUT_FAIL-ON), the event payload (GITHUB_EVENT_PATH), GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY and GITHUB_API_URL. The same binary serves the composite
action of this repository and any container or JavaScript wrapper.

Modes (input mode):
  full     analyze and publish in one job (same-repository pull requests, push)
  analyze  analyze only; on a pull request write a bundle for a later publish
  publish  in a workflow_run job: read the bundle as untrusted data, verify
           it against the event and publish it

Exit status: full and analyze exit with the verdict (0, or 1 for findings at
or above fail-on) and 2 when the tool could not do its job; publish exits 0
unless the bundle is missing or invalid (2). Publishing failures are
warnings: they never change the exit status.

See docs/action.md for every input and output.`

// Action modes.
const (
	modeFull    = "full"
	modeAnalyze = "analyze"
	modePublish = "publish"
)

// Comment modes.
const (
	commentAlways   = "always"    // create or update the sticky comment on every run
	commentOnChange = "on-change" // only when there is something to say, or to update an existing one
	commentNever    = "never"
)

// actionInput is one input of action.yml as the binary reads it.
type actionInput struct {
	Name string
	// Default is what an empty or unset value means. action.yml declares
	// the same default (a test compares them); a wrapper that passes no
	// value gets the same behaviour.
	Default string
}

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
	{"config", ""},
	{"snapshot", "mcp-surface.json"},
	{"baseline", BaselineAuto},
	{"base-ref", ""},
	{"protocol-version", capture.LatestRevision},
	{"startup-timeout", capture.DefaultLimits.StartupTimeout.String()},
	{"fail-on", "error"},
	{"fail-on-tags", ""},
	{"comment", commentAlways},
	{"comment-author", github.DefaultCommentAuthor},
	{"review-comments", "false"},
	{"max-review-comments", strconv.Itoa(github.DefaultMaxReviewComments)},
	{"sarif-file", "mcp-surface.sarif"},
	{"upload-sarif", "false"},
	{"report-file", ""},
	{"bundle", "mcp-surface-bundle"},
	{"github-token", tokenDefault},
}

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
	Config            string
	Snapshot          string
	Baseline          string
	BaseRef           string
	ProtocolVersion   string
	StartupTimeout    time.Duration
	FailOn            rules.Level
	FailOnTags        []string
	Comment           string
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
	in := r.spec(name)
	v, err := r.ae.InputChoice(name, in.Default, allowed...)
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
	c.Config = r.str("config")
	c.Snapshot = r.str("snapshot")
	c.Baseline = r.str("baseline")
	c.BaseRef = r.str("base-ref")
	c.ProtocolVersion = r.str("protocol-version")
	in := r.spec("startup-timeout")
	def, _ := time.ParseDuration(in.Default)
	d, err := ae.InputDuration("startup-timeout", def)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	c.StartupTimeout = d
	failOn := r.str("fail-on")
	if c.FailOn, err = rules.ParseLevel(failOn); err != nil {
		r.errs = append(r.errs, &actionenv.InputError{Name: "fail-on", Value: failOn, Want: "use error, warning, note, info or none (breaking and risky are accepted)"})
	}
	r.spec("fail-on-tags")
	c.FailOnTags = ae.InputList("fail-on-tags")
	c.Comment = r.choice("comment", commentAlways, commentOnChange, commentNever)
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

// actionRun is one run of the action: the environment, the parsed inputs
// and what was found, for publishing.
type actionRun struct {
	env    *Env
	ae     *actionenv.Env
	cfg    *actionConfig
	gctx   *actionenv.Context
	event  *actionenv.Event // nil when the event could not be read
	ws     string           // GITHUB_WORKSPACE (or the current directory)
	notes  []string         // publishing problems, for the job summary
	logger func(format string, args ...any)
}

func runAction(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("action", actionUsage, env.Stderr)
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("the action takes no arguments: its inputs are INPUT_* variables (see docs/action.md)")
	}
	ae := actionenv.New(env.Getenv, env.Stdout)
	cfg, err := readActionConfig(ae) // masks the secrets first
	run := &actionRun{env: env, ae: ae, cfg: cfg}
	if err != nil {
		return run.fail(err)
	}
	run.logger = func(format string, args ...any) { ae.Info("mcp-surface: " + fmt.Sprintf(format, args...)) }
	if run.gctx, err = ae.Context(); err != nil {
		return run.fail(err)
	}
	run.ws = run.gctx.Workspace
	if run.ws == "" {
		if run.ws, err = os.Getwd(); err != nil {
			return run.fail(err)
		}
	}
	if ev, err := ae.Event(); err == nil {
		run.event = ev
	} else if cfg.Mode == modePublish || !errors.Is(err, actionenv.ErrNotSet) {
		return run.fail(fmt.Errorf("reading the event: %w", err))
	} else {
		ae.Debug("no event payload: " + err.Error())
	}
	if cfg.Mode == modePublish {
		return run.publish(ctx)
	}
	return run.analyze(ctx)
}

// fail reports a failure of the tool (exit 2) where a workflow shows it:
// an error annotation, the job summary and the outputs.
func (a *actionRun) fail(err error) (int, error) {
	msg := err.Error()
	a.ae.Error("mcp-surface could not do its job: "+msg, actionenv.Annotation{Title: "mcp-surface"})
	a.appendSummary("### mcp-surface could not do its job\n\n" + report.CodeBlock(msg, "text") + "\n" + a.notesMarkdown())
	a.setOutput("verdict", "error")
	a.setOutput("exit-code", strconv.Itoa(ExitFailure))
	return 0, err
}

// warn is a publishing problem: a warning annotation and a line in the
// job summary; never a change of the exit code.
func (a *actionRun) warn(msg string) {
	a.ae.Warning(msg, actionenv.Annotation{Title: "mcp-surface"})
	a.notes = append(a.notes, msg)
}

func (a *actionRun) notesMarkdown() string {
	if len(a.notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n**Publishing**\n\n")
	for _, n := range a.notes {
		b.WriteString("- ⚠️ " + report.Markdown(n, 2000) + "\n")
	}
	return b.String()
}

func (a *actionRun) appendSummary(md string) {
	if _, err := a.ae.AppendSummary(md); err != nil {
		a.ae.Debug("job summary: " + err.Error())
	}
}

func (a *actionRun) setOutput(name, value string) {
	if !slices.Contains(actionOutputs, name) {
		panic("cli: output " + name + " is not in actionOutputs")
	}
	if err := a.ae.SetOutput(name, value); err != nil {
		a.ae.Debug("output " + name + ": " + err.Error())
	}
}

// inWorkspace resolves a path given relative to the workspace.
func (a *actionRun) inWorkspace(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.ws, p)
}

// pullRequest is the event's pull request, or nil.
func (a *actionRun) pullRequest() *actionenv.PullRequestEvent {
	if a.event == nil {
		return nil
	}
	return a.event.PullRequest
}

// pipelineEnv is env for the commands the pipeline starts (the build, the
// server): the inputs and anything holding the token are left out, so the
// pull request's code never receives the token through us.
func (a *actionRun) pipelineEnv() *Env {
	e := *a.env
	full := a.env.Environ
	e.Environ = func() []string {
		if full == nil {
			return nil
		}
		var out []string
		for _, kv := range full() {
			k, v, _ := strings.Cut(kv, "=")
			if strings.HasPrefix(strings.ToUpper(k), "INPUT_") || (a.cfg.Token != "" && strings.Contains(v, a.cfg.Token)) {
				continue
			}
			out = append(out, kv)
		}
		return out
	}
	return &e
}

// analyze runs modes full and analyze.
func (a *actionRun) analyze(ctx context.Context) (int, error) {
	c := a.cfg
	workDir := filepath.Join(a.ws, c.WorkingDirectory)
	if fi, err := os.Stat(workDir); err != nil || !fi.IsDir() {
		return a.fail(usagef("input working-directory %q: no such directory in the workspace", c.WorkingDirectory))
	}
	repo, err := gitrepo.TopLevel(ctx, workDir)
	if err != nil {
		repo = workDir
	} else if repo, err = filepath.EvalSymlinks(repo); err != nil {
		return a.fail(err)
	}
	realWork, err := filepath.EvalSymlinks(workDir)
	if err != nil {
		return a.fail(err)
	}
	relWork, err := filepath.Rel(repo, realWork)
	if err != nil || strings.HasPrefix(relWork, "..") {
		return a.fail(fmt.Errorf("working-directory %s is outside the repository %s", workDir, repo))
	}
	relWork = filepath.ToSlash(relWork)

	// Configuration: the config input, else .mcp-surface.yaml in the
	// working directory when there is one.
	cfgPath := ""
	if c.Config != "" {
		cfgPath = filepath.Join(realWork, c.Config)
	} else if _, err := os.Stat(filepath.Join(realWork, config.DefaultFile)); err == nil {
		cfgPath = filepath.Join(realWork, config.DefaultFile)
	}
	var cfg *config.Config
	if cfgPath != "" {
		if cfg, err = loadDiffConfig(cfgPath); err != nil {
			return a.fail(err)
		}
	}

	servers, err := a.servers(cfg, cfgPath, repo, relWork)
	if err != nil {
		return a.fail(err)
	}
	baseRef, err := a.baseRef(ctx, repo)
	if err != nil {
		return a.fail(err)
	}
	now, err := diffNow(a.env)
	if err != nil {
		return a.fail(err)
	}
	cf := &captureFlags{
		versions:       stringList{c.ProtocolVersion},
		startupTimeout: c.StartupTimeout,
		requestTimeout: capture.DefaultLimits.RequestTimeout,
		maxBytes:       capture.DefaultLimits.MaxBytes,
		maxPages:       capture.DefaultLimits.MaxPages,
	}
	var sf schemaFlags
	build := c.Build
	if build != "" && relWork != "." {
		// The build runs at the repository root (of the work tree, and of
		// the base's worktree): enter the working directory first.
		build = "cd " + shellQuote(relWork) + " && " + build
	}
	opts := checkOptions{
		Servers: servers, Baseline: c.Baseline, BaseRef: baseRef, Build: build, RepoDir: repo,
		Config: cfg, FailOn: c.FailOn, FailTags: c.FailOnTags, Now: now,
		Capture: cf, Schemas: sf.options(a.env), Log: a.logger,
	}
	if !slices.Contains([]string{BaselineAuto, BaselineSnapshot, BaselineBuild, BaselineNone}, c.Baseline) && !filepath.IsAbs(c.Baseline) {
		opts.Baseline = filepath.Join(realWork, c.Baseline) // a snapshot file, relative to working-directory
	}
	res, err := runPipeline(ctx, a.pipelineEnv(), opts)
	if err != nil {
		return a.fail(err)
	}

	ro := report.Options{FailOn: c.FailOn}
	out, err := a.render(res.Report, ro)
	if err != nil {
		return a.fail(err)
	}
	a.writeResults(res.Report, ro, res.Code, out)

	pr := a.pullRequest()
	var comments []github.ReviewComment
	var lines github.LineSet
	if c.ReviewComments && pr != nil {
		comments, lines = a.reviewComments(ctx, repo, pr, res.Report)
	}
	switch {
	case c.Mode == modeAnalyze && pr != nil:
		if err := a.writeBundle(pr, res.Report, res.Code, out, comments); err != nil {
			return a.fail(err)
		}
	case c.Mode == modeAnalyze:
		a.ae.Info("mcp-surface: not a pull request: no bundle to publish")
	case c.Mode == modeFull:
		a.publishAll(ctx, res.Report, ro, out, publishTarget{
			pr: prNumber(pr), headSHA: prHead(pr), ref: a.gctx.Ref, sarifSHA: a.gctx.SHA,
		}, comments, lines)
	}
	a.finish(res.Report, ro, out)
	return res.Code, nil
}

func prNumber(pr *actionenv.PullRequestEvent) int {
	if pr == nil {
		return 0
	}
	return pr.Number
}

func prHead(pr *actionenv.PullRequestEvent) string {
	if pr == nil {
		return ""
	}
	return pr.Head.SHA
}

// servers are the servers to check: the command or url input, else the
// servers: list of the configuration (one of them with input server).
func (a *actionRun) servers(cfg *config.Config, cfgPath, repo, relWork string) ([]serverSpec, error) {
	c := a.cfg
	snapshot := ""
	if c.Snapshot != "" {
		snapshot = filepath.ToSlash(filepath.Clean(filepath.Join(relWork, c.Snapshot)))
	}
	switch {
	case c.Command != "":
		s := serverSpec{Name: c.Server, Dir: relWork, Snapshot: snapshot}
		if c.Shell {
			s.Command, s.Shell = []string{c.Command}, true
		} else {
			argv, err := cmdline.Split(c.Command)
			if err != nil {
				return nil, usagef("input command: %v", err)
			}
			s.Command = argv
		}
		return []serverSpec{s}, nil
	case c.URL != "":
		cf := captureFlags{url: c.URL, headers: c.Headers, sse: c.SSE}
		t, err := cf.target(a.env, nil)
		if err != nil {
			return nil, err
		}
		h := httpHeaders(t)
		for _, vs := range h {
			a.ae.Mask(vs...) // values after ${VAR} expansion
		}
		return []serverSpec{{Name: c.Server, URL: c.URL, SSE: c.SSE, Headers: h, Dir: relWork, Snapshot: snapshot}}, nil
	case cfg != nil && len(cfg.Servers) > 0:
		all, err := serversFromConfig(a.env, cfg, repo, cfgPath)
		if err != nil {
			return nil, err
		}
		// Secrets from the configuration (header values, probe arguments
		// taken from the environment) are masked before anything runs.
		for _, s := range all {
			for _, vs := range s.Headers {
				a.ae.Mask(vs...)
			}
			a.ae.Mask(s.Secrets...)
		}
		if c.Server == "" {
			return all, nil
		}
		var names []string
		for _, s := range all {
			if s.Name == c.Server {
				return []serverSpec{s}, nil
			}
			names = append(names, s.Name)
		}
		return nil, usagef("input server %q: %s lists %s", c.Server, filepath.Base(cfgPath), strings.Join(names, ", "))
	}
	return nil, usagef("no server to check: set input command (or url), or list servers: in %s", config.DefaultFile)
}

// baseRef is the commit to compare with: the base-ref input, else the
// pull request's base, else a push's previous commit; "" means the
// committed snapshot in the work tree. A commit missing from a shallow
// checkout is fetched.
func (a *actionRun) baseRef(ctx context.Context, repo string) (string, error) {
	if ref := a.cfg.BaseRef; ref != "" {
		if actionenv.IsCommitID(ref) {
			if err := a.ensureCommit(ctx, repo, ref); err != nil {
				return "", fmt.Errorf("input base-ref %s: %w", ref, err)
			}
			return ref, nil
		}
		for _, rev := range []string{ref, "origin/" + ref} {
			if sha, err := gitrepo.ResolveCommit(ctx, repo, rev); err == nil {
				return sha, nil
			}
		}
		return "", fmt.Errorf("input base-ref %q names no commit of the checkout (nor origin/%s): check out with fetch-depth: 0, or give a commit id, which is fetched", ref, ref)
	}
	if a.cfg.Baseline == BaselineNone || (a.event == nil) {
		return "", nil
	}
	switch {
	case a.event.PullRequest != nil:
		sha := a.event.PullRequest.Base.SHA
		if err := a.ensureCommit(ctx, repo, sha); err != nil {
			return "", fmt.Errorf("the pull request's base commit %s: %w", sha, err)
		}
		return sha, nil
	case a.event.Push != nil:
		sha, ok := a.event.Push.Previous()
		if !ok {
			a.logger("the push created the branch: comparing with the committed snapshot")
			return "", nil
		}
		if err := a.ensureCommit(ctx, repo, sha); err != nil {
			a.warn(fmt.Sprintf("the push's previous commit %s is not available (%v): comparing with the committed snapshot instead", shortRef(sha), err))
			return "", nil
		}
		return sha, nil
	}
	return "", nil
}

// ensureCommit fetches sha from origin when the checkout lacks it.
func (a *actionRun) ensureCommit(ctx context.Context, repo, sha string) error {
	if _, err := gitrepo.ResolveCommit(ctx, repo, sha); err == nil {
		return nil
	}
	a.logger("fetching %s (not in the checkout)", shortRef(sha))
	if err := gitrepo.Fetch(ctx, repo, "origin", 1, sha); err != nil {
		return fmt.Errorf("not in the checkout and could not be fetched: %w", err)
	}
	_, err := gitrepo.ResolveCommit(ctx, repo, sha)
	return err
}

// rendered is a report in the formats the action writes.
type rendered struct {
	markdown, json, sarif []byte
}

func (a *actionRun) render(r *report.Report, o report.Options) (*rendered, error) {
	var out rendered
	var err error
	if out.markdown, err = report.RenderBytes("markdown", r, o); err != nil {
		return nil, err
	}
	if out.json, err = report.RenderBytes("json", r, o); err != nil {
		return nil, err
	}
	if out.sarif, err = report.RenderBytes("sarif", r, o); err != nil {
		return nil, err
	}
	return &out, nil
}

// writeResults writes the report files, the outputs and the job summary:
// what every mode does, before publishing.
func (a *actionRun) writeResults(r *report.Report, o report.Options, code int, out *rendered) {
	c := a.cfg
	sarifPath := a.inWorkspace(c.SARIFFile)
	if err := report.WriteFile(sarifPath, out.sarif); err != nil {
		a.warn(fmt.Sprintf("writing %s: %v", c.SARIFFile, err))
	} else {
		a.setOutput("sarif-file", sarifPath)
	}
	reportPath := a.inWorkspace(c.ReportFile)
	if reportPath == "" {
		dir := a.env.Getenv("RUNNER_TEMP")
		if dir == "" {
			dir = a.ws
		}
		reportPath = filepath.Join(dir, "mcp-surface-report.json")
	}
	if err := report.WriteFile(reportPath, out.json); err != nil {
		a.warn(fmt.Sprintf("writing the JSON report: %v", err))
	} else {
		a.setOutput("report-file", reportPath)
	}

	s := r.Summary()
	verdict := "pass"
	if code != ExitOK {
		verdict = "fail"
	}
	a.setOutput("verdict", verdict)
	a.setOutput("exit-code", strconv.Itoa(code))
	a.setOutput("breaking", strconv.FormatBool(hasBreaking(r)))
	a.setOutput("errors", strconv.Itoa(s.Error))
	a.setOutput("warnings", strconv.Itoa(s.Warning))
	a.setOutput("notes", strconv.Itoa(s.Note))
	a.setOutput("suggested-bump", s.SuggestedBump)
	head, base := manifestHashes(r)
	a.setOutput("manifest-hash", head)
	a.setOutput("base-manifest-hash", base)
}

// finish ends a run: the job summary (the report, then any publishing
// problem), the annotations, and the report as text in the log.
func (a *actionRun) finish(r *report.Report, o report.Options, out *rendered) {
	a.appendSummary(string(out.markdown) + a.notesMarkdown())
	// Annotations last, so that publishing warnings are among the ten of
	// each level that GitHub shows for a step.
	var ann bytes.Buffer
	if err := report.Render(&ann, "github", r, o); err == nil {
		a.env.Stdout.Write(ann.Bytes())
	}
	if text, err := report.RenderBytes("text", r, o); err == nil {
		end := a.ae.Group("mcp-surface report")
		a.ae.Info(string(text))
		end()
	}
}

// worthSaying reports whether a report has something for comment:
// on-change to say: the check fails, or the surface changed (an
// unacknowledged change above info). Findings about a surface the pull
// request did not change, below fail-on, are not news.
func worthSaying(r *report.Report, failOn rules.Level) bool {
	if r.Failed(failOn) {
		return true
	}
	for _, s := range r.Servers {
		for _, f := range s.Changes {
			if f.Acknowledged == "" && f.Level != rules.LevelInfo {
				return true
			}
		}
	}
	return false
}

// hasBreaking reports an unacknowledged change of severity breaking.
func hasBreaking(r *report.Report) bool {
	for _, s := range r.Servers {
		for _, f := range s.Changes {
			if f.Severity == rules.SeverityBreaking && f.Acknowledged == "" {
				return true
			}
		}
	}
	return false
}

// manifestHashes are the head and base manifest hashes: the hash for one
// server, one "name=hash" line per server for several.
func manifestHashes(r *report.Report) (head, base string) {
	if len(r.Servers) == 1 {
		s := r.Servers[0]
		if s.Head != nil {
			head = s.Head.ManifestHash
		}
		if s.Base != nil {
			base = s.Base.ManifestHash
		}
		return head, base
	}
	var hs, bs []string
	for _, s := range r.Servers {
		if s.Head != nil && s.Head.ManifestHash != "" {
			hs = append(hs, s.Server+"="+s.Head.ManifestHash)
		}
		if s.Base != nil && s.Base.ManifestHash != "" {
			bs = append(bs, s.Server+"="+s.Base.ManifestHash)
		}
	}
	sort.Strings(hs)
	sort.Strings(bs)
	return strings.Join(hs, "\n"), strings.Join(bs, "\n")
}

// client returns the GitHub client, or nil (with a warning) without a
// token.
func (a *actionRun) client() *github.Client {
	if a.cfg.Token == "" {
		a.warn("no github-token: nothing was published to GitHub (the job summary, outputs and files are written)")
		return nil
	}
	api, err := a.ae.APIURL()
	if err == nil {
		var cl *github.Client
		if cl, err = github.NewClient(github.Options{APIURL: api, Token: a.cfg.Token, UserAgent: "mcp-surface/" + Version}); err == nil {
			return cl
		}
	}
	a.warn(fmt.Sprintf("GitHub API: %v", err))
	return nil
}

// publishTarget says where results go.
type publishTarget struct {
	pr       int    // 0: not a pull request (no comment, no review)
	headSHA  string // the pull request's head commit (reviews)
	ref      string // SARIF ref
	sarifSHA string // SARIF commit
}

// publishAll posts the sticky comment, the review and the SARIF upload as
// the inputs ask. Every failure is a warning.
func (a *actionRun) publishAll(ctx context.Context, r *report.Report, o report.Options, out *rendered, t publishTarget, comments []github.ReviewComment, lines github.LineSet) {
	c := a.cfg
	needComment := t.pr > 0 && c.Comment != commentNever
	needReview := t.pr > 0 && c.ReviewComments && len(comments) > 0
	needSARIF := c.UploadSARIF
	if !needComment && !needReview && !needSARIF {
		return
	}
	cl := a.client()
	if cl == nil {
		return
	}
	owner, repo := a.gctx.Owner, a.gctx.Repo
	if owner == "" {
		a.warn("GITHUB_REPOSITORY is not set: nothing was published")
		return
	}
	if needComment {
		a.comment(ctx, cl, owner, repo, t.pr, r, o, out)
	}
	if needReview {
		res, err := cl.CreateReview(ctx, owner, repo, t.pr, t.headSHA, comments, github.ReviewOptions{Allowed: lines, Max: c.MaxReviewComments, Author: c.CommentAuthor})
		if err != nil {
			a.publishWarning(err)
		} else if res.ReviewID != 0 {
			a.logger("review: %d comment(s) posted, %d left out", res.Posted, res.Dropped())
		}
	}
	if needSARIF {
		if t.ref == "" || !actionenv.IsCommitID(t.sarifSHA) {
			a.warn("upload-sarif: no ref or commit to upload for (GITHUB_REF, GITHUB_SHA)")
		} else if id, err := cl.UploadSARIF(ctx, owner, repo, t.ref, t.sarifSHA, out.sarif); err != nil {
			a.publishWarning(err)
		} else {
			a.logger("SARIF uploaded to code scanning (id %s)", id)
		}
	}
}

// comment creates or updates the sticky comment as input comment says.
func (a *actionRun) comment(ctx context.Context, cl *github.Client, owner, repo string, pr int, r *report.Report, o report.Options, out *rendered) {
	marker := report.Marker(report.MarkerKey(r, o))
	if a.cfg.Comment == commentOnChange && !worthSaying(r, o.FailOn) {
		// Nothing to say: update an existing comment (so that it says
		// all is well now), never start one.
		existing, err := cl.FindStickyComment(ctx, owner, repo, pr, marker, a.cfg.CommentAuthor)
		if err != nil {
			a.publishWarning(err)
			return
		}
		if existing == nil {
			a.logger("nothing to report and no earlier comment: no comment (comment: on-change)")
			return
		}
	}
	created, err := cl.UpsertStickyComment(ctx, owner, repo, pr, marker, string(out.markdown), a.cfg.CommentAuthor)
	if err != nil {
		a.publishWarning(err)
		return
	}
	if created {
		a.logger("pull request #%d: comment created", pr)
	} else {
		a.logger("pull request #%d: comment updated", pr)
	}
}

// publishWarning turns a publishing error into a warning that names what
// to do (a *github.PublishError carries the hint; see docs/action.md,
// Troubleshooting).
func (a *actionRun) publishWarning(err error) {
	var pe *github.PublishError
	if errors.As(err, &pe) {
		a.warn(fmt.Sprintf("could not %s (%s): %s", pe.Op, pe.Kind, pe.Error()))
		return
	}
	a.warn("publishing: " + err.Error())
}

// reviewComments are the comments on changed lines that define a subject
// with findings: the report's source locations inside the pull request's
// diff, worst first, at most one comment per line. Lines are numbered in
// the work tree; a file whose content differs at the head commit (a merge
// checkout whose base changed it too) is left out.
func (a *actionRun) reviewComments(ctx context.Context, repo string, pr *actionenv.PullRequestEvent, r *report.Report) ([]github.ReviewComment, github.LineSet) {
	head := pr.Head.SHA
	if _, err := gitrepo.ResolveCommit(ctx, repo, head); err != nil {
		head = "HEAD"
	}
	lines, err := gitrepo.ChangedLines(ctx, repo, pr.Base.SHA, head)
	if shallow, _ := gitrepo.IsShallow(ctx, repo); err != nil && shallow {
		// A shallow checkout: fetch both sides with their whole history
		// (git's own "infinite" depth, what --unshallow asks for).
		a.logger("fetching the history of the pull request for its diff")
		if ferr := gitrepo.Fetch(ctx, repo, "origin", unshallowDepth, pr.Base.SHA, pr.Head.SHA); ferr == nil {
			head = pr.Head.SHA
			lines, err = gitrepo.ChangedLines(ctx, repo, pr.Base.SHA, head)
		}
	}
	if err != nil {
		a.warn(fmt.Sprintf("review comments need the pull request's diff, which git could not compute (%v): check out with fetch-depth: 0", err))
		return nil, nil
	}
	same := map[string]bool{}
	sameAtHead := func(path string) bool {
		if v, ok := same[path]; ok {
			return v
		}
		work, err1 := os.ReadFile(filepath.Join(repo, filepath.FromSlash(path)))
		at, err2 := gitrepo.ReadFile(ctx, repo, pr.Head.SHA, path)
		same[path] = err1 == nil && err2 == nil && bytes.Equal(work, at)
		return same[path]
	}
	comments := buildReviewComments(r, func(path string, line int) bool {
		return lines.Contains(path, line) && sameAtHead(path)
	})
	return comments, lines
}

// unshallowDepth is the depth git uses for --unshallow.
const unshallowDepth = 0x7fffffff

// buildReviewComments makes one comment per source line (inside allowed)
// that defines a subject with unacknowledged findings above info, worst
// first, at most MaxBundleReviewComments.
func buildReviewComments(r *report.Report, allowed func(path string, line int) bool) []github.ReviewComment {
	type group struct {
		loc   locate.Location
		items []report.Item
	}
	var groups []*group
	byLine := map[locate.Location]*group{}
	var items []report.Item
	snapshots := map[string]bool{}
	for i := range r.Servers {
		items = append(items, r.Servers[i].Items()...)
		snapshots[r.Servers[i].Snapshot] = true
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Level.Rank() > items[j].Level.Rank() })
	for _, it := range items {
		// Source lines only: a snapshot is not where a tool is defined.
		if it.Acknowledged != "" || it.Level == rules.LevelInfo || it.Location.Source != locate.SourceCode || snapshots[it.Location.Path] {
			continue
		}
		loc := locate.Location{Path: it.Location.Path, Line: it.Location.Line}
		if !allowed(loc.Path, loc.Line) {
			continue
		}
		g := byLine[loc]
		if g == nil {
			g = &group{loc: loc}
			byLine[loc] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	var out []github.ReviewComment
	for _, g := range groups {
		if len(out) == github.MaxBundleReviewComments {
			break
		}
		out = append(out, github.ReviewComment{Path: g.loc.Path, Line: g.loc.Line, Body: reviewBody(g.items), Key: g.items[0].Fingerprint})
	}
	return out
}

// maxFindingsPerReviewComment bounds one review comment.
const maxFindingsPerReviewComment = 5

// reviewBody is the markdown of one review comment. Server text goes
// through report's escaping only.
func reviewBody(items []report.Item) string {
	var b strings.Builder
	for i, it := range items {
		if i == maxFindingsPerReviewComment {
			fmt.Fprintf(&b, "*%d more findings on this line are in the pull request comment.*\n", len(items)-i)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		level := string(it.Level)
		if it.Severity != "" {
			level += ", " + string(it.Severity)
		}
		fmt.Fprintf(&b, "%s **%s** %s (%s): %s\n", levelIcon(it.Level), report.Markdown(it.Subject.String(), report.MaxName),
			report.Code(it.Rule, report.MaxName), level, report.Markdown(it.Message, report.MaxMessage))
		if it.TextDiff != "" {
			lang := "text"
			if report.IsLineDiff(string(it.Before), string(it.After)) {
				lang = "diff"
			}
			b.WriteString("\n" + report.CodeBlock(report.Truncate(it.TextDiff, report.MaxText), lang) + "\n")
		}
		fmt.Fprintf(&b, "\n[About %s](%s)\n", it.Rule, report.Options{}.RuleURL(it.Rule))
	}
	return b.String()
}

func levelIcon(l rules.Level) string {
	switch l {
	case rules.LevelError:
		return "🛑"
	case rules.LevelWarning:
		return "⚠️"
	}
	return "ℹ️"
}

// writeBundle writes the analysis for a publish job (mode analyze).
func (a *actionRun) writeBundle(pr *actionenv.PullRequestEvent, r *report.Report, code int, out *rendered, comments []github.ReviewComment) error {
	repoName := a.gctx.Repository
	if a.event != nil && a.event.Repository != "" {
		repoName = a.event.Repository
	}
	s := r.Summary()
	b := &github.Bundle{
		Version: github.BundleVersion, Repository: repoName, PullRequest: pr.Number,
		HeadSHA: pr.Head.SHA, BaseSHA: pr.Base.SHA,
		Verdict:        github.Verdict{ExitCode: code, Counts: github.Counts{Error: s.Error, Warning: s.Warning, Note: s.Note, Info: s.Info}},
		Report:         out.json,
		Markdown:       string(out.markdown),
		SARIF:          out.sarif,
		ReviewComments: comments,
	}
	if len(b.Markdown) > github.MaxCommentBytes {
		b.Markdown = "The report is too large for a comment; see the job summary of the analyzing run."
	}
	dir := a.inWorkspace(a.cfg.Bundle)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	path := filepath.Join(dir, github.BundleFileName)
	if err := github.WriteBundleFile(path, b); err != nil {
		return err
	}
	a.setOutput("bundle-file", path)
	a.logger("wrote %s: upload the directory %s with actions/upload-artifact for the publish job", path, a.cfg.Bundle)
	return nil
}

// publish runs mode publish: in a workflow_run job, the bundle of the
// analyzing run is read as untrusted data, tied to the trusted event, and
// published. What is posted is rendered here from the bundle's JSON report
// (checked by report.DecodeJSON), never taken from its markdown or SARIF.
func (a *actionRun) publish(ctx context.Context) (int, error) {
	wr := a.event.WorkflowRun
	if wr == nil {
		return a.fail(usagef("mode publish runs on workflow_run events (this is %s): see docs/action.md, Fork pull requests", a.event.Name))
	}
	path := a.inWorkspace(a.cfg.Bundle)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, github.BundleFileName)
	}
	b, err := github.ReadBundleFile(path)
	if err != nil {
		return a.fail(fmt.Errorf("the bundle is not usable: %w", err))
	}
	// The trusted event says which commit the analyzing run checked out
	// and in which repository: a bundle for anything else is refused.
	repoName := a.gctx.Repository
	if !strings.EqualFold(b.Repository, repoName) {
		return a.fail(fmt.Errorf("%w: it is for repository %q, this run is in %q", github.ErrBundleMismatch, b.Repository, repoName))
	}
	if b.HeadSHA != wr.HeadSHA {
		return a.fail(fmt.Errorf("%w: it is for commit %s, the analyzing run checked out %s", github.ErrBundleMismatch, b.HeadSHA, wr.HeadSHA))
	}
	r, err := report.DecodeJSON(b.Report)
	if err != nil {
		return a.fail(fmt.Errorf("%w: %v", github.ErrInvalidBundle, err))
	}
	failOn, err := bundleFailOn(b.Report)
	if err != nil {
		return a.fail(fmt.Errorf("%w: %v", github.ErrInvalidBundle, err))
	}
	ro := report.Options{FailOn: failOn}
	out, err := a.render(r, ro)
	if err != nil {
		return a.fail(err)
	}
	code := ExitOK
	if r.Failed(failOn) {
		code = ExitFindings
	}
	// The pull request is checked before anything is written, so that a
	// bundle for another one fails the step without outputs.
	pr, verified := 0, false
	cl := a.client()
	if cl != nil {
		if pr, verified, err = a.verifiedPR(ctx, cl, b, wr); err != nil {
			return a.fail(err)
		}
	}
	a.writeResults(r, ro, code, out)
	if verified {
		a.publishAll(ctx, r, ro, out, publishTarget{
			pr: pr, headSHA: b.HeadSHA, ref: fmt.Sprintf("refs/pull/%d/head", pr), sarifSHA: b.HeadSHA,
		}, republishComments(b.ReviewComments, r), github.AnyLine{})
	}
	a.finish(r, ro, out)
	return ExitOK, nil
}

// verifiedPR finds the pull request of the workflow run and verifies the
// bundle against it. A bundle for another pull request than the one whose
// head the trusted event names was tampered with: an error (exit 2). A pull
// request that moved on or closed since, or an API failure, is a warning
// (a newer run publishes).
func (a *actionRun) verifiedPR(ctx context.Context, cl *github.Client, b *github.Bundle, wr *actionenv.WorkflowRunEvent) (int, bool, error) {
	number := 0
	for _, p := range wr.PullRequests {
		if p.HeadSHA == wr.HeadSHA {
			number = p.Number
			break
		}
	}
	if number == 0 {
		found, err := cl.FindPullRequest(ctx, a.gctx.Owner, a.gctx.Repo, github.PullRequestQuery{HeadSHA: wr.HeadSHA, HeadRepo: wr.HeadRepository, HeadBranch: wr.HeadBranch})
		if err != nil {
			if errors.Is(err, github.ErrNoPullRequest) {
				a.warn(fmt.Sprintf("no open pull request has head %s any more: nothing to publish", shortRef(wr.HeadSHA)))
			} else {
				a.publishWarning(err)
			}
			return 0, false, nil
		}
		number = found.Number
	}
	if b.PullRequest != number {
		return 0, false, fmt.Errorf("%w: it names pull request #%d, but commit %s is the head of #%d", github.ErrBundleMismatch, b.PullRequest, shortRef(wr.HeadSHA), number)
	}
	if _, err := b.Verify(ctx, cl, github.Expected{Repository: a.gctx.Repository, HeadSHA: wr.HeadSHA, PullRequest: number}); err != nil {
		if errors.Is(err, github.ErrBundleMismatch) {
			a.warn(fmt.Sprintf("not published: %v", err))
		} else {
			a.publishWarning(err)
		}
		return 0, false, nil
	}
	return number, true, nil
}

// republishComments keeps the bundle's review comments whose key is a
// finding of the (checked) report, with bodies rendered here: the
// bundle's own text is never posted.
func republishComments(in []github.ReviewComment, r *report.Report) []github.ReviewComment {
	byKey := map[string]report.Item{}
	for i := range r.Servers {
		for _, it := range r.Servers[i].Items() {
			byKey[it.Fingerprint] = it
		}
	}
	var out []github.ReviewComment
	for _, c := range in {
		it, ok := byKey[c.Key]
		if !ok || it.Acknowledged != "" || it.Level == rules.LevelInfo {
			continue
		}
		out = append(out, github.ReviewComment{Path: c.Path, Line: c.Line, Key: c.Key, Body: reviewBody([]report.Item{it})})
	}
	return out
}

// bundleFailOn reads summary.failOn of a JSON report.
func bundleFailOn(raw json.RawMessage) (rules.Level, error) {
	var top struct {
		Summary struct {
			FailOn string `json:"failOn"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return "", err
	}
	if top.Summary.FailOn == "" {
		return rules.LevelError, nil
	}
	return rules.ParseLevel(top.Summary.FailOn)
}

// shellQuote quotes a word for the build's shell.
var shellQuote = cmdline.Quote
