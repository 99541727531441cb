package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
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

// partialHint adds to an incomplete capture's error how to write what
// was read anyway.
func partialHint(err error) error {
	var ie *capture.IncompleteError
	if errors.As(err, &ie) {
		return fmt.Errorf("%w; or pass --partial to write what was read, marked partial", err)
	}
	var ue *manifest.UnidentifiedError
	if errors.As(err, &ue) {
		return fmt.Errorf("%w; fix the server's list, or pass --partial to write the snapshot of everything else with the item recorded under unidentified", err)
	}
	return err
}

// warnPartial says on stderr that a snapshot written is partial, or
// records items it could not identify.
func warnPartial(env *Env, path string, m *manifest.Manifest) {
	if len(m.Unidentified) > 0 {
		fmt.Fprintf(env.Stderr, "warning: %s records %d item(s) served without identity under \"unidentified\" (--partial); a diff compares everything else and says so\n",
			path, len(m.Unidentified))
	}
	if m.Incomplete() {
		fmt.Fprintf(env.Stderr, "warning: %s is a PARTIAL snapshot (--partial): %s; the failed list holds nothing, and a diff against it exits 2; do not commit it\n",
			path, report.LogLine(m.PartialSummary(), report.MaxText))
	}
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
	return checkOutput("--frames", cf.frames)
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
		err = partialHint(err)
	}
	return caps, cf.writeFrames(ctx, env, caps, nil, frontend.FlagHints.Wrap(err))
}

// writeFrames writes --frames, when asked and capturing was attempted
// (caps not nil), with the secrets redacted, and adds its failure to err.
func (cf *captureFlags) writeFrames(ctx context.Context, env *Env, caps []*capture.Capture, secrets []string, err error) error {
	if cf.frames == "" || caps == nil {
		return err
	}
	// Frames received while a server shut down are in the file too.
	for _, c := range caps {
		c.Wait()
	}
	var ferr error
	if cf.frames == stdoutPath {
		ferr = capture.WriteFrames(env.Stdout, caps, secrets)
	} else if f, cerr := outfile.Create(ctx, cf.frames); cerr != nil {
		ferr = cerr
	} else if ferr = capture.WriteFrames(f, caps, secrets); ferr != nil {
		f.Abort()
	} else {
		ferr = f.Commit()
	}
	if ferr != nil {
		return errors.Join(err, fmt.Errorf("writing --frames: %w", ferr))
	}
	return err
}

// reportDiagnostics prints what a capture noticed to stderr. The
// fallback from server/discover to initialize is how today's servers
// answer, an info line (check and validate call it a note), not a warning.
func reportDiagnostics(w io.Writer, c *capture.Capture) {
	for _, d := range c.Diagnostics {
		prefix := "warning"
		if d.Code == capture.DiagHandshakeFallback {
			prefix = "info"
		}
		fmt.Fprintf(w, "%s: %s\n", prefix, report.LogLine(d.Message, report.MaxText))
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", report.LogLine(d.Detail, report.MaxText))
		}
	}
}

func runCapture(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("capture", "[flags] (-- CMD ARGS... | --url URL)", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	cf.registerPartial(fs)
	out := fs.String("o", "", "write the snapshot to this `file` (default stdout)")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	if len(revs) > 1 && (*out == "" || *out == stdoutPath) {
		return 0, usagef("several --protocol-version values need -o FILE (one snapshot per revision: FILE.<revision>.json)")
	}
	for _, rev := range revs {
		if err := checkOutput("-o", manifest.RevisionPath(*out, rev, len(revs) > 1)); err != nil {
			return 0, err
		}
	}
	defer frontend.BoundCaptureMemory(env.Getenv, cf.maxBytes)()
	caps, err := cf.captureAll(ctx, env, cmd)
	if err != nil {
		return 0, err
	}
	build := manifest.Build
	if cf.partial {
		build = manifest.BuildPartial
	}
	for i, c := range caps {
		m, err := build(c)
		// The shutdown overlapped the build; what it noticed is reported
		// with the rest.
		c.Wait()
		reportDiagnostics(env.Stderr, c)
		if err != nil {
			return 0, partialHint(fmt.Errorf("building the snapshot of %s: %w", c.Target, err))
		}
		summary, rev := manifest.Summary(c, m), c.RequestedVersion
		// Done with the capture: a large one is not kept while its
		// snapshot is written (which streams).
		caps[i], c = nil, nil
		if *out == "" {
			*out = stdoutPath
		}
		path := manifest.RevisionPath(*out, rev, len(revs) > 1)
		if err := writeSnapshot(ctx, env, path, m); err != nil {
			return 0, err
		}
		if path != stdoutPath {
			fmt.Fprintf(env.Stderr, "wrote %s\n", path)
		}
		fmt.Fprintln(env.Stderr, report.LogLine(summary, report.MaxText))
		warnPartial(env, path, m)
	}
	return frontend.ExitOK, nil
}

// writeSnapshot writes a snapshot as writeOutput writes bytes, streaming
// it: a large one is never all in memory.
func writeSnapshot(ctx context.Context, env *Env, path string, m *manifest.Manifest) error {
	if path == stdoutPath {
		return manifest.EncodeTo(env.Stdout, m)
	}
	return manifest.WriteFileContext(ctx, path, m)
}
