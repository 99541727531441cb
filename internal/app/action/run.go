package action

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/spec"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

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

// Run is one run of the action: the inputs from env, then mode publish,
// or modes full and analyze. Its exit code is the verdict's; an error
// means the tool could not do its job (exit 2), and was already reported
// where a workflow shows it.
func Run(ctx context.Context, env *Env) (int, error) {
	ae := actionenv.New(env.Getenv, env.Stdout)
	cfg, err := readActionConfig(ae) // masks the secrets first
	run := &actionRun{env: env, ae: ae, cfg: cfg}
	if err != nil {
		return run.fail(err)
	}
	run.logger = func(format string, args ...any) { ae.Info("mcp-surface: " + run.logf(format, args...)) }
	if run.gctx, err = ae.Context(); err != nil {
		return run.fail(err)
	}
	run.ws = run.gctx.Workspace
	if run.ws == "" {
		if run.ws, err = env.Getwd(); err != nil {
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
	if cfg.Lock != "" {
		return run.lockRun(ctx)
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
		if cfg, err = frontend.LoadConfig(ctx, cfgPath); err != nil {
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
	now, err := frontend.Today(a.env.Getenv, a.env.Clock)
	if err != nil {
		return a.fail(err)
	}
	maxSnapshot, err := frontend.SnapshotLimit(a.env.Getenv)
	if err != nil {
		return a.fail(err)
	}
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
		MaxSnapshotBytes: maxSnapshot, Version: version, Clock: a.env.Clock,
		SchemaOptions: frontend.SchemaOptions(spec.Options{BaseURL: schemaBaseURL}, a.env.Getenv), Environ: a.pipelineEnv().environ(), BuildOutput: a.env.Stderr, Log: a.logger,
		Clients: c.Clients, Jobs: c.Jobs,
	}
	label := a.acceptLabel(cfg)
	if pr := a.pullRequest(); pr != nil && pr.HasLabel(label) {
		opts.AcceptBreaking = check.AcceptedByLabel
	}
	if f := c.Baseline.File; f != "" && !filepath.IsAbs(f) {
		opts.Baseline.File = filepath.Join(realWork, f) // a snapshot file, relative to working-directory
	}
	res, err := frontend.RunCheck(ctx, opts, frontend.InputHints)
	if err != nil {
		return a.fail(err)
	}
	code := frontend.ExitOK
	if res.Fails(c.FailOn, c.FailOnTags) {
		code = frontend.ExitFindings
	}
	for _, l := range res.Incomplete() { // a list that failed: the report names it, the run could not do its job
		a.logger("the comparison is incomplete: %s", l)
		code = frontend.ExitFailure
	}
	a.guide = res.Guidance(c.FailOn, label, opts.AcceptBreaking != "", a.refreshCommands(servers, relWork))
	if n := res.Accepted(); n > 0 {
		a.logger("the pull request has the label %q: %d breaking change(s) accepted", label, n)
	}
	return a.deliver(ctx, repo, res.Report, code)
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
