package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// BaselineMode says how the baseline of a server is found.
type BaselineMode string

// The baseline modes; the command line and the action accept their names.
const (
	BaselineAuto     BaselineMode = "auto"     // the snapshot at the base if committed, else build the base
	BaselineSnapshot BaselineMode = "snapshot" // the committed snapshot (at the base ref, or in the work tree)
	BaselineBuild    BaselineMode = "build"    // build and capture the base in a temporary worktree
	BaselineNone     BaselineMode = "none"     // no comparison: validation only
)

// BaselineModes are the modes, in the order usage texts list them.
var BaselineModes = []BaselineMode{BaselineAuto, BaselineSnapshot, BaselineBuild, BaselineNone}

// Baseline is what head is compared with: a snapshot file when File is
// set, else a mode (the zero value is BaselineAuto).
type Baseline struct {
	Mode BaselineMode
	File string
}

// ParseBaseline reads a baseline as the command line and the action
// write it: a mode's name, or else a snapshot file.
func ParseBaseline(s string) Baseline {
	if slices.Contains(BaselineModes, BaselineMode(s)) {
		return Baseline{Mode: BaselineMode(s)}
	}
	return Baseline{File: s}
}

// mode is the baseline's mode; "" for a file.
func (b Baseline) mode() BaselineMode {
	switch {
	case b.File != "":
		return ""
	case b.Mode == "":
		return BaselineAuto
	}
	return b.Mode
}

// ErrNoServer is returned by Run when Options.Servers is empty.
var ErrNoServer = errors.New("no server to check")

// Server is one server of a check: from a command line, an action's
// inputs, or the servers: list of .mcp-surface.yaml (FromConfig).
type Server struct {
	Name    string
	Command []string // stdio command, run in Dir
	Shell   bool     // run Command[0] through /bin/sh -c
	URL     string   // streamable HTTP (or, with SSE, HTTP+SSE) instead of a command
	Headers http.Header
	SSE     bool
	// InProcess is a server running in this program, instead of a command
	// or a URL (a Go program's own tests). It is the same at every
	// checkout: compare it with a snapshot file or the one at a ref, not
	// with a base built in a worktree.
	InProcess *mcp.Server
	Env       []string // NAME=value added to Options.Environ for the command
	// Dir is the command's working directory and Snapshot the committed
	// snapshot, both relative to the repository root.
	Dir      string
	Snapshot string
	Probes   []capture.Probe
	Require  []string // require-probes: methods every advertised item of which a probe must exercise
	// Secrets are the values substituted into probe arguments from the
	// environment: never printed.
	Secrets []string
	// ProtocolVersion is this server's revision; "" means
	// Options.ProtocolVersion, else capture.LatestRevision.
	ProtocolVersion string
	// ShutdownGrace is this server's capture.Limits.ShutdownGrace, used
	// when Options.Limits does not set one (0: the default).
	ShutdownGrace time.Duration
}

// Describe names the server for people.
func (s Server) Describe() string {
	if s.InProcess != nil {
		return capture.InProcess{Server: s.InProcess}.Describe()
	}
	if s.URL != "" {
		return capture.HTTP{URL: s.URL, SSE: s.SSE}.Describe()
	}
	return strings.Join(s.Command, " ")
}

// Target is the capture target of the server checked out at root (the
// work tree, or a worktree of the base); environ is the environment the
// command starts with.
func (s Server) Target(environ []string, root string) capture.Target {
	if s.InProcess != nil {
		return capture.InProcess{Server: s.InProcess}
	}
	if s.URL != "" {
		return capture.HTTP{URL: s.URL, Headers: s.Headers, SSE: s.SSE}
	}
	return capture.Command{Argv: s.Command, Shell: s.Shell, Env: append(slices.Clone(environ), s.Env...), Dir: filepath.Join(root, s.Dir)}
}

// Options are the whole pipeline's input.
type Options struct {
	Servers []Server
	// Baseline is a mode (BaselineAuto for the zero value) or a snapshot
	// file.
	Baseline Baseline
	// BaseRef is the base commit or ref; "" compares with the snapshot in
	// the work tree.
	BaseRef string
	// Build is a shell command that builds the servers, run at the
	// repository root of the head and of the base's worktree.
	Build string
	// RepoDir is the repository root; commands, snapshots and findings'
	// source locations are relative to it.
	RepoDir string
	// Config is .mcp-surface.yaml (policy, diff options); nil for none.
	Config *config.Config
	// Now is the moment for acknowledgement expiry and sunset dates.
	Now time.Time
	// ProtocolVersion, when set, is requested from every server, whatever
	// its own ProtocolVersion.
	ProtocolVersion string
	// Limits bound every capture (zero fields take capture.DefaultLimits,
	// or for the shutdown grace the server's own).
	Limits capture.Limits
	// MaxSnapshotBytes bounds each snapshot file read (0:
	// manifest.DefaultMaxFileBytes).
	MaxSnapshotBytes int64
	// DeferShutdown overlaps each server's shutdown with the work after
	// its capture (capture.Options.DeferShutdown). Run, Validate and
	// Probe wait for every server before they return; Captures returns
	// the last capture still shutting down: call its Wait, or
	// capture.WaitShutdowns, before exiting.
	DeferShutdown bool
	// Version is this program's version: the clientInfo of each capture
	// and the report's.
	Version string
	// Clock times each capture's phases; nil leaves the timings zero.
	Clock func() time.Time
	// Schemas are the published schemas, loaded; when nil they are loaded
	// with SchemaOptions before any server is started.
	Schemas       *spec.Schemas
	SchemaOptions spec.Options
	// Environ is the environment of every command started (the build, the
	// servers, each with its Server.Env added). nil leaves it to os/exec,
	// which passes this process's environment on.
	Environ []string
	// BuildOutput receives the build's output; nil discards it.
	BuildOutput io.Writer
	// Jobs bounds the builds and captures Run makes at once: the head's
	// and the base's builds, each server's captures at head and at base,
	// several servers'. 0 means the number of CPUs; 1 makes them one
	// after the other (the head's build, the base's, then each server's
	// head and base), as a sequential run. The report is the same
	// whatever the number. Captures, Validate and Probe bound the servers
	// they capture at once by it too (see EachCapture).
	Jobs int
	// Log receives progress lines, one call at a time. Run prints the
	// lines and the build output of the steps it runs at once in the
	// order of a sequential run (each step's own are held until the
	// steps before it are done), never interleaved; nil for none.
	Log func(format string, args ...any)
	// Clients are client profiles every tool is checked against (the
	// client-* lint, tool-became-client-incompatible in the diff), in
	// addition to Config's clients:.
	Clients []clients.Profile
	// AllowPartial lets Captures return a capture one of whose advertised
	// lists failed (capture.ListFailures), whose snapshot is then partial
	// (manifest.Manifest.Partial); without it Captures stops with a
	// *capture.IncompleteError. Run and Diff always go on: the report
	// names the failed list, and Result.Incomplete says the job could not
	// be done whole.
	AllowPartial bool
	// FlatView also captures the view of a client that declares no
	// extension (capture.Options.FlatView).
	FlatView bool
	// AcceptBreaking, when set, is the reason every unacknowledged
	// breaking change is acknowledged with (a pull request's accept
	// label: AcceptedByLabel): the break is intended, and the report says
	// it was accepted rather than dropping it.
	AcceptBreaking string
}

// AcceptedByLabel is the reason of the breaking changes a pull request's
// accept label acknowledged (Options.AcceptBreaking).
const AcceptedByLabel = "accepted by label"

// Outcome is what the pipeline found for one server.
type Outcome struct {
	Server    Server
	Head      *manifest.Manifest
	Base      *manifest.Manifest // nil without a baseline
	BaseLabel string
	Capture   *capture.Capture
	// Section is the server's part of the report: its findings by kind,
	// sorted, after policy.
	Section report.Section
	Diff    *diff.Result // nil without a baseline
	// Accepted is the number of breaking changes Options.AcceptBreaking
	// acknowledged.
	Accepted int
}

// Result is the outcome of the whole pipeline.
type Result struct {
	Report   *report.Report
	Servers  []*Outcome
	Findings []finding.Finding // every finding of every server, after policy
	// Captures are the captures Validate and Probe made, in order, also
	// when an error stopped them (the failed one partial): for writing
	// their frames. nil when no capture was attempted.
	Captures []*capture.Capture
}

// Fails reports whether a finding is at or above failOn ("" for none), or
// an unacknowledged finding above info carries one of the tags.
func (r *Result) Fails(failOn rules.Level, tags []string) bool {
	return Fails(r.Findings, failOn, tags)
}

// Fails is Result.Fails for any findings.
func Fails(fs []finding.Finding, failOn rules.Level, tags []string) bool {
	if finding.AtOrAbove(fs, failOn) {
		return true
	}
	for _, f := range fs {
		if f.Acknowledged != "" || f.Level.Rank() <= rules.LevelInfo.Rank() {
			continue
		}
		for _, t := range tags {
			if slices.Contains(f.Tags, t) {
				return true
			}
		}
	}
	return false
}

// Incomplete describes, one line per side, every partial snapshot among
// the outcomes (a list the server advertises failed, at head or at
// base): the comparison could not be made whole, which a front end
// reports as a tool failure even though the report was written. nil
// when every snapshot is complete. The lines hold server text: escape
// them before printing.
func (r *Result) Incomplete() []string {
	var out []string
	for _, o := range r.Servers {
		name := o.Server.label()
		if name != "" {
			name += ": "
		}
		if o.Head != nil && o.Head.Incomplete() {
			label := "head"
			if o.Section.Head != nil && o.Section.Head.Label != "" && o.Section.Head.Label != o.Server.label() {
				label = "head (" + o.Section.Head.Label + ")"
			}
			out = append(out, name+label+": "+o.Head.PartialSummary())
		}
		if o.Base != nil && o.Base.Incomplete() {
			label := "base"
			if o.BaseLabel != "" {
				label = "base (" + o.BaseLabel + ")"
			}
			out = append(out, name+label+": "+o.Base.PartialSummary())
		}
	}
	return out
}

// Run captures every server, validates it, compares it with its baseline
// and builds the report. An error means the pipeline could not do its job
// (a server did not start, a baseline could not be read); findings never
// make an error.
func Run(ctx context.Context, o Options) (*Result, error) {
	if len(o.Servers) == 0 {
		return nil, ErrNoServer
	}
	if err := CheckConfig(o.Config); err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	log := o.Log
	if log == nil {
		log = func(string, ...any) {}
	}
	o.Log = log
	n := o.Jobs
	if n <= 0 {
		n = runtime.NumCPU()
	}
	names := map[string]bool{}
	for _, s := range o.Servers {
		if names[s.Name] {
			return nil, fmt.Errorf("two servers are named %q; names must be unique", s.Name)
		}
		names[s.Name] = true
	}
	// Every baseline short of a build is known before anything starts;
	// one worktree of the base serves every server that needs it.
	plans := make([]baseline, len(o.Servers))
	needBase := false
	for i, s := range o.Servers {
		b, err := o.baselineOf(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("baseline of %s: %w", s.label(), err)
		}
		plans[i], needBase = b, needBase || b.build
	}

	// Steps: 0 the head's build, 1 the base's worktree and build, then
	// one per server; each prints through q, in that order.
	q := newOrdered(2 + len(o.Servers))
	defer q.flush()
	j := newJobs(ctx, n)
	defer j.stop()
	step := func(i int) *Options {
		t := o
		t.Log, t.BuildOutput = q.log(i, log), q.writer(i, o.BuildOutput)
		return &t
	}
	var wt string
	cleanup := func() {}
	defer func() { cleanup() }()
	// The schemas load while the builds run (first, with one job): the
	// revision asked for now, so that no server is started when it cannot
	// be validated; the one a server negotiates, and the others the
	// comparison of revisions needs, when they are (an offline run needs
	// only those).
	schemas := o.Schemas
	err := j.all(
		func() error {
			if schemas != nil {
				return nil
			}
			var err error
			schemas, err = spec.Open(j.ctx, o.SchemaOptions, o.eagerRevisions()...)
			return err
		},
		func() error {
			defer q.finish(0)
			if o.Build == "" {
				return nil
			}
			t := step(0)
			t.Log("building the head: %s", o.Build)
			if err := j.slot(func() error { return t.runBuild(j.ctx, o.RepoDir) }); err != nil {
				return fmt.Errorf("building the head: %w", err)
			}
			return nil
		},
		func() error {
			defer q.finish(1)
			if !needBase {
				return nil
			}
			var err error
			wt, cleanup, err = step(1).baseWorktree(j.ctx, j)
			return err
		},
	)
	if err != nil {
		return nil, err
	}
	o.Schemas = schemas

	outs := make([]*Outcome, len(o.Servers))
	servers := make([]func() error, len(o.Servers))
	for i, s := range o.Servers {
		servers[i] = func() error {
			defer q.finish(2 + i)
			var err error
			outs[i], err = step(2+i).checkServer(j, s, plans[i], wt)
			return err
		}
	}
	if err := j.all(servers...); err != nil {
		return nil, err
	}

	res := &Result{Report: &report.Report{Version: o.Version}, Servers: outs}
	o.locate(ctx, outs)
	for _, out := range outs {
		res.Findings = append(res.Findings, out.Section.Findings...)
		res.Report.Servers = append(res.Report.Servers, out.Section)
	}
	return res, nil
}

// locate finds the source line of every finding in the repository.
func (o *Options) locate(ctx context.Context, outs []*Outcome) {
	if o.RepoDir == "" {
		return
	}
	var files []string
	if fs, err := locate.GitFiles(ctx, o.RepoDir); err == nil {
		// Snapshot files name every item: they are where a finding
		// lands when no source line defines it, never a source match.
		snapshots := map[string]bool{}
		for _, s := range o.Servers {
			snapshots[s.Snapshot] = true
		}
		for _, f := range fs {
			if !snapshots[f] {
				files = append(files, f)
			}
		}
	}
	fallback := ""
	if _, err := os.Stat(filepath.Join(o.RepoDir, config.DefaultFile)); err == nil {
		fallback = config.DefaultFile
	}
	locators := map[string]*locate.Locator{}
	for _, out := range outs {
		l, ok := locators[out.Server.Snapshot]
		if !ok {
			l, _ = locate.New(locate.Options{Dir: o.RepoDir, Files: files, Snapshot: out.Server.Snapshot, Fallback: fallback})
			locators[out.Server.Snapshot] = l
		}
		if l != nil {
			all := slices.Clone(out.Section.Findings)
			out.Section.Locations = l.LocateAll(all)
		}
	}
}
