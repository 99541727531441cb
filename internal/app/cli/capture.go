package cli

import (
	"context"
	"errors"
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/snapshotfile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// captureFlags are the flags of every command that talks to a live server.
type captureFlags struct {
	url            string
	headers        stringList
	sse            bool
	versions       stringList
	startupTimeout time.Duration
	requestTimeout time.Duration
	maxBytes       int64
	maxPages       int
	shutdownGrace  graceFlag
	cwd            string
	envs           stringList
	shell          bool
	frames         string
	// partial is --partial (capture, snapshot): write the snapshot of a
	// capture whose list failed, marked partial; offersPartial is set
	// where the flag exists, for the hint of an incomplete capture.
	partial, offersPartial bool
	// jobs is --jobs (validate, snapshot): servers captured at once.
	jobs int
	// flatView is --flat-view: also capture the view of a client that
	// declares no extension.
	flatView bool
}

func (cf *captureFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&cf.url, "url", "", "capture a server over streamable HTTP at this URL instead of running a command")
	fs.Var(&cf.headers, "header", "HTTP header `'Name: value'` for --url (repeatable); ${VAR} in the value is read from the environment, values are never printed")
	fs.BoolVar(&cf.sse, "sse", false, "with --url: use the legacy HTTP+SSE transport")
	fs.Var(&cf.versions, "protocol-version", "protocol `revision` to request (repeatable: one capture per revision; default "+capture.LatestRevision+")")
	fs.DurationVar(&cf.startupTimeout, "startup-timeout", capture.DefaultLimits.StartupTimeout, "bound on launch plus handshake")
	fs.DurationVar(&cf.requestTimeout, "request-timeout", capture.DefaultLimits.RequestTimeout, "bound on each request after the handshake")
	fs.Int64Var(&cf.maxBytes, "max-bytes", capture.DefaultLimits.MaxBytes, "bound on the total `bytes` received from the server")
	fs.IntVar(&cf.maxPages, "max-pages", capture.DefaultLimits.MaxPages, "bound on the pages read per list")
	cf.shutdownGrace.d = capture.DefaultLimits.ShutdownGrace
	fs.Var(&cf.shutdownGrace, "shutdown-grace", "how long a stdio server is given to exit after its stdin closes, and again after SIGTERM, before SIGKILL (`duration`; overrides a server's shutdownGrace in the configuration)")
	fs.StringVar(&cf.cwd, "cwd", "", "working `directory` of the server command")
	fs.Var(&cf.envs, "env", "`NAME=value` added to the server's environment (repeatable)")
	fs.BoolVar(&cf.shell, "shell", false, "run the server command through /bin/sh -c")
	fs.BoolVar(&cf.flatView, "flat-view", false, "also capture, in a session of its own, the lists a client that declares no extension receives (a server with groups SHOULD flatten their tools into tools/list for it); the snapshot records it, and validation reports where the two views differ")
	fs.StringVar(&cf.frames, "frames", "", "also write every raw JSON-RPC frame to this `file` as JSON lines")
}

// server is the server the flags and the command after -- name.
func (cf *captureFlags) server(env *Env, cmd []string) (check.Server, error) {
	if cf.url != "" {
		if len(cmd) > 0 {
			return check.Server{}, usagef("give either --url or a command after --, not both")
		}
		h, err := check.ParseHeaders(cf.headers, env.Getenv)
		if err != nil {
			return check.Server{}, usagef("--header %v", err)
		}
		return check.Server{URL: cf.url, Headers: h, SSE: cf.sse}, nil
	}
	if cf.sse || len(cf.headers) > 0 {
		return check.Server{}, usagef("--sse and --header need --url")
	}
	if len(cmd) == 0 {
		return check.Server{}, usagef("no server given: pass the command after -- (mcp-surface capture -- node server.js) or use --url")
	}
	return check.Server{Command: cmd, Shell: cf.shell, Env: cf.envs, Dir: cf.cwd}, nil
}

// serverEnv is the environment a server command runs with: ours, plus --env.
func serverEnv(env *Env, extra []string) []string {
	var out []string
	if env.Environ != nil {
		out = env.Environ()
	}
	return append(slices.Clone(out), extra...)
}

func (cf *captureFlags) limits() capture.Limits {
	l := capture.Limits{
		StartupTimeout: cf.startupTimeout, RequestTimeout: cf.requestTimeout,
		MaxBytes: cf.maxBytes, MaxPages: cf.maxPages,
	}
	if cf.shutdownGrace.set {
		l.ShutdownGrace = cf.shutdownGrace.d
	}
	return l
}

// options are the pipeline's options for one server, from the flags. Each
// server's shutdown overlaps the work after its capture; RunEnv waits for
// every server before the process exits.
func (cf *captureFlags) options(env *Env, servers ...check.Server) check.Options {
	return check.Options{Servers: servers, Limits: cf.limits(), Version: Version, Clock: time.Now, Environ: serverEnv(env, nil),
		DeferShutdown: true, AllowPartial: cf.partial, Jobs: cf.jobs, FlatView: cf.flatView}
}

// registerPartial adds --partial, for the commands that write snapshots.
func (cf *captureFlags) registerPartial(fs *flag.FlagSet) {
	cf.offersPartial = true
	fs.BoolVar(&cf.partial, "partial", false, "write the snapshot even when a list the server advertises fails (other than -32601), marked partial: that list holds nothing and the file says it failed; never commit one (without it such a capture exits 2)")
}

// registerJobs adds --jobs, for the commands that capture the servers of
// a configuration.
func (cf *captureFlags) registerJobs(fs *flag.FlagSet) {
	fs.IntVar(&cf.jobs, "jobs", 0, "at most `n` servers of the configuration captured at once (default: the number of CPUs; 1: one after the other); the output is the same whatever it is")
}

// checkLimits refuses limits a capture cannot work with, and a --frames
// file that cannot be written.
func (cf *captureFlags) checkLimits() error {
	if cf.maxPages < 1 || cf.maxBytes < 1 || cf.startupTimeout <= 0 || cf.requestTimeout <= 0 || cf.shutdownGrace.d <= 0 {
		return usagef("--max-pages, --max-bytes, --startup-timeout, --request-timeout and --shutdown-grace must be positive")
	}
	if cf.jobs < 0 {
		return usagef("--jobs %d: give a positive number, or 0 for the number of CPUs", cf.jobs)
	}
	return frontend.CheckOutput("--frames", cf.frames)
}

// graceFlag is --shutdown-grace: a duration that remembers whether it was
// given, since a server's shutdownGrace in the configuration applies only
// when it was not.
type graceFlag struct {
	d   time.Duration
	set bool
}

func (g *graceFlag) String() string {
	if g == nil {
		return ""
	}
	return g.d.String()
}

func (g *graceFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("use a duration such as 100ms or 2s")
	}
	g.d, g.set = d, true
	return nil
}

func (cf *captureFlags) revisions() ([]string, error) {
	if len(cf.versions) == 0 {
		return []string{capture.LatestRevision}, nil
	}
	var out []string
	for _, v := range cf.versions {
		if !slices.Contains(capture.Revisions, v) {
			return nil, usagef("--protocol-version %q: use one of %s", v, strings.Join(capture.Revisions, ", "))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// captureAll runs one capture per requested revision. On failure it
// returns the captures made so far (the failed one included, partial) and
// the error. --frames is written either way.
func (cf *captureFlags) captureAll(ctx context.Context, env *Env, cmd []string) ([]*capture.Capture, error) {
	s, err := cf.server(env, cmd)
	if err != nil {
		return nil, err
	}
	revs, err := cf.revisions()
	if err != nil {
		return nil, err
	}
	if err := cf.checkLimits(); err != nil {
		return nil, err
	}
	caps, err := check.Captures(ctx, cf.options(env, s), revs)
	if cf.offersPartial {
		err = snapshotfile.PartialHint(err)
	}
	return caps, frontend.WriteFrames(ctx, env.Stdout, cf.frames, caps, nil, frontend.FlagHints.Wrap(err))
}

func runCapture(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("capture", "[flags] (-- CMD ARGS... | --url URL)", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	cf.registerPartial(fs)
	out := fs.String("o", "", "write the snapshot to this `file` (default stdout)")
	cmd, err := parseServerFlags(fs, args)
	if err != nil {
		return 0, err
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	if len(revs) > 1 && (*out == "" || *out == frontend.StdoutPath) {
		return 0, usagef("several --protocol-version values need -o FILE (one snapshot per revision: FILE.<revision>.json)")
	}
	for _, rev := range revs {
		if err := frontend.CheckOutput("-o", manifest.RevisionPath(*out, rev, len(revs) > 1)); err != nil {
			return 0, err
		}
	}
	defer frontend.BoundCaptureMemory(env.Getenv, cf.maxBytes)()
	caps, err := cf.captureAll(ctx, env, cmd)
	if err != nil {
		return 0, err
	}
	if *out == "" {
		*out = frontend.StdoutPath
	}
	w := snapshotfile.Streams{Stdout: env.Stdout, Stderr: env.Stderr}
	if err := snapshotfile.Capture(ctx, w, caps, snapshotfile.Options{Path: *out, Several: len(revs) > 1, Partial: cf.partial}); err != nil {
		return 0, err
	}
	return frontend.ExitOK, nil
}
