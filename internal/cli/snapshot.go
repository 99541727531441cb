package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func runSnapshot(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("snapshot", "[--check] [-o mcp-surface.json] (-- CMD ARGS... | --url URL)", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	out := fs.String("o", "mcp-surface.json", "the snapshot `file`")
	check := fs.Bool("check", false, "do not write: exit 1 with a summary when the file no longer matches the server")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	caps, err := cf.captureAll(ctx, env, cmd)
	if err != nil {
		return 0, err
	}
	code := ExitOK
	for _, c := range caps {
		reportDiagnostics(env.Stderr, c)
		head, err := manifest.Build(c)
		if err != nil {
			return 0, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
		path := outputPath(*out, c.RequestedVersion, len(revs) > 1)
		if !*check {
			if err := manifest.WriteFile(path, head); err != nil {
				return 0, err
			}
			fmt.Fprintf(env.Stderr, "wrote %s\n", path)
			fmt.Fprintln(env.Stderr, sanitizeLine(summarize(c, head)))
			continue
		}
		base, err := manifest.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.Stdout, "%s does not exist: run `mcp-surface snapshot%s` and commit it\n", path, rerunHint(args))
			code = ExitFindings
			continue
		}
		if err != nil {
			return 0, err
		}
		if lines := compareSnapshots(base, head); len(lines) > 0 {
			fmt.Fprintf(env.Stdout, "%s no longer matches the server:\n", path)
			for _, l := range lines {
				fmt.Fprintf(env.Stdout, "  %s\n", sanitizeLine(l))
			}
			fmt.Fprintf(env.Stdout, "run `mcp-surface snapshot%s` and commit the file (or `mcp-surface diff` to see every change)\n", rerunHint(args))
			code = ExitFindings
			continue
		}
		fmt.Fprintf(env.Stdout, "%s matches the server (manifest %s)\n", path, head.Fingerprints.Manifest[:12])
	}
	return code, nil
}

// rerunHint repeats the user's arguments without --check.
func rerunHint(args []string) string {
	var out []string
	for _, a := range args {
		if a == "--check" || a == "-check" {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}

// compareSnapshots summarizes how two snapshots differ, item by item, from
// their fingerprints: a short list for people; `mcp-surface diff` judges.
func compareSnapshots(base, head *manifest.Manifest) []string {
	if base.Fingerprints.Manifest == head.Fingerprints.Manifest {
		return nil
	}
	var lines []string
	field := func(name string, a, b []byte) {
		if string(a) != string(b) {
			lines = append(lines, name+" changed")
		}
	}
	field("protocolVersion", []byte(base.ProtocolVersion), []byte(head.ProtocolVersion))
	field("serverInfo", base.ServerInfo, head.ServerInfo)
	field("capabilities", base.Capabilities, head.Capabilities)
	field("instructions", base.Instructions, head.Instructions)
	prints := func(m *manifest.Manifest, section string) map[string]manifest.Prints {
		switch section {
		case manifest.SectionTools:
			return m.Fingerprints.Tools
		case manifest.SectionPrompts:
			return m.Fingerprints.Prompts
		case manifest.SectionResources:
			return m.Fingerprints.Resources
		}
		return m.Fingerprints.ResourceTemplates
	}
	for _, section := range manifest.Sections {
		b, h := prints(base, section), prints(head, section)
		var added, removed, contract, prose, other []string
		for id, hp := range h {
			bp, ok := b[id]
			switch {
			case !ok:
				added = append(added, id)
			case bp.Contract != hp.Contract:
				contract = append(contract, id)
			case bp.Prose != hp.Prose:
				prose = append(prose, id)
			case bp.Full != hp.Full:
				other = append(other, id)
			}
		}
		for id := range b {
			if _, ok := h[id]; !ok {
				removed = append(removed, id)
			}
		}
		for _, g := range []struct {
			what string
			ids  []string
		}{{"added", added}, {"removed", removed}, {"contract changed", contract}, {"descriptions changed", prose}, {"metadata changed", other}} {
			if len(g.ids) == 0 {
				continue
			}
			sort.Strings(g.ids)
			shown := g.ids
			more := ""
			if len(shown) > 10 {
				more = fmt.Sprintf(" and %d more", len(shown)-10)
				shown = shown[:10]
			}
			lines = append(lines, fmt.Sprintf("%s %s: %s%s", section, g.what, strings.Join(shown, ", "), more))
		}
	}
	if len(lines) == 0 {
		lines = append(lines, "snapshot content changed")
	}
	return lines
}
