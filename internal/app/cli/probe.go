package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/probe"
)

// inlineProbes are the probes given with --call, --get and --read.
type inlineProbes struct {
	probes []capture.Probe
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
	fset := newFlagSet("probe", help("probe"), env.Stderr)
	rf, sf, cf := registerPipeline(fset)
	cf.registerJobs(fset)
	server := fset.String("server", "", "probe the server of this `name` in .mcp-surface.yaml (default: every one)")
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
	cmd, err := parseServerFlags(fset, args)
	if err != nil {
		return 0, err
	}
	for _, r := range require {
		if r != probe.RequireAllAdvertised && !slices.Contains(capture.ProbeMethods, r) {
			return 0, usagef("--require %q: use %s or %s", r, strings.Join(capture.ProbeMethods, ", "), probe.RequireAllAdvertised)
		}
	}
	if err := rf.resolve(ctx, env); err != nil {
		return 0, err
	}
	cfgPath := rf.config
	if cfgPath == "" {
		cfgPath = config.DefaultFile
	}

	// The servers: from the command line, or from the configuration.
	live := len(cmd) > 0 || cf.url != ""
	var entries []config.Server
	switch {
	case *server != "":
		if rf.cfg == nil {
			return 0, usagef("--server %s: no configuration file (%s) to find it in", *server, cfgPath)
		}
		entry, err := rf.cfg.ServerNamed(*server)
		if err != nil {
			return 0, usagef("--server %s: %s %v", *server, cfgPath, err)
		}
		entries = []config.Server{*entry}
	case rf.cfg != nil && len(rf.cfg.Servers) == 1:
		entries = rf.cfg.Servers
	case rf.cfg != nil && len(rf.cfg.Servers) > 1 && !live:
		if len(inline.probes) > 0 || *pinsFlag != "" {
			return 0, usagef("%s lists %d servers, and --call, --get, --read and --pins are for one: choose it with --server NAME", cfgPath, len(rf.cfg.Servers))
		}
		entries = rf.cfg.Servers
	}
	if !live && len(entries) == 0 {
		return 0, usagef("no server to probe: pass the command after --, use --url, or list it under servers: in %s", cfgPath)
	}
	extra, sec, err := probe.Expand(inline.probes, env.Getenv)
	if err != nil {
		return 0, usagef("%v", err)
	}
	var srvs []check.Server
	var secrets []string
	for _, e := range entries {
		srv, err := check.ServerFromConfig(e, cfgPath, "", env.Getenv)
		if err != nil {
			return 0, err
		}
		srvs = append(srvs, srv)
	}
	if live {
		// Its probes from the configuration, its command from the
		// command line.
		var srv check.Server
		if len(srvs) == 1 {
			srv = srvs[0]
		}
		flagged, err := cf.server(env, cmd)
		if err != nil {
			return 0, err
		}
		flagged.Name, flagged.Snapshot, flagged.Probes, flagged.Secrets = srv.Name, srv.Snapshot, srv.Probes, srv.Secrets
		flagged.Require, flagged.ProtocolVersion = srv.Require, srv.ProtocolVersion
		srvs = []check.Server{flagged}
	}
	for i, srv := range srvs {
		if srvs[i], err = srv.WithProbes(require, extra, sec); err != nil {
			return 0, usagef("%v", err)
		}
		if len(srvs[i].Probes) == 0 && len(srvs[i].Require) == 0 {
			if len(srvs) > 1 {
				return 0, usagef("nothing to probe on server %s: declare probes: for it in %s, or choose the others with --server NAME", srv.Name, cfgPath)
			}
			return 0, usagef("nothing to probe: declare probes: for the server in %s, or pass --call, --get or --read", cfgPath)
		}
		secrets = append(secrets, srvs[i].Secrets...)
	}
	var revs []string
	if len(cf.versions) > 0 {
		if revs, err = cf.revisions(); err != nil {
			return 0, err
		}
	}
	if err := cf.checkLimits(); err != nil {
		return 0, err
	}

	o := cf.options(env, srvs...)
	o.Config, o.Now, o.SchemaOptions = rf.cfg, rf.now, sf.options(env)
	o.Log = func(format string, args ...any) { fmt.Fprintln(env.Stderr, logf(format, args...)) }
	res, err := check.Probe(ctx, o, check.ProbeOptions{Revisions: revs, PinsFile: *pinsFlag, UpdatePins: *update})
	if err := frontend.WriteFrames(ctx, env.Stdout, cf.frames, res.Captures, secrets, frontend.FlagHints.Wrap(err)); err != nil {
		return 0, frontend.SchemaHint(err, o.SchemaOptions)
	}
	for _, c := range res.Captures {
		frontend.WriteDiagnostics(env.Stderr, c)
	}
	if err := rf.emit(ctx, env, res.Report); err != nil {
		return 0, err
	}
	if res.Fails(rf.failOn, nil) {
		return frontend.ExitFindings, nil
	}
	return frontend.ExitOK, nil
}
