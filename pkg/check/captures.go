package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Captures captures every server at every revision (when revisions is
// empty: the server's own, else Options.ProtocolVersion, else the latest),
// in order, with its declared probes. On failure it returns the captures
// made so far, the failed one partial, with the error, so that their
// frames can still be written. A capture one of whose advertised lists
// failed (capture.ListFailures) is such a failure, a
// *capture.IncompleteError, unless Options.AllowPartial.
func Captures(ctx context.Context, o Options, revisions []string) ([]*capture.Capture, error) {
	return o.capturesChecked(ctx, revisions, "capturing", !o.AllowPartial)
}

func (o *Options) captures(ctx context.Context, revisions []string, verb string) ([]*capture.Capture, error) {
	return o.capturesChecked(ctx, revisions, verb, false)
}

// capturesChecked is captures; complete stops at the first capture whose
// list failed, before any other server starts.
func (o *Options) capturesChecked(ctx context.Context, revisions []string, verb string, complete bool) ([]*capture.Capture, error) {
	caps := []*capture.Capture{} // not nil: capturing was attempted
	for _, s := range o.Servers {
		copts := o.captureOptions(s)
		revs := revisions
		if len(revs) == 0 {
			revs = []string{copts.ProtocolVersion}
		}
		t := s.Target(o.Environ, o.RepoDir)
		first := len(caps)
		for _, v := range revs {
			copts.ProtocolVersion = v
			// One server at a time: the previous one is reaped before the
			// next starts, so that orphans are attributed to the right one
			// (see capture.AdoptOrphans). Only the last shutdown overlaps
			// the caller's work.
			if n := len(caps); n > 0 {
				caps[n-1].Wait()
			}
			c, err := capture.Run(ctx, t, copts)
			if c != nil {
				caps = append(caps, c)
			}
			if err != nil {
				return caps, fmt.Errorf("%s %s at %s: %w", verb, t.Describe(), v, err)
			}
			if fs := c.ListFailures(); complete && len(fs) > 0 {
				return caps, fmt.Errorf("%s %s at %s: %w", verb, t.Describe(), v, &capture.IncompleteError{Failures: fs})
			}
		}
		siblingTrials(caps[first:])
	}
	return caps, nil
}

// siblingTrials records, in each capture of one server, the others as
// trials of their revisions: a capture asked for several revisions has
// already tried each of them.
func siblingTrials(caps []*capture.Capture) {
	for _, c := range caps {
		for _, o := range caps {
			if o == c || o.RequestedVersion == c.RequestedVersion {
				continue
			}
			t := capture.Trial{Revision: o.RequestedVersion, Negotiated: o.ProtocolVersion}
			if !t.Accepted() {
				t.Error = fmt.Sprintf("asked for %s, the server answered with %s", o.RequestedVersion, o.ProtocolVersion)
			}
			c.Trials = append(c.Trials, t)
		}
	}
}

// schemas loads Options.Schemas when the caller did not.
func (o *Options) schemas(ctx context.Context) error {
	if o.Schemas != nil {
		return nil
	}
	s, err := spec.Load(ctx, o.SchemaOptions)
	o.Schemas = s
	return err
}

// Validate captures every server at every revision (as Captures) and
// checks what each sent against the published schema of the negotiated
// revision, and lints it: one report section per capture, after policy.
// Result.Captures holds the captures made, also when an error stops it.
func Validate(ctx context.Context, o Options, revisions []string) (*Result, error) {
	// Schemas first: no server is started when validation cannot happen.
	if err := o.schemas(ctx); err != nil {
		return &Result{}, err
	}
	caps, err := o.captures(ctx, revisions, "capturing")
	res := &Result{Captures: caps}
	if err != nil {
		waitAll(caps)
		return res, err
	}
	defer waitAll(caps) // when validation fails
	var runs []validation
	for _, c := range caps {
		found, err := spec.ValidateWith(c, o.Schemas, o.lintOptions())
		if err != nil {
			return res, fmt.Errorf("validating %s: %w", c.Target, err)
		}
		v := validation{target: c.Target, revision: c.ProtocolVersion, handshake: c.Handshake, findings: found, capture: c}
		if m, err := manifest.Build(c); err == nil {
			v.manifest = m
		}
		c.Wait()
		runs = append(runs, v)
	}
	o.validationReport(res, runs)
	return res, nil
}

// ValidateSnapshot checks the items, capabilities and serverInfo a
// snapshot holds against the definitions of its revision, and lints them;
// label names the snapshot (its file). Without Options.Schemas it loads
// only the schemas the snapshot needs.
func ValidateSnapshot(ctx context.Context, o Options, label string, m *manifest.Manifest) (*Result, error) {
	if o.Schemas == nil {
		// The snapshot's own revision now; the others only if the
		// comparison of revisions needs them (spec.Open). An unpublished
		// revision loads nothing: validation reports it.
		var now []string
		if _, ok := spec.LookupRevision(m.ProtocolVersion); ok {
			now = append(now, m.ProtocolVersion)
		}
		s, err := spec.Open(ctx, o.SchemaOptions, now...)
		if err != nil {
			return nil, err
		}
		o.Schemas = s
	}
	found, err := spec.ValidateManifestWith(m, o.Schemas, o.lintOptions())
	if err != nil {
		return nil, fmt.Errorf("validating %s: %w", label, err)
	}
	res := &Result{}
	o.validationReport(res, []validation{{target: label, revision: m.ProtocolVersion, handshake: m.Handshake, findings: found, manifest: m}})
	return res, nil
}

// validation is the outcome for one capture or snapshot.
type validation struct {
	target    string
	revision  string
	handshake string
	findings  []finding.Finding
	capture   *capture.Capture
	manifest  *manifest.Manifest // nil when the capture could not be reduced to one
}

// validationReport applies the policy and makes one report section per
// validated surface (several when several revisions were captured).
func (o *Options) validationReport(res *Result, runs []validation) {
	policy := o.policy()
	res.Report = &report.Report{Version: o.Version}
	for _, v := range runs {
		kept := policy.Apply(v.findings)
		res.Findings = append(res.Findings, kept...)
		sec := report.Section{Command: "validate", Head: &report.Side{Label: v.target, Revision: v.revision}}
		if len(runs) > 1 {
			sec.Server = "MCP " + v.revision
			var info struct {
				Name string `json:"name"`
			}
			if v.manifest != nil && json.Unmarshal(v.manifest.ServerInfo, &info) == nil && info.Name != "" {
				sec.Server = info.Name + " (MCP " + v.revision + ")"
			}
		}
		if v.handshake == "" {
			sec.Snapshot = v.target
		} else {
			sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s negotiated via %s", v.target, v.revision, v.handshake))
		}
		if v.manifest != nil {
			sec.Head.ManifestHash = v.manifest.Fingerprints.Manifest
			sec.Subjects = report.SubjectsOf(v.manifest)
		}
		sortByKind(&sec, kept, rules.KindSpec)
		sortSection(&sec)
		res.Report.Servers = append(res.Report.Servers, sec)
		res.Servers = append(res.Servers, &Outcome{Head: v.manifest, Capture: v.capture, Section: sec})
	}
}

// ProbeOptions say how Probe runs.
type ProbeOptions struct {
	// Revisions to capture each server at (see Captures).
	Revisions []string
	// PinsFile replaces each server's pinned shapes file (by default
	// beside its snapshot, probe.PinsPath); relative to Options.RepoDir.
	PinsFile string
	// UpdatePins writes the shapes of the pin: shape probes (of the first
	// capture) to the pins file instead of comparing them.
	UpdatePins bool
}

// Probe captures every server with its probes (Server.Probes) and judges
// the results: each against the published schema, outcomes against what
// the probe expects, coverage against Server.Require, shapes against the
// pinned ones. One report section per capture, after policy.
// Result.Captures holds the captures made, also when an error stops it.
func Probe(ctx context.Context, o Options, p ProbeOptions) (*Result, error) {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	res := &Result{Report: &report.Report{Version: o.Version}}
	for _, s := range o.Servers {
		if err := o.probeServer(ctx, s, p, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (o *Options) probeServer(ctx context.Context, s Server, p ProbeOptions, res *Result) error {
	pins := p.PinsFile
	if pins == "" {
		pins = probe.PinsPath(s.Snapshot)
	}
	path := filepath.Join(o.RepoDir, pins)
	var pinned *probe.Pins
	if !p.UpdatePins {
		var err error
		pinned, err = probe.ReadPins(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading the pinned shapes: %w", err)
		}
	}
	// Schemas first: no server is started when validation cannot happen.
	if err := o.schemas(ctx); err != nil {
		return err
	}
	one := *o
	one.Servers = []Server{s}
	caps, err := one.captures(ctx, p.Revisions, "probing")
	// Probes are few and quick to judge: nothing worth overlapping.
	waitAll(caps)
	if res.Captures == nil {
		res.Captures = caps // not nil: capturing was attempted
	} else {
		res.Captures = append(res.Captures, caps...)
	}
	if err != nil {
		return err
	}
	if p.UpdatePins {
		pp, err := probe.PinsOf(caps[0])
		if err != nil {
			return err
		}
		if err := probe.WritePins(path, pp); err != nil {
			return fmt.Errorf("writing the pinned shapes: %w", err)
		}
		o.Log("wrote %s (%s)", path, plural(len(pp.Probes), "pinned probe"))
		pinned = pp
	}
	policy := o.policy()
	for _, c := range caps {
		m, err := manifest.Build(c)
		if err != nil {
			return fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
		found, err := spec.ValidateProbes(c, o.Schemas)
		if err != nil {
			return fmt.Errorf("validating the probes of %s: %w", c.Target, err)
		}
		judged, cov := probe.Evaluate(c, m, probe.Options{Require: s.Require, Pins: pinned, PinsFile: filepath.ToSlash(pins), Secrets: s.Secrets})
		kept := policy.Apply(append(found, judged...))
		res.Findings = append(res.Findings, kept...)

		sec := report.Section{Server: s.Name, Command: "probe", Subjects: report.SubjectsOf(m),
			Head: &report.Side{Label: c.Target, ManifestHash: m.Fingerprints.Manifest, Revision: c.ProtocolVersion}}
		if len(caps) > 1 {
			sec.Server = strings.TrimSpace(s.Name + " (MCP " + c.ProtocolVersion + ")")
		}
		sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s via %s; %s made", c.Target, c.ProtocolVersion, c.Handshake, plural(len(c.Probes), "probe call")))
		sec.Notes = append(sec.Notes, cov.Notes()...)
		sortByKind(&sec, kept, rules.KindSpec)
		sortSection(&sec)
		res.Report.Servers = append(res.Report.Servers, sec)
		res.Servers = append(res.Servers, &Outcome{Server: s, Head: m, Capture: c, Section: sec})
	}
	return nil
}

// sortSection sorts each list of a section and drops repeated
// fingerprints: findings about the policy itself (an expired
// acknowledgement) come from every step the policy ran over, the spec
// gate's and the diff's, and are one fact.
func sortSection(sec *report.Section) {
	seen := map[string]bool{}
	for _, l := range []*[]finding.Finding{&sec.Spec, &sec.Lint, &sec.Changes} {
		kept := (*l)[:0]
		for _, f := range *l {
			if seen[f.Fingerprint] {
				continue
			}
			seen[f.Fingerprint] = true
			kept = append(kept, f)
		}
		*l = kept
		finding.Sort(*l)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// waitAll completes captures whose shutdown was deferred.
func waitAll(caps []*capture.Capture) {
	for _, c := range caps {
		c.Wait()
	}
}
