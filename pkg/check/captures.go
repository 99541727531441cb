package check

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

// Captures captures every server at every revision (when revisions is
// empty: the server's own, else Options.ProtocolVersion, else the latest)
// with its declared probes, at most Options.Jobs servers at once (see
// EachCapture), and returns the captures in the servers' order. On
// failure it returns the captures of the servers up to the first one in
// order that failed, that one's partial, with its error, so that their
// frames can still be written. A capture one of whose advertised lists
// failed (capture.ListFailures) is such a failure, a
// *capture.IncompleteError, unless Options.AllowPartial.
func Captures(ctx context.Context, o Options, revisions []string) ([]*capture.Capture, error) {
	return o.capturesChecked(ctx, revisions, "capturing", !o.AllowPartial)
}

// capturesChecked captures every server at every revision (as Captures);
// complete makes a capture whose list failed a failure of its server.
func (o *Options) capturesChecked(ctx context.Context, revisions []string, verb string, complete bool) ([]*capture.Capture, error) {
	caps := []*capture.Capture{} // not nil: capturing was attempted
	err := o.eachCapture(ctx, revisions, verb, complete, func(_ int, got []*capture.Capture, err error) error {
		caps = append(caps, got...)
		return err
	})
	return caps, err
}

// EachCapture captures the servers as Captures does and calls f with
// each server's index in Options.Servers, its captures (one per revision)
// and its error, in the servers' order: f sees server i once it and every
// server before it are done, one call at a time, so that what f prints
// or writes is what a run one server at a time gives.
//
// At most Options.Jobs servers are captured at once (0: the number of
// CPUs); the revisions of one server are captured one after the other.
// With one job each server is captured, and f called, before the next
// starts, and each capture is reaped before the next one starts.
//
// A server that failed, or an error f returns, stops the run: the
// servers after it are cancelled and their processes reaped before
// EachCapture returns f's error (the server's when f returns nil). The
// servers before it run to their end, so that the error is the first
// server's in order whatever finished first. The captures given to f
// are the caller's: with Options.DeferShutdown it waits for them.
func EachCapture(ctx context.Context, o Options, revisions []string, f func(i int, caps []*capture.Capture, err error) error) error {
	return o.eachCapture(ctx, revisions, "capturing", !o.AllowPartial, f)
}

func (o *Options) eachCapture(ctx context.Context, revisions []string, verb string, complete bool, f func(int, []*capture.Capture, error) error) error {
	n := o.Jobs
	if n <= 0 {
		n = runtime.NumCPU()
	}
	if n == 1 || len(o.Servers) < 2 {
		var last *capture.Capture
		for i, s := range o.Servers {
			caps, err := o.captureServer(ctx, s, revisions, verb, complete, last)
			if len(caps) > 0 {
				last = caps[len(caps)-1]
			}
			if ferr := f(i, caps, err); ferr != nil || err != nil {
				return cmp.Or(ferr, err)
			}
		}
		return nil
	}
	return o.eachConcurrent(ctx, n, revisions, verb, complete, f)
}

// serverRun is one server's part of a concurrent EachCapture.
type serverRun struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	caps   []*capture.Capture
	err    error
}

func (o *Options) eachConcurrent(ctx context.Context, n int, revisions []string, verb string, complete bool, f func(int, []*capture.Capture, error) error) error {
	runs := make([]*serverRun, len(o.Servers))
	for i := range runs {
		c, cancel := context.WithCancel(ctx)
		runs[i] = &serverRun{ctx: c, cancel: cancel, done: make(chan struct{})}
	}
	// stopAfter cancels every server after i: a failure of i stops them,
	// never the ones before it, whose outcome decides the error reported.
	stopAfter := func(i int) {
		for _, r := range runs[i+1:] {
			r.cancel()
		}
	}
	var wg sync.WaitGroup
	defer func() {
		stopAfter(-1)
		wg.Wait()
	}()
	// Servers start in order, as slots free up.
	sem := make(chan struct{}, n)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, s := range o.Servers {
			r := runs[i]
			stopped := r.ctx.Err() != nil // never started when already stopped
			if !stopped {
				select {
				case sem <- struct{}{}:
				case <-r.ctx.Done():
					stopped = true
				}
			}
			if stopped {
				r.err = fmt.Errorf("%s %s: %w", verb, s.label(), context.Cause(r.ctx))
				close(r.done)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(r.done)
				defer func() { <-sem }()
				r.caps, r.err = o.captureServer(r.ctx, s, revisions, verb, complete, nil)
				if r.err != nil {
					stopAfter(i)
				}
			}()
		}
	}()
	for i, r := range runs {
		<-r.done
		if ferr := f(i, r.caps, r.err); ferr != nil || r.err != nil {
			stopAfter(i)
			wg.Wait()
			for _, later := range runs[i+1:] {
				waitAll(later.caps)
			}
			return cmp.Or(ferr, r.err)
		}
	}
	return nil
}

// captureServer captures one server at every revision, one after the
// other, each reaped before the next starts (and prev, the capture made
// before this server's, before the first), so that orphans are
// attributed to the right one (see capture.AdoptOrphans). Only its last
// shutdown overlaps the caller's work. On failure it returns the
// captures made so far, the failed one partial, with the error.
func (o *Options) captureServer(ctx context.Context, s Server, revisions []string, verb string, complete bool, prev *capture.Capture) ([]*capture.Capture, error) {
	copts := o.captureOptions(s)
	revs := revisions
	if len(revs) == 0 {
		revs = []string{copts.ProtocolVersion}
	}
	t := s.Target(o.Environ, o.RepoDir)
	// Several servers may share a command: the name tells them apart.
	what := t.Describe()
	if s.Name != "" && len(o.Servers) > 1 {
		what = s.Name + " (" + what + ")"
	}
	var caps []*capture.Capture
	for _, v := range revs {
		copts.ProtocolVersion = v
		if prev != nil {
			prev.Wait()
		}
		c, err := capture.Run(ctx, t, copts)
		if c != nil {
			caps = append(caps, c)
			prev = c
		}
		if err != nil {
			return caps, fmt.Errorf("%s %s at %s: %w", verb, what, v, err)
		}
		if fs := c.ListFailures(); complete && len(fs) > 0 {
			return caps, fmt.Errorf("%s %s at %s: %w", verb, what, v, &capture.IncompleteError{Failures: fs})
		}
	}
	siblingTrials(caps)
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

// schemas loads Options.Schemas when the caller did not: the revision
// asked for now (a missing one stops the run before any server starts),
// every other one when a server negotiates it or the comparison of
// revisions needs it. An offline run needs only the schemas of the
// revisions its servers speak.
func (o *Options) schemas(ctx context.Context) error {
	if o.Schemas != nil {
		return nil
	}
	s, err := spec.Open(ctx, o.SchemaOptions, o.eagerRevisions()...)
	o.Schemas = s
	return err
}

// eagerRevisions are the revisions whose schemas must be there before a
// server starts: the one asked for with ProtocolVersion.
func (o *Options) eagerRevisions() []string {
	if _, ok := spec.LookupRevision(o.ProtocolVersion); ok {
		return []string{o.ProtocolVersion}
	}
	return nil
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
	caps := []*capture.Capture{} // not nil: capturing was attempted
	var names []string           // the server of each capture, when several
	err := o.eachCapture(ctx, revisions, "capturing", false, func(i int, got []*capture.Capture, err error) error {
		caps = append(caps, got...)
		for range got {
			if len(o.Servers) > 1 {
				names = append(names, o.Servers[i].Name)
			}
		}
		return err
	})
	res := &Result{Captures: caps}
	if err != nil {
		waitAll(caps)
		return res, err
	}
	defer waitAll(caps) // when validation fails
	var runs []validation
	for i, c := range caps {
		found, err := spec.ValidateWith(c, o.Schemas, o.lintOptions())
		if err != nil {
			return res, fmt.Errorf("validating %s: %w", c.Target, err)
		}
		v := validation{target: c.Target, revision: c.ProtocolVersion, handshake: c.Handshake, findings: found, capture: c}
		if names != nil {
			v.server = names[i]
		}
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
	server    string // the server's name, when several were validated
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
	revisions := map[string]int{} // captures per named server
	for _, v := range runs {
		revisions[v.server]++
	}
	for _, v := range runs {
		kept := policy.Apply(v.findings)
		res.Findings = append(res.Findings, kept...)
		sec := report.Section{Command: "validate", Head: &report.Side{Label: v.target, Revision: v.revision}}
		switch {
		case v.server != "" && revisions[v.server] > 1:
			sec.Server = v.server + " (MCP " + v.revision + ")"
		case v.server != "":
			sec.Server = v.server
		case len(runs) > 1:
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
		sec.Findings = append(sec.Findings, kept...)
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
// pinned ones. One report section per capture, after policy. Servers are
// captured at once as EachCapture does, judged in order.
// Result.Captures holds the captures made, also when an error stops it.
func Probe(ctx context.Context, o Options, p ProbeOptions) (*Result, error) {
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	res := &Result{Report: &report.Report{Version: o.Version}}
	// Every pinned shapes file is read, and the schemas loaded, before
	// any server starts.
	pins := make([]serverPins, len(o.Servers))
	for i, s := range o.Servers {
		var err error
		if pins[i], err = o.readPins(s, p); err != nil {
			return res, err
		}
	}
	if len(o.Servers) == 0 {
		return res, nil
	}
	if err := o.schemas(ctx); err != nil {
		return res, err
	}
	err := o.eachCapture(ctx, p.Revisions, "probing", false, func(i int, caps []*capture.Capture, err error) error {
		// Probes are few and quick to judge: nothing worth overlapping.
		waitAll(caps)
		if res.Captures == nil {
			res.Captures = []*capture.Capture{} // not nil: capturing was attempted
		}
		res.Captures = append(res.Captures, caps...)
		if err != nil {
			return err
		}
		return o.judgeProbes(o.Servers[i], caps, p, pins[i], res)
	})
	return res, err
}

// serverPins is where a server's pinned shapes are, and what they hold
// (nil when the file does not exist, or is to be written).
type serverPins struct {
	file, path string
	pinned     *probe.Pins
}

func (o *Options) readPins(s Server, p ProbeOptions) (serverPins, error) {
	sp := serverPins{file: p.PinsFile}
	if sp.file == "" {
		sp.file = probe.PinsPath(s.Snapshot)
	}
	sp.path = filepath.Join(o.RepoDir, sp.file)
	if p.UpdatePins {
		return sp, nil
	}
	var err error
	sp.pinned, err = probe.ReadPins(sp.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return sp, fmt.Errorf("reading the pinned shapes: %w", err)
	}
	return sp, nil
}

// judgeProbes judges the captures of one server.
func (o *Options) judgeProbes(s Server, caps []*capture.Capture, p ProbeOptions, sp serverPins, res *Result) error {
	pinned := sp.pinned
	if p.UpdatePins {
		pp, err := probe.PinsOf(caps[0])
		if err != nil {
			return err
		}
		if err := probe.WritePins(sp.path, pp); err != nil {
			return fmt.Errorf("writing the pinned shapes: %w", err)
		}
		o.Log("wrote %s (%s)", sp.path, plural(len(pp.Probes), "pinned probe"))
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
		judged, cov := probe.Evaluate(c, m, probe.Options{Require: s.Require, Pins: pinned, PinsFile: filepath.ToSlash(sp.file), Secrets: s.Secrets})
		kept := policy.Apply(append(found, judged...))
		res.Findings = append(res.Findings, kept...)

		sec := report.Section{Server: s.Name, Command: "probe", Subjects: report.SubjectsOf(m),
			Head: &report.Side{Label: c.Target, ManifestHash: m.Fingerprints.Manifest, Revision: c.ProtocolVersion}}
		if len(caps) > 1 {
			sec.Server = strings.TrimSpace(s.Name + " (MCP " + c.ProtocolVersion + ")")
		}
		sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s via %s; %s made", c.Target, c.ProtocolVersion, c.Handshake, plural(len(c.Probes), "probe call")))
		sec.Notes = append(sec.Notes, cov.Notes()...)
		sec.Findings = append(sec.Findings, kept...)
		sortSection(&sec)
		res.Report.Servers = append(res.Report.Servers, sec)
		res.Servers = append(res.Servers, &Outcome{Server: s, Head: m, Capture: c, Section: sec})
	}
	return nil
}

// sortSection sorts a section's findings and drops repeated
// fingerprints: findings about the policy itself (an expired
// acknowledgement) come from every step the policy ran over, the spec
// gate's and the diff's, and are one fact.
func sortSection(sec *report.Section) {
	seen := map[string]bool{}
	kept := sec.Findings[:0]
	for _, f := range sec.Findings {
		if seen[f.Fingerprint] {
			continue
		}
		seen[f.Fingerprint] = true
		kept = append(kept, f)
	}
	sec.Findings = kept
	finding.Sort(sec.Findings)
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
