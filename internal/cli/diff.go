package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/gitrepo"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// nowEnv overrides today's date (YYYY-MM-DD or RFC 3339) for expiry and
// sunset dates, so that a run can be reproduced.
const nowEnv = "MCP_SURFACE_NOW"

const diffUsage = `BASE HEAD

BASE and HEAD are snapshot files, or REF:PATH to read a committed snapshot
from git (as ` + "`git show REF:PATH`" + ` in the current directory), e.g.
  mcp-surface diff origin/main:mcp-surface.json mcp-surface.json
Formats: text (default), json, markdown, github, junit, sarif, and
ignore-yaml (the findings as acknowledgements to paste into
.mcp-surface.yaml). ` + nowEnv + `=YYYY-MM-DD overrides today's date.`

func runDiff(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("diff", diffUsage, env.Stderr)
	var cf commonFlags
	cf.register(fs, "text")
	var of outputFlags
	of.register(fs, &cf)
	var failTags stringList
	fs.Var(&failTags, "fail-on-tag", "also exit 1 when an unacknowledged finding above info carries this `tag` (e.g. sec); repeatable")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 2 {
		return 0, usagef("need BASE and HEAD, got %d argument(s); run `mcp-surface diff -h`", fs.NArg())
	}
	failLevel, err := cf.failLevel()
	if err != nil {
		return 0, err
	}
	if cf.format != "ignore-yaml" {
		if err := of.check(); err != nil {
			return 0, err
		}
	}
	now, err := diffNow(env)
	if err != nil {
		return 0, err
	}
	cfg, err := loadDiffConfig(cf.config)
	if err != nil {
		return 0, err
	}
	base, err := readSnapshotArg(ctx, fs.Arg(0))
	if err != nil {
		return 0, fmt.Errorf("base: %w", err)
	}
	head, err := readSnapshotArg(ctx, fs.Arg(1))
	if err != nil {
		return 0, fmt.Errorf("head: %w", err)
	}

	res := diff.Diff(base, head, cfg.DiffOptions(now))

	if cf.format == "ignore-yaml" {
		var out bytes.Buffer
		if err := writeIgnoreYAML(&out, res, of.showInfo); err != nil {
			return 0, err
		}
		if _, err := env.Stdout.Write(out.Bytes()); err != nil {
			return 0, err
		}
	} else if err := of.emit(env, diffReport(fs.Arg(0), fs.Arg(1), base, head, res), of.options(env, failLevel)); err != nil {
		return 0, err
	}
	if check.Fails(res.Findings, failLevel, failTags) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

func diffNow(env *Env) (time.Time, error) {
	s := env.Getenv(nowEnv)
	if s == "" {
		return time.Now(), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, usagef("%s=%q is not a date (YYYY-MM-DD or RFC 3339)", nowEnv, s)
	}
	return t, nil
}

// loadDiffConfig reads --config, or .mcp-surface.yaml when present; nil
// when there is none.
func loadDiffConfig(path string) (*config.Config, error) {
	if path == "" {
		if _, err := os.Stat(config.DefaultFile); err != nil {
			return nil, nil
		}
		path = config.DefaultFile
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	return c, nil
}

// readSnapshotArg reads a snapshot file, or REF:PATH through git when no
// file of that name exists.
func readSnapshotArg(ctx context.Context, arg string) (*manifest.Manifest, error) {
	_, statErr := os.Stat(arg)
	if statErr == nil || !strings.Contains(arg, ":") {
		return manifest.ReadFile(arg)
	}
	ref, path, _ := strings.Cut(arg, ":")
	if ref == "" || path == "" {
		return nil, fmt.Errorf("%s: no such file, and not a REF:PATH", arg)
	}
	data, err := gitrepo.ReadFile(ctx, ".", ref, path)
	if err != nil {
		return nil, fmt.Errorf("reading %s from git: %w", arg, err)
	}
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return m, nil
}

// diffReport is the report of one comparison: change findings apart from
// the lint findings the diff may add (protocol-feature-version-mismatch,
// config-acknowledgement-expired).
func diffReport(baseLabel, headLabel string, base, head *manifest.Manifest, res *diff.Result) *report.Report {
	sec := report.Section{
		Command:       "diff",
		Base:          &report.Side{Label: baseLabel, ManifestHash: res.BaseManifestHash, Revision: base.ProtocolVersion},
		Head:          &report.Side{Label: headLabel, ManifestHash: res.HeadManifestHash, Revision: head.ProtocolVersion},
		Subjects:      report.SubjectsOf(head),
		WorstSeverity: res.WorstSeverity,
		SuggestedBump: res.SuggestedBump,
	}
	// A head snapshot given as a relative file path is the location of
	// last resort (run from the repository root, as in CI).
	if _, err := os.Stat(headLabel); err == nil && !filepath.IsAbs(headLabel) {
		sec.Snapshot = filepath.ToSlash(filepath.Clean(headLabel))
	}
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
	return &report.Report{Version: Version, Servers: []report.Section{sec}}
}

// diffSafeText makes server text printable on one line, bounded.
func diffSafeText(s string, n int) string {
	s = strings.ReplaceAll(diff.Visible(s), "\n", `\n`)
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// ackSubjectKey is the acknowledgement key of a subject kind.
var ackSubjectKey = map[string]string{
	finding.KindTool: "tool", finding.KindPrompt: "prompt", finding.KindResource: "resource",
	finding.KindResourceTemplate: "template",
}

// writeIgnoreYAML prints the unacknowledged findings as acknowledgements.
func writeIgnoreYAML(w io.Writer, res *diff.Result, showInfo bool) error {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	for _, f := range res.Findings {
		if f.Acknowledged != "" || (f.Level == rules.LevelInfo && !showInfo) {
			continue
		}
		entry := &yaml.Node{Kind: yaml.MappingNode, HeadComment: fmt.Sprintf("%s: %s", f.Level, diffSafeText(f.Message, 200))}
		add := func(k string, v *yaml.Node) { entry.Content = append(entry.Content, str(k), v) }
		add("rule", str(f.Rule))
		if key, ok := ackSubjectKey[f.Subject.Kind]; ok {
			add(key, str(f.Subject.Name))
		} else if f.Subject.Kind == finding.KindServer {
			add("server", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if f.Pointer != "" {
			add("pointer", str(f.Pointer))
		}
		add("fingerprint", str(f.Fingerprint))
		add("reason", &yaml.Node{Kind: yaml.ScalarNode, Value: "TODO"})
		list.Content = append(list.Content, entry)
	}
	fmt.Fprintln(w, "# Paste into .mcp-surface.yaml and replace each TODO with why the change is accepted;")
	fmt.Fprintln(w, "# add `expires: YYYY-MM-DD` to make an acknowledgement temporary.")
	if len(list.Content) == 0 {
		fmt.Fprintln(w, "acknowledged: []")
		return nil
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("acknowledged"), list}}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}
