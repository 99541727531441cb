package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

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
	guide  *check.Guidance // what turns a failing check green; nil before the pipeline ran
	// baseSHA is the commit compared with ("" for the work tree's
	// snapshot), for the report's footer.
	baseSHA string
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
	run.logger = func(format string, args ...any) { ae.Info("mcp-surface: " + logf(format, args...)) }
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

// analyze runs modes full and analyze.
func (a *actionRun) analyze(ctx context.Context) (int, error) {
	c := a.cfg
	workDir := filepath.Join(a.ws, c.WorkingDirectory)
	if fi, err := os.Stat(workDir); err != nil || !fi.IsDir() {
		return a.fail(usagef("input working-directory %q: no such directory in the workspace", c.WorkingDirectory))
	}
	repo, realWork, relWork, err := gitrepo.Within(ctx, workDir)
	if err != nil {
		return a.fail(err)
	}

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
		if cfg, err = loadDiffConfig(ctx, cfgPath); err != nil {
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
	a.baseSHA = baseRef
	now, err := diffNow(a.env)
	if err != nil {
		return a.fail(err)
	}
	maxSnapshot, err := snapshotLimit(a.env)
	if err != nil {
		return a.fail(err)
	}
	var sf schemaFlags
	build := c.Build
	if build != "" && relWork != "." {
		// The build runs at the repository root (of the work tree, and of
		// the base's worktree): enter the working directory first.
		build = "cd " + shellQuote(relWork) + " && " + build
	}
	opts := check.Options{
		Servers: servers, Baseline: c.Baseline, BaseRef: baseRef, Build: build, RepoDir: repo,
		Config: cfg, Now: now, ProtocolVersion: c.ProtocolVersion,
		Limits: capture.Limits{StartupTimeout: c.StartupTimeout, ShutdownGrace: c.ShutdownGrace}, DeferShutdown: true,
		MaxSnapshotBytes: maxSnapshot, Version: Version, Clock: time.Now,
		SchemaOptions: sf.options(a.env), Environ: serverEnv(a.pipelineEnv(), nil), BuildOutput: a.env.Stderr, Log: a.logger,
		Clients: c.Clients,
	}
	label := a.acceptLabel(cfg)
	if pr := a.pullRequest(); pr != nil && pr.HasLabel(label) {
		opts.AcceptBreaking = check.AcceptedByLabel
	}
	if !check.IsMode(c.Baseline) && !filepath.IsAbs(c.Baseline) {
		opts.Baseline = filepath.Join(realWork, c.Baseline) // a snapshot file, relative to working-directory
	}
	res, err := runPipeline(ctx, opts, c.FailOn, c.FailOnTags, inputHints)
	if err != nil {
		return a.fail(err)
	}
	a.guide = res.Guidance(c.FailOn, label, opts.AcceptBreaking != "", a.refreshCommands(servers, relWork))
	if n := res.Accepted(); n > 0 {
		a.logger("the pull request has the label %q: %d breaking change(s) accepted", label, n)
	}
	return a.deliver(ctx, repo, res.Report, res.Code)
}

// acceptLabel is the label that accepts breaking changes: the input, else
// the configuration's acceptLabel, else DefaultAcceptLabel.
func (a *actionRun) acceptLabel(cfg *config.Config) string {
	switch {
	case a.cfg.AcceptLabel != "":
		return a.cfg.AcceptLabel
	case cfg != nil && cfg.AcceptLabel != "":
		return cfg.AcceptLabel
	}
	return DefaultAcceptLabel
}
