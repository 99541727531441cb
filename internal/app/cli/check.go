package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func runCheck(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("check", help("check"), env.Stderr)
	rf, sf, cf := registerPipeline(fs)
	baseline := fs.String("baseline", string(check.BaselineAuto), "auto|snapshot|build|none, or a snapshot `file`")
	baseRef := fs.String("base-ref", "", "git `ref` of the base (e.g. origin/main); default: compare with the snapshot in the work tree")
	build := fs.String("build", "", "shell `command` that builds the server, run before capturing at head and at base")
	snapshot := fs.String("snapshot", "mcp-surface.json", "the committed snapshot `file`, relative to the repository root")
	jobs := fs.Int("jobs", 0, "at most `n` builds and captures at once: base and head, and servers (default: the number of CPUs; 1: one after the other)")
	name := fs.String("name", "", "server `name` in reports (default: from the configuration, or none)")
	var failTags stringList
	fs.Var(&failTags, "fail-on-tag", "also exit 1 when an unacknowledged finding above info carries this `tag` (e.g. sec); repeatable")
	cmd, err := parseServerFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if err := rf.resolve(ctx, env); err != nil {
		return 0, err
	}
	if *jobs < 0 {
		return 0, usagef("--jobs %d: give a positive number, or 0 for the number of CPUs", *jobs)
	}
	if check.ParseBaseline(*baseline).Mode == check.BaselineBuild && *baseRef == "" {
		return 0, usagef("baseline build needs a base ref (--base-ref)")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	repo, err := gitrepo.TopLevel(ctx, cwd)
	if err != nil {
		if *baseRef != "" {
			return 0, fmt.Errorf("--base-ref needs a git repository: %w", err)
		}
		repo = cwd
	}
	opts := check.Options{
		Baseline: check.ParseBaseline(*baseline), BaseRef: *baseRef, Build: *build, RepoDir: repo,
		Config: rf.cfg, Now: rf.now, SchemaOptions: sf.options(env),
		Limits: cf.limits(), MaxSnapshotBytes: rf.maxSnapshot, Version: Version, Clock: time.Now,
		Environ: serverEnv(env, nil), BuildOutput: env.Stderr, Jobs: *jobs,
		Log: func(format string, args ...any) { fmt.Fprintln(env.Stderr, "mcp-surface: "+logf(format, args...)) },
	}
	if len(cf.versions) > 0 {
		revs, err := cf.revisions()
		if err != nil {
			return 0, err
		}
		opts.ProtocolVersion = revs[0]
	}
	if len(cmd) > 0 || cf.url != "" {
		s, err := cf.server(env, cmd)
		if err != nil {
			return 0, err
		}
		s.Name, s.Snapshot = *name, gitrepo.RelPath(repo, cwd, *snapshot)
		if rel, err := filepath.Rel(repo, filepath.Join(cwd, cf.cwd)); err == nil {
			s.Dir = rel
		}
		opts.Servers = []check.Server{s}
	} else if rf.cfg != nil && len(rf.cfg.Servers) > 0 {
		path := rf.config
		if path == "" {
			path = config.DefaultFile
		}
		if opts.Servers, err = check.FromConfig(rf.cfg, path, repo, env.Getenv); err != nil {
			return 0, err
		}
	} else {
		return 0, usagef("no server to check: pass the command after --, use --url, or list servers: in .mcp-surface.yaml")
	}

	res, err := runPipeline(ctx, opts, rf.failOn, failTags)
	if err != nil {
		return 0, err
	}
	o := rf.out.options(env, rf.failOn)
	o.SnapshotCommands = map[string]string{}
	fromList := len(cmd) == 0 && cf.url == ""
	for _, s := range opts.Servers {
		o.SnapshotCommands[s.Name] = check.SnapshotCommand(s, *snapshot, fromList, rf.config, len(opts.Servers) > 1)
	}
	o.AckYAML = res.AcknowledgementsByServer(rf.failOn, check.MaxCommentAcks)
	if err := rf.out.emit(ctx, env, res.Report, o); err != nil {
		return 0, err
	}
	if err := incompleteError(res.Result); err != nil {
		return frontend.ExitFailure, err
	}
	return res.Code, nil
}

// checked is the pipeline's result with its exit code.
type checked struct {
	*check.Result
	Code int // frontend.ExitOK or frontend.ExitFindings
}

// runPipeline runs check.Run and judges its findings against failOn and
// failTags. Errors say how to fix them in the command line's terms.
func runPipeline(ctx context.Context, o check.Options, failOn rules.Level, failTags []string) (*checked, error) {
	res, err := frontend.RunCheck(ctx, o, frontend.FlagHints)
	if err != nil {
		return nil, err
	}
	out := &checked{Result: res, Code: frontend.ExitOK}
	if res.Fails(failOn, failTags) {
		out.Code = frontend.ExitFindings
	}
	return out, nil
}
