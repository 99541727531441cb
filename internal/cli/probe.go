package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec"
)

const probeUsage = `[flags] [-- CMD ARGS... | --url URL]

Captures the server, then makes the probes declared for it in
.mcp-surface.yaml (servers: ... probes:), and the ones given here, over the
same recorded session, and reports:

  - spec and lint findings on the results (each against the published
    schema of the negotiated revision; structuredContent against the
    tool's outputSchema; content blocks; resource MIME types; errors
    returned the way the protocol prescribes),
  - probes whose outcome is not the one they expect (expect: ok, is-error
    or rpc-error),
  - what the probes exercised and what not, and every item require-probes
    asks for that no probe exercised,
  - result shapes that changed from the ones pinned next to the snapshot
    (probes with pin: shape; --update writes them).

  mcp-surface probe                                   # the only server of .mcp-surface.yaml
  mcp-surface probe --server files
  mcp-surface probe --call echo='{"message":"hi"}' --read docs://readme -- node dist/index.js
  mcp-surface probe --update                          # pin the shapes of pin: shape probes

Nothing is called unless declared. ${VAR} in argument values is read from
the environment; reports show probe ids and argument names, never argument
values, and --frames replaces values taken from the environment.

Exit status: 0 nothing at or above --fail-on, 1 findings at or above it,
2 the probes could not be run (a probe that hangs or answers too much hits
--request-timeout or --max-bytes).`

// inlineProbes are the probes given with --call, --get and --read.
type inlineProbes struct {
	probes []capture.Probe
	err    error
}

func (ip *inlineProbes) add(p capture.Probe) {
	base := p.ID
	for n := 2; slices.ContainsFunc(ip.probes, func(q capture.Probe) bool { return q.ID == p.ID }); n++ {
		p.ID = fmt.Sprintf("%s#%d", base, n)
	}
	ip.probes = append(ip.probes, p)
}

// named parses NAME='{json object}' (or NAME alone: no arguments).
func (ip *inlineProbes) named(flag, method string, stringsOnly bool) func(string) error {
	return func(v string) error {
		name, args, hasArgs := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if name == "" {
			return fmt.Errorf("use NAME or NAME='{json arguments}'")
		}
		p := capture.Probe{ID: flag + " " + name, Method: method, Name: name}
		if hasArgs {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(args), &obj); err != nil || obj == nil {
				return fmt.Errorf("%s: the arguments must be a JSON object", name)
			}
			if stringsOnly {
				for k, x := range obj {
					var s string
					if json.Unmarshal(x, &s) != nil {
						return fmt.Errorf("%s: prompt argument %s must be a string", name, k)
					}
				}
			}
			p.Arguments = json.RawMessage(args)
		}
		ip.add(p)
		return nil
	}
}

func runProbe(ctx context.Context, env *Env, args []string) (int, error) {
	fset := newFlagSet("probe", probeUsage, env.Stderr)
	var common commonFlags
	common.register(fset, "text")
	var of outputFlags
	of.register(fset, &common)
	var sf schemaFlags
	sf.register(fset)
	var cf captureFlags
	cf.register(fset)
	server := fset.String("server", "", "probe the server of this `name` in .mcp-surface.yaml (default: the only one)")
	var inline inlineProbes
	fset.Func("call", "call a tool: `TOOL='{json arguments}'` (repeatable)", inline.named("--call", capture.MethodToolsCall, false))
	fset.Func("get", "get a prompt: `PROMPT='{json string arguments}'` (repeatable)", inline.named("--get", capture.MethodPromptsGet, true))
	fset.Func("read", "read a resource `URI` (repeatable)", func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("no URI")
		}
		inline.add(capture.Probe{ID: "--read " + v, Method: capture.MethodResourcesRead, URI: v})
		return nil
	})
	var require stringList
	fset.Var(&require, "require", "`METHOD` every advertised item of which a probe must exercise: tools/call, prompts/get, resources/read, completion/complete or all-advertised (repeatable; adds to require-probes)")
	update := fset.Bool("update", false, "write the shapes of the pin: shape probes to the pins file instead of comparing them")
	pinsFlag := fset.String("pins", "", "pinned shapes `file` (default: beside the server's snapshot, "+probe.DefaultPinsFile+")")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fset, flags); err != nil {
		return 0, err
	}
	if fset.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fset.Arg(0))
	}
	if err := of.check(); err != nil {
		return 0, err
	}
	failLevel, err := common.failLevel()
	if err != nil {
		return 0, err
	}
	for _, r := range require {
		if r != probe.RequireAllAdvertised && !slices.Contains(capture.ProbeMethods, r) {
			return 0, usagef("--require %q: use %s or %s", r, strings.Join(capture.ProbeMethods, ", "), probe.RequireAllAdvertised)
		}
	}
	now, err := diffNow(env)
	if err != nil {
		return 0, err
	}
	cfg, err := loadDiffConfig(common.config)
	if err != nil {
		return 0, err
	}
	cfgPath := common.config
	if cfgPath == "" {
		cfgPath = config.DefaultFile
	}

	// The server: from the command line, or from the configuration.
	live := len(cmd) > 0 || cf.url != ""
	var entry *config.Server
	switch {
	case *server != "":
		if cfg == nil {
			return 0, usagef("--server %s: no configuration file (%s) to find it in", *server, cfgPath)
		}
		i := slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == *server })
		if i < 0 {
			var names []string
			for _, s := range cfg.Servers {
				names = append(names, s.Name)
			}
			return 0, usagef("--server %s: %s has no such server (servers: %s)", *server, cfgPath, strings.Join(names, ", "))
		}
		entry = &cfg.Servers[i]
	case cfg != nil && len(cfg.Servers) == 1:
		entry = &cfg.Servers[0]
	case cfg != nil && len(cfg.Servers) > 1 && !live:
		return 0, usagef("%s lists %d servers: choose one with --server NAME", cfgPath, len(cfg.Servers))
	}
	if !live && entry == nil {
		return 0, usagef("no server to probe: pass the command after --, use --url, or list it under servers: in %s", cfgPath)
	}

	var (
		target  capture.Target
		probes  []capture.Probe
		reqs    = slices.Clone([]string(require))
		secrets []string
		name    string
		pins    = *pinsFlag
		version string
	)
	if entry != nil {
		sp, err := check.ServerFromConfig(*entry, cfgPath, "", env.Getenv)
		if err != nil {
			return 0, err
		}
		probes, secrets, name = sp.Probes, sp.Secrets, sp.Name
		reqs = append(reqs, sp.Require...)
		if !live {
			target = sp.Target(serverEnv(env, nil), "")
		}
		if pins == "" {
			pins = probe.PinsPath(sp.Snapshot)
		}
		version = entry.ProtocolVersion
	}
	if live {
		if target, err = cf.target(env, cmd); err != nil {
			return 0, err
		}
	}
	extra, sec, err := probe.Expand(inline.probes, env.Getenv)
	if err != nil {
		return 0, usagef("%v", err)
	}
	secrets = append(secrets, sec...)
	for _, p := range extra {
		if slices.ContainsFunc(probes, func(q capture.Probe) bool { return q.ID == p.ID }) {
			return 0, usagef("probe id %q is declared twice", p.ID)
		}
		probes = append(probes, p)
	}
	if len(probes) == 0 && len(reqs) == 0 {
		return 0, usagef("nothing to probe: declare probes: for the server in %s, or pass --call, --get or --read", cfgPath)
	}
	if pins == "" {
		pins = probe.DefaultPinsFile
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	if len(cf.versions) == 0 && version != "" {
		revs = []string{version}
	}
	if cf.maxPages < 1 || cf.maxBytes < 1 || cf.startupTimeout <= 0 || cf.requestTimeout <= 0 {
		return 0, usagef("--max-pages, --max-bytes, --startup-timeout and --request-timeout must be positive")
	}
	var pinned *probe.Pins
	if !*update {
		pinned, err = probe.ReadPins(pins)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("reading the pinned shapes: %w", err)
		}
	}
	// Schemas first: no server is started when validation cannot happen.
	schemas, err := loadSchemas(ctx, sf.options(env))
	if err != nil {
		return 0, err
	}

	var caps []*capture.Capture
	var runErr error
	for _, v := range revs {
		opts := cf.options(v)
		opts.Probes = probes
		c, err := capture.Run(ctx, target, opts)
		if c != nil {
			caps = append(caps, c)
		}
		if err != nil {
			runErr = withHint(fmt.Errorf("probing %s at %s: %w", target.Describe(), v, err), flagHint)
			break
		}
	}
	if cf.frames != "" {
		if err := writeFrames(cf.frames, redactFrames(caps, secrets)); err != nil {
			return 0, errors.Join(runErr, fmt.Errorf("writing --frames: %w", err))
		}
	}
	if runErr != nil {
		return 0, runErr
	}

	if *update {
		p, err := probe.PinsOf(caps[0])
		if err != nil {
			return 0, err
		}
		if err := probe.WritePins(pins, p); err != nil {
			return 0, fmt.Errorf("writing the pinned shapes: %w", err)
		}
		fmt.Fprintf(env.Stderr, "wrote %s (%s)\n", pins, plural(len(p.Probes), "pinned probe"))
		pinned = p
	}

	policy := cfg.Policy(now)
	r := &report.Report{Version: Version}
	var all []finding.Finding
	for _, c := range caps {
		reportDiagnostics(env.Stderr, c)
		m, err := manifest.Build(c)
		if err != nil {
			return 0, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
		found, err := spec.ValidateProbes(c, schemas)
		if err != nil {
			return 0, fmt.Errorf("validating the probes of %s: %w", c.Target, err)
		}
		judged, cov := probe.Evaluate(c, m, probe.Options{Require: reqs, Pins: pinned, PinsFile: filepath.ToSlash(pins), Secrets: secrets})
		found = append(found, judged...)
		kept := policy.Apply(found)
		all = append(all, kept...)

		sec := report.Section{Server: name, Command: "probe", Subjects: report.SubjectsOf(m),
			Head: &report.Side{Label: c.Target, ManifestHash: m.Fingerprints.Manifest, Revision: c.ProtocolVersion}}
		if len(caps) > 1 {
			sec.Server = strings.TrimSpace(name + " (MCP " + c.ProtocolVersion + ")")
		}
		sec.Notes = append(sec.Notes, fmt.Sprintf("captured %s: MCP %s via %s; %s made", c.Target, c.ProtocolVersion, c.Handshake, plural(len(c.Probes), "probe call")))
		sec.Notes = append(sec.Notes, cov.Notes()...)
		check.Sort(&sec, kept, rules.KindSpec)
		finding.Sort(sec.Spec)
		finding.Sort(sec.Lint)
		finding.Sort(sec.Changes)
		r.Servers = append(r.Servers, sec)
	}
	if err := of.emit(env, r, of.options(env, failLevel)); err != nil {
		return 0, err
	}
	if finding.AtOrAbove(all, failLevel) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// redactFrames returns copies of the captures whose frames have every
// secret (inside JSON strings) replaced, for --frames.
func redactFrames(caps []*capture.Capture, secrets []string) []*capture.Capture {
	if len(secrets) == 0 {
		return caps
	}
	var olds [][]byte
	for _, s := range secrets {
		b, _ := json.Marshal(s)
		if len(b) > 2 {
			olds = append(olds, b[1:len(b)-1])
		}
	}
	slices.SortFunc(olds, func(a, b []byte) int { return len(b) - len(a) })
	out := make([]*capture.Capture, len(caps))
	for i, c := range caps {
		cp := *c
		cp.Frames = make([]capture.Frame, len(c.Frames))
		for j, f := range c.Frames {
			data := []byte(f.Data)
			for _, old := range olds {
				if bytes.Contains(data, old) {
					data = bytes.ReplaceAll(data, old, []byte("[redacted]"))
				}
			}
			f.Data = data
			cp.Frames[j] = f
		}
		out[i] = &cp
	}
	return out
}
