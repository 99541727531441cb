package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
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
	maxSnapshot, err := snapshotLimit(env)
	if err != nil {
		return 0, err
	}
	for _, rev := range revs {
		if *check {
			break
		}
		if err := checkOutput("-o", outputPath(*out, rev, len(revs) > 1)); err != nil {
			return 0, err
		}
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
			data, err := manifest.Encode(head)
			if err != nil {
				return 0, err
			}
			if err := writeOutput(ctx, env, path, data); err != nil {
				return 0, err
			}
			fmt.Fprintf(env.Stderr, "wrote %s\n", path)
			fmt.Fprintln(env.Stderr, report.LogLine(summarize(c, head), report.MaxText))
			continue
		}
		base, err := manifest.ReadFileContext(ctx, path, maxSnapshot)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.Stdout, "%s does not exist: run `mcp-surface snapshot%s` and commit it\n", path, rerunHint(args))
			code = ExitFindings
			continue
		}
		if err != nil {
			return 0, err
		}
		if lines := manifest.Outline(base, head); len(lines) > 0 {
			fmt.Fprintf(env.Stdout, "%s no longer matches the server:\n", path)
			for _, l := range lines {
				fmt.Fprintf(env.Stdout, "  %s\n", report.LogLine(l, report.MaxText))
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
