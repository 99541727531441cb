package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/policy"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func runCost(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("cost", help("cost"), env.Stderr)
	var common commonFlags
	common.register(fs, "text")
	// cost renders a cost table, not a report: --help lists its formats.
	fs.Lookup("format").Usage = "output format: " + strings.Join(report.CostFormats, "|")
	encoding := fs.String("encoding", "", "tokenizer: "+encodingList()+" (default the configuration's cost.encoding, else "+string(cost.DefaultEncoding)+")")
	var cf captureFlags
	cf.register(fs)
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	live := len(cmd) > 0 || cf.url != ""
	switch {
	case live && fs.NArg() > 0:
		return 0, usagef("give a SNAPSHOT or a server (-- CMD or --url), not both")
	case !live && fs.NArg() != 1:
		return 0, usagef("nothing to count: give a SNAPSHOT file, a server command after --, or --url URL; run `mcp-surface cost -h`")
	}
	if !slices.Contains(report.CostFormats, common.format) {
		return 0, usagef("--format %q: use one of %s", common.format, strings.Join(report.CostFormats, ", "))
	}
	failOn, err := common.failLevel()
	if err != nil {
		return 0, err
	}
	now, err := frontend.Today(env.Getenv, time.Now)
	if err != nil {
		return 0, err
	}
	cfg, err := frontend.LoadConfig(ctx, common.config)
	if err != nil {
		return 0, err
	}
	maxSnapshot, err := frontend.SnapshotLimit(env.Getenv)
	if err != nil {
		return 0, err
	}
	opts := check.CostOptions(cfg)
	if *encoding != "" {
		if opts.Encoding, err = cost.ParseEncoding(*encoding); err != nil {
			return 0, usagef("--encoding: %v", err)
		}
	}

	var m *manifest.Manifest
	if live {
		caps, err := cf.captureAll(ctx, env, cmd)
		if err != nil {
			return 0, err
		}
		c := caps[len(caps)-1]
		frontend.WriteDiagnostics(env.Stderr, c)
		if m, err = manifest.Build(c); err != nil {
			return 0, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
	} else if m, err = check.ReadSnapshot(ctx, ".", fs.Arg(0), maxSnapshot); err != nil {
		return 0, err
	}

	t, err := cost.Compute(m, opts)
	if err != nil {
		return 0, fmt.Errorf("counting tokens: %w", err)
	}
	if err := report.RenderCost(env.Stdout, common.format, t); err != nil {
		return 0, err
	}
	found := policy.New(cfg, now).Apply(check.CostBudget(cfg).Check(t))
	code := frontend.ExitOK
	for _, f := range found {
		if f.Level.Rank() < rules.LevelNote.Rank() {
			continue
		}
		fmt.Fprintf(env.Stderr, "%s: %s: %s\n", f.Level, f.Rule, report.Line(f.Message, 500))
		if failOn != "" && f.Level.Rank() >= failOn.Rank() {
			code = frontend.ExitFindings
		}
	}
	return code, nil
}

func encodingList() string {
	var names []string
	for _, e := range cost.Encodings() {
		names = append(names, string(e))
	}
	return strings.Join(names, "|")
}
