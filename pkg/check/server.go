package check

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/cost"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// captureOptions are the capture options of one server.
func (o *Options) captureOptions(s Server) capture.Options {
	version := s.ProtocolVersion
	if o.ProtocolVersion != "" || version == "" {
		version = o.ProtocolVersion
	}
	if version == "" {
		version = capture.LatestRevision
	}
	lim := o.Limits
	if lim.ShutdownGrace == 0 {
		lim.ShutdownGrace = s.ShutdownGrace
	}
	return capture.Options{
		ProtocolVersion: version, Limits: lim, Probes: s.Probes,
		ClientName: "mcp-surface", ClientVersion: o.Version, Now: o.Clock,
		DeferShutdown: o.DeferShutdown, FlatView: o.FlatView,
	}
}

// label names the server in progress lines and errors.
func (s Server) label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Describe()
}

// checkServer runs the pipeline for one server whose baseline is b; wt
// is the base's worktree when b is to be built. The captures at head and
// at base run at once (as j allows).
func (o *Options) checkServer(j *jobs, s Server, b baseline, wt string) (*Outcome, error) {
	ctx := j.ctx
	out := &Outcome{Server: s}
	label := s.label()
	copts := o.captureOptions(s)

	// Head: always captured live.
	o.Log("capturing %s", label)
	if b.build {
		o.Log("capturing the base (%s) in a temporary worktree", ShortRef(o.BaseRef))
	}
	var c, baseCapture *capture.Capture
	base, baseLabel := b.m, b.label
	err := j.all(
		func() error {
			return j.slot(func() error {
				var err error
				if c, err = capture.Run(ctx, s.Target(o.Environ, o.RepoDir), copts); err != nil {
					return fmt.Errorf("capturing %s: %w", label, err)
				}
				return nil
			})
		},
		func() error {
			if !b.build {
				return nil
			}
			return j.slot(func() error {
				var err error
				if base, baseLabel, baseCapture, err = o.captureBase(ctx, s, wt, copts); err != nil {
					return fmt.Errorf("baseline of %s: %w", label, err)
				}
				return nil
			})
		},
	)
	if c != nil {
		// Every return from here waits for the server (with
		// DeferShutdown, its shutdown overlaps the validation and the
		// comparison).
		defer c.Wait()
	}
	if err != nil {
		return nil, err
	}
	out.Capture = c
	// An item without identity is recorded, not fatal: the diff compares
	// the rest and says what it could not (as for a failed list).
	head, err := manifest.BuildPartial(c)
	if err != nil {
		return nil, fmt.Errorf("building the snapshot of %s: %w", label, err)
	}
	out.Head = head
	found, err := spec.ValidateWith(c, o.Schemas, o.lintOptions())
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
	if s.Snapshot != "" && o.RepoDir != "" && !head.Incomplete() { // a partial head matches nothing: surface-list-failed says why
		if committed, err := manifest.ReadFileContext(ctx, filepath.Join(o.RepoDir, s.Snapshot), o.MaxSnapshotBytes); err == nil {
			sec.SnapshotCurrent = committed.Fingerprints.Manifest == head.Fingerprints.Manifest
			if !sec.SnapshotCurrent {
				found = append(found, finding.New(rules.SnapshotOutOfDate, finding.Subject{Kind: finding.KindServer}, "",
					fmt.Sprintf("%s no longer matches the live server: run `mcp-surface snapshot` and commit it", s.Snapshot), nil, nil))
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("reading the committed snapshot: %w", err)
		}
	}

	out.Base, out.BaseLabel = base, baseLabel
	if base != nil {
		o.tryBaseRevision(j, s, copts, base, head)
	}
	found = append(found, o.contextCost(&sec, base, head)...)
	kept := o.policy().Apply(found)
	if base != nil {
		var atBase []finding.Finding
		if baseCapture != nil {
			if atBase, err = spec.ValidateWith(baseCapture, o.Schemas, o.lintOptions()); err != nil {
				return nil, fmt.Errorf("validating the base of %s: %w", label, err)
			}
		}
		quietSameAtBase(kept, base, atBase)
	}
	sec.Findings = append(sec.Findings, kept...)
	if base != nil {
		dopts := o.diffOptions()
		dopts.SkipFeatureVersionCheck = true // the spec gate reports it for head
		res := diff.Diff(base, head, dopts)
		out.Diff = res
		sec.Base = &report.Side{Label: baseLabel, ManifestHash: base.Fingerprints.Manifest, Revision: base.ProtocolVersion}
		sec.SuggestedBump, sec.WorstSeverity = res.SuggestedBump, res.WorstSeverity
		changes := res.Findings
		if o.AcceptBreaking != "" {
			changes, out.Accepted = acceptBreaking(changes, o.AcceptBreaking)
		}
		sec.Findings = append(sec.Findings, changes...)
	} else {
		sec.Notes = append(sec.Notes, "no baseline: the surface was validated, not compared")
	}
	sortSection(&sec)
	out.Section = sec
	return out, nil
}

// tryBaseRevision opens a session with head at each revision the
// baseline showed support for (its supportedVersions, or its negotiated
// revision) that head does not list, and at the baseline's negotiated
// revision when head settled on another one, so that the diff judges a
// revision's support by trial rather than by head's list. Only revisions
// the client knows are tried (capture.Revisions bounds the trials), one
// session after the other.
func (o *Options) tryBaseRevision(j *jobs, s Server, copts capture.Options, base, head *manifest.Manifest) {
	revs := trialRevisions(base, head)
	if len(revs) == 0 {
		return
	}
	_ = j.slot(func() error {
		for _, v := range revs {
			if j.ctx.Err() != nil {
				return nil
			}
			o.Log("trying %s at protocol %s", s.Describe(), v)
			head.AddTrial(capture.Try(j.ctx, s.Target(o.Environ, o.RepoDir), copts, v))
		}
		return nil
	})
}

// trialRevisions are the revisions tryBaseRevision tries, newest first.
func trialRevisions(base, head *manifest.Manifest) []string {
	shown := func(m *manifest.Manifest) []string {
		if len(m.SupportedVersions) > 0 {
			return m.SupportedVersions
		}
		if m.ProtocolVersion != "" {
			return []string{m.ProtocolVersion}
		}
		return nil
	}
	atBase, atHead := shown(base), shown(head)
	var out []string
	for _, v := range capture.Revisions {
		if v == head.ProtocolVersion {
			continue // head's own session is the proof
		}
		if _, done := head.Trial(v); done {
			continue
		}
		unlisted := slices.Contains(atBase, v) && !slices.Contains(atHead, v)
		if unlisted || v == base.ProtocolVersion {
			out = append(out, v)
		}
	}
	return out
}

// contextCost counts the context cost of head (and base) for the report's
// cost line, and checks head against the configured budgets (the increase
// budget is the diff's: it needs both sides).
func (o *Options) contextCost(sec *report.Section, base, head *manifest.Manifest) []finding.Finding {
	counter, err := cost.NewCounter(CostOptions(o.Config))
	if err != nil {
		o.Log("context cost not counted: %v", err)
		return nil
	}
	if _, _, failed := head.FailedList(manifest.ListTools); failed {
		return nil // head's tools are unknown: no cost to show or to judge
	}
	if sec.CostHead, err = counter.Compute(head); err != nil {
		o.Log("context cost not counted: %v", err)
		return nil
	}
	if _, _, failed := base.FailedList(manifest.ListTools); base != nil && !failed {
		if sec.CostBase, err = counter.Compute(base); err != nil {
			sec.CostBase = nil
		}
	}
	return CostBudget(o.Config).Check(sec.CostHead)
}
