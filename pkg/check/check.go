package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// Baseline modes (Options.Baseline); any other value is a snapshot file.
const (
	BaselineAuto     = "auto"     // the snapshot at the base if committed, else build the base
	BaselineSnapshot = "snapshot" // the committed snapshot (at the base ref, or in the work tree)
	BaselineBuild    = "build"    // build and capture the base in a temporary worktree
	BaselineNone     = "none"     // no comparison: validation only
)

// IsMode reports whether a baseline is one of the modes rather than a file.
func IsMode(baseline string) bool {
	return slices.Contains([]string{BaselineAuto, BaselineSnapshot, BaselineBuild, BaselineNone}, baseline)
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
	// Baseline is a mode (BaselineAuto when "") or a snapshot file.
	Baseline string
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
	// Parallel bounds concurrent servers; 0 means 4.
	Parallel int
	// Log receives progress lines, one call at a time (Run serializes
	// them across the servers it checks concurrently); nil for none.
	Log func(format string, args ...any)
	// Clients are client profiles every tool is checked against (the
	// client-* lint, tool-became-client-incompatible in the diff), in
	// addition to Config's clients:.
	Clients []clients.Profile
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
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	} else {
		// Servers are checked concurrently; the caller's Log sees one
		// line at a time.
		var mu sync.Mutex
		log := o.Log
		o.Log = func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			log(format, args...)
		}
	}
	if o.BuildOutput != nil {
		o.BuildOutput = &lockedWriter{w: o.BuildOutput}
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	names := map[string]bool{}
	for _, s := range o.Servers {
		if names[s.Name] {
			return nil, fmt.Errorf("two servers are named %q; names must be unique", s.Name)
		}
		names[s.Name] = true
	}
	// Schemas first: no server is started when validation cannot happen.
	if o.Schemas == nil {
		s, err := spec.Load(ctx, o.SchemaOptions)
		if err != nil {
			return nil, err
		}
		o.Schemas = s
	}
	if o.Build != "" {
		o.Log("building the head: %s", o.Build)
		if err := o.runBuild(ctx, o.RepoDir); err != nil {
			return nil, fmt.Errorf("building the head: %w", err)
		}
	}

	outs := make([]*Outcome, len(o.Servers))
	errs := make([]error, len(o.Servers))
	sem := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	for i, s := range o.Servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i], errs[i] = o.checkServer(ctx, s)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	res := &Result{Report: &report.Report{Version: o.Version}, Servers: outs}
	o.locate(ctx, outs)
	for _, out := range outs {
		res.Findings = append(res.Findings, out.Section.Spec...)
		res.Findings = append(res.Findings, out.Section.Lint...)
		res.Findings = append(res.Findings, out.Section.Changes...)
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
			all := append(append(append([]finding.Finding(nil), out.Section.Spec...), out.Section.Lint...), out.Section.Changes...)
			out.Section.Locations = l.LocateAll(all)
		}
	}
}

// lockedWriter lets the builds of several servers' bases share the
// caller's writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
