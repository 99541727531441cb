package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/locate"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Baseline modes.
const (
	BaselineAuto     = "auto"     // the snapshot at the base if committed, else build the base
	BaselineSnapshot = "snapshot" // the committed snapshot (at the base ref, or in the work tree)
	BaselineBuild    = "build"    // build and capture the base in a temporary worktree
	BaselineNone     = "none"     // no comparison: validation only
)

// serverSpec is one server of a check: from the command line or from the
// servers: list of .mcp-surface.yaml.
type serverSpec struct {
	Name     string
	Command  []string // stdio command (run in Dir)
	Shell    bool
	URL      string
	Headers  http.Header
	SSE      bool
	Env      []string // added to the environment
	Dir      string   // working directory, relative to the repository root
	Snapshot string   // committed snapshot, relative to the repository root
	Probes   []capture.Probe
	Require  []string // require-probes
	// Secrets are values substituted into probe arguments from the
	// environment: never printed.
	Secrets []string
	// ProtocolVersion from the configuration; "" = flags or the default.
	ProtocolVersion string
}

// describe names the server for people.
func (s serverSpec) describe() string {
	if s.URL != "" {
		return capture.HTTP{URL: s.URL, SSE: s.SSE}.Describe()
	}
	return strings.Join(s.Command, " ")
}

// target builds the capture target with root as the checkout holding the
// server (the work tree, or a worktree of the base).
func (s serverSpec) target(env *Env, root string) capture.Target {
	if s.URL != "" {
		return capture.HTTP{URL: s.URL, Headers: s.Headers, SSE: s.SSE}
	}
	return capture.Command{Argv: s.Command, Shell: s.Shell, Env: serverEnv(env, s.Env), Dir: filepath.Join(root, s.Dir)}
}

// checkOptions is the whole pipeline's input, from `check` flags or from
// the action's inputs.
type checkOptions struct {
	Servers  []serverSpec
	Baseline string // a mode above, or a snapshot file
	BaseRef  string // the base commit or ref ("" = the work tree's snapshot)
	Build    string // shell command that builds the server, run at head and at base
	RepoDir  string // the repository root
	Config   *config.Config
	FailOn   rules.Level
	FailTags []string
	Now      time.Time
	Capture  *captureFlags // limits and protocol version
	Schemas  spec.Options
	// Parallel bounds concurrent captures (several servers).
	Parallel int
	// Log receives progress lines (stderr); nil for none.
	Log func(format string, args ...any)
}

// serverOutcome is what the pipeline found for one server.
type serverOutcome struct {
	Spec      serverSpec
	Head      *manifest.Manifest
	Base      *manifest.Manifest
	BaseLabel string
	Capture   *capture.Capture
	Section   report.Section
	Diff      *diff.Result
}

// checkResult is the outcome of the whole pipeline.
type checkResult struct {
	Report   *report.Report
	Servers  []*serverOutcome
	Findings []finding.Finding // every finding of every server
	Code     int               // ExitOK or ExitFindings
}

// runPipeline captures every server, validates it, compares it with its
// baseline and builds the report. An error means the tool could not do its
// job (exit 2); findings never make an error.
func runPipeline(ctx context.Context, env *Env, o checkOptions) (*checkResult, error) {
	if len(o.Servers) == 0 {
		return nil, usagef("no server to check: give a command after --, --url, or a servers: list in .mcp-surface.yaml")
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	names := map[string]bool{}
	for _, s := range o.Servers {
		if names[s.Name] {
			return nil, usagef("two servers are named %q; names must be unique", s.Name)
		}
		names[s.Name] = true
	}
	// Schemas first: no server is started when validation cannot happen.
	schemas, err := loadSchemas(ctx, o.Schemas)
	if err != nil {
		return nil, err
	}
	if o.Build != "" {
		o.Log("building the head: %s", o.Build)
		if err := runBuild(ctx, env, o.RepoDir, o.Build); err != nil {
			return nil, fmt.Errorf("building the head: %w", err)
		}
	}

	outs := make([]*serverOutcome, len(o.Servers))
	errs := make([]error, len(o.Servers))
	sem := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	for i, s := range o.Servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i], errs[i] = checkServer(ctx, env, o, s, schemas)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	res := &checkResult{Report: &report.Report{Version: Version}, Servers: outs}
	locators := map[string]*locate.Locator{}
	var files []string
	if o.RepoDir != "" {
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
	}
	fallback := ""
	if _, err := os.Stat(filepath.Join(o.RepoDir, config.DefaultFile)); err == nil && o.RepoDir != "" {
		fallback = config.DefaultFile
	}
	for _, out := range outs {
		all := append(append(append([]finding.Finding(nil), out.Section.Spec...), out.Section.Lint...), out.Section.Changes...)
		if o.RepoDir != "" {
			l, ok := locators[out.Spec.Snapshot]
			if !ok {
				l, _ = locate.New(locate.Options{Dir: o.RepoDir, Files: files, Snapshot: out.Spec.Snapshot, Fallback: fallback})
				locators[out.Spec.Snapshot] = l
			}
			if l != nil {
				out.Section.Locations = l.LocateAll(all)
			}
		}
		res.Findings = append(res.Findings, all...)
		res.Report.Servers = append(res.Report.Servers, out.Section)
	}
	res.Code = ExitOK
	if finding.AtOrAbove(res.Findings, o.FailOn) || taggedFailure(res.Findings, o.FailTags) {
		res.Code = ExitFindings
	}
	return res, nil
}

// checkServer runs the pipeline for one server.
func checkServer(ctx context.Context, env *Env, o checkOptions, s serverSpec, schemas *spec.Schemas) (*serverOutcome, error) {
	out := &serverOutcome{Spec: s}
	label := s.Name
	if label == "" {
		label = s.describe()
	}
	version := s.ProtocolVersion
	if o.Capture != nil && (version == "" || len(o.Capture.versions) > 0) {
		revs, err := o.Capture.revisions()
		if err != nil {
			return nil, err
		}
		version = revs[0]
	}
	copts := capture.Options{ProtocolVersion: version, Probes: s.Probes, ClientName: "mcp-surface", ClientVersion: Version, Now: time.Now}
	if o.Capture != nil {
		copts = o.Capture.options(version)
		copts.Probes = s.Probes
	}

	// Head: always captured live.
	o.Log("capturing %s", label)
	c, err := capture.Run(ctx, s.target(env, o.RepoDir), copts)
	if err != nil {
		return nil, fmt.Errorf("capturing %s: %w", label, err)
	}
	out.Capture = c
	head, err := manifest.Build(c)
	if err != nil {
		return nil, fmt.Errorf("building the snapshot of %s: %w", label, err)
	}
	out.Head = head
	found, err := spec.Validate(c, schemas)
	if err != nil {
		return nil, fmt.Errorf("validating %s: %w", label, err)
	}

	sec := report.Section{
		Server:   s.Name,
		Command:  "check",
		Head:     &report.Side{Label: label, ManifestHash: head.Fingerprints.Manifest, Revision: head.ProtocolVersion},
		Subjects: report.SubjectsOf(head),
		Snapshot: filepath.ToSlash(s.Snapshot),
	}
	sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s via %s", label, c.ProtocolVersion, c.Handshake))
	if len(s.Probes) > 0 || len(s.Require) > 0 {
		pinsFile := probe.PinsPath(s.Snapshot)
		pins, err := probe.ReadPins(filepath.Join(o.RepoDir, pinsFile))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading the pinned probe shapes of %s: %w", label, err)
		}
		judged, cov := probe.Evaluate(c, head, probe.Options{Require: s.Require, Pins: pins, PinsFile: pinsFile, Secrets: s.Secrets})
		found = append(found, judged...)
		sec.Notes = append(sec.Notes, cov.Notes()...)
	}

	// The committed snapshot in the work tree must match the live server.
	if s.Snapshot != "" && o.RepoDir != "" {
		if committed, err := manifest.ReadFile(filepath.Join(o.RepoDir, s.Snapshot)); err == nil {
			if committed.Fingerprints.Manifest != head.Fingerprints.Manifest {
				found = append(found, finding.New(rules.SnapshotOutOfDate, finding.Subject{Kind: finding.KindServer}, "",
					fmt.Sprintf("%s no longer matches the live server: run `mcp-surface snapshot` and commit it", s.Snapshot), nil, nil))
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading the committed snapshot: %w", err)
		}
	}

	// Baseline.
	base, baseLabel, err := baseline(ctx, env, o, s, copts)
	if err != nil {
		return nil, fmt.Errorf("baseline of %s: %w", label, err)
	}
	out.Base, out.BaseLabel = base, baseLabel
	policy := o.Config.Policy(o.Now)
	var kept []finding.Finding
	for _, f := range found {
		if policy.Adjust(&f) {
			kept = append(kept, f)
		}
	}
	kept = policy.Acknowledge(kept)
	for _, f := range kept {
		switch r, _ := rules.Lookup(f.Rule); r.Kind {
		case rules.KindLint:
			sec.Lint = append(sec.Lint, f)
		case rules.KindChange: // output-* of a pinned probe shape
			sec.Changes = append(sec.Changes, f)
		default:
			sec.Spec = append(sec.Spec, f)
		}
	}
	if base != nil {
		dopts := o.Config.DiffOptions(o.Now)
		dopts.SkipFeatureVersionCheck = true // the spec gate reports it for head
		res := diff.Diff(base, head, dopts)
		out.Diff = res
		sec.Base = &report.Side{Label: baseLabel, ManifestHash: base.Fingerprints.Manifest, Revision: base.ProtocolVersion}
		sec.SuggestedBump, sec.WorstSeverity = res.SuggestedBump, res.WorstSeverity
		for _, f := range res.Findings {
			r, _ := rules.Lookup(f.Rule)
			switch r.Kind {
			case rules.KindSpec:
				sec.Spec = append(sec.Spec, f)
			case rules.KindLint:
				sec.Lint = append(sec.Lint, f)
			default:
				sec.Changes = append(sec.Changes, f)
			}
		}
	} else {
		sec.Notes = append(sec.Notes, "no baseline: the surface was validated, not compared")
	}
	finding.Sort(sec.Spec)
	finding.Sort(sec.Lint)
	finding.Sort(sec.Changes)
	out.Section = sec
	return out, nil
}

// baseline returns the base snapshot as the options ask, or nil for none.
func baseline(ctx context.Context, env *Env, o checkOptions, s serverSpec, copts capture.Options) (*manifest.Manifest, string, error) {
	mode := o.Baseline
	if mode == "" {
		mode = BaselineAuto
	}
	switch mode {
	case BaselineNone:
		return nil, "", nil
	case BaselineAuto, BaselineSnapshot, BaselineBuild:
	default:
		m, err := manifest.ReadFile(mode)
		if err != nil {
			return nil, "", err
		}
		return m, mode, nil
	}
	if o.BaseRef == "" {
		// No base commit: the committed snapshot in the work tree is the
		// baseline (a local run of `check`).
		if mode == BaselineBuild {
			return nil, "", usagef("baseline build needs a base ref (--base-ref)")
		}
		if s.Snapshot == "" {
			return nil, "", nil
		}
		m, err := manifest.ReadFile(filepath.Join(o.RepoDir, s.Snapshot))
		if errors.Is(err, fs.ErrNotExist) {
			if mode == BaselineSnapshot {
				return nil, "", fmt.Errorf("%s does not exist: run `mcp-surface snapshot` and commit it, or use --baseline build with --base-ref", s.Snapshot)
			}
			return nil, "", nil
		}
		return m, s.Snapshot, err
	}
	if mode != BaselineBuild && s.Snapshot != "" {
		data, err := gitrepo.ReadFile(ctx, o.RepoDir, o.BaseRef, s.Snapshot)
		if err == nil {
			m, err := manifest.FromCanonicalJSON(data)
			if err != nil {
				return nil, "", fmt.Errorf("%s at %s: %w", s.Snapshot, o.BaseRef, err)
			}
			return m, fmt.Sprintf("%s at %s", s.Snapshot, shortRef(o.BaseRef)), nil
		}
		if !errors.Is(err, fs.ErrNotExist) || mode == BaselineSnapshot {
			return nil, "", err
		}
	}
	// Build and capture the base in a temporary worktree.
	o.Log("capturing the base (%s) in a temporary worktree", shortRef(o.BaseRef))
	wt, cleanup, err := gitrepo.Worktree(ctx, o.RepoDir, o.BaseRef)
	if err != nil {
		return nil, "", err
	}
	defer cleanup()
	if o.Build != "" {
		if err := runBuild(ctx, env, wt, o.Build); err != nil {
			return nil, "", fmt.Errorf("building the base: %w", err)
		}
	}
	base := copts
	base.Probes = nil // probes judge the head only
	c, err := capture.Run(ctx, s.target(env, wt), base)
	if err != nil {
		return nil, "", fmt.Errorf("capturing the base: %w", err)
	}
	m, err := manifest.Build(c)
	if err != nil {
		return nil, "", fmt.Errorf("building the base snapshot: %w", err)
	}
	return m, "base " + shortRef(o.BaseRef) + " (built)", nil
}

func shortRef(ref string) string {
	if actionenv.IsCommitID(ref) && len(ref) > 12 {
		return ref[:12]
	}
	return ref
}

// runBuild runs the user's build command through the shell in dir, its
// output going to stderr (the build is the user's own code and text).
func runBuild(ctx context.Context, env *Env, dir, command string) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = serverEnv(env, nil)
	cmd.Stdout = env.Stderr
	cmd.Stderr = env.Stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", command, err)
	}
	return nil
}

// serversFromConfig turns the servers: list into specs (paths made
// relative to the repository, ${VAR} expanded, see serverSpecFromConfig).
func serversFromConfig(env *Env, cfg *config.Config, repoDir, cfgPath string) ([]serverSpec, error) {
	var out []serverSpec
	for _, s := range cfg.Servers {
		sp, secrets, err := serverSpecFromConfig(env, s, cfgPath, repoDir)
		if err != nil {
			return nil, err
		}
		sp.Secrets = secrets
		sp.ProtocolVersion = s.ProtocolVersion
		out = append(out, sp)
	}
	return out, nil
}
