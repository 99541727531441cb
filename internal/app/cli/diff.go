package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/policy"
)

func runDiff(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("diff", help("diff"), env.Stderr)
	var rf reportFlags
	rf.register(fs)
	var failTags stringList
	fs.Var(&failTags, "fail-on-tag", "also exit 1 when an unacknowledged finding above info carries this `tag` (e.g. sec); repeatable")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() != 2 {
		return 0, usagef("need BASE and HEAD, got %d argument(s); run `mcp-surface diff -h`", fs.NArg())
	}
	if err := rf.resolve(ctx, env, "ignore-yaml"); err != nil {
		return 0, err
	}
	restore, large := frontend.BoundDiffMemory(env.Getenv, fs.Arg(0), fs.Arg(1))
	defer restore()
	base, err := check.ReadSnapshot(ctx, ".", fs.Arg(0), rf.maxSnapshot)
	if err != nil {
		return 0, fmt.Errorf("base: %w", err)
	}
	if large {
		// The base file's bytes are garbage now. The head file is read
		// into one allocation of its size, which the collector cannot
		// make room for while it is made: without a collection first
		// both files are in memory at once.
		runtime.GC()
	}
	head, err := check.ReadSnapshot(ctx, ".", fs.Arg(1), rf.maxSnapshot)
	if err != nil {
		return 0, fmt.Errorf("head: %w", err)
	}

	res := check.Diff(base, head, fs.Arg(0), fs.Arg(1), check.Options{Config: rf.cfg, Now: rf.now, Version: Version})
	// A head snapshot given as a relative file path is the location of
	// last resort (run from the repository root, as in CI).
	if _, err := os.Stat(fs.Arg(1)); err == nil && !filepath.IsAbs(fs.Arg(1)) {
		res.Report.Servers[0].Snapshot = filepath.ToSlash(filepath.Clean(fs.Arg(1)))
	}

	if rf.format == "ignore-yaml" {
		// Only what fails this run is worth acknowledging: the findings
		// at or above --fail-on (or with a --fail-on-tag); with
		// --fail-on none, every one.
		failing := res.Findings
		if rf.failOn != "" {
			failing = nil
			for _, f := range res.Findings {
				if check.Fails([]finding.Finding{f}, rf.failOn, failTags) {
					failing = append(failing, f)
				}
			}
		}
		var out bytes.Buffer
		if err := policy.WriteAcknowledgements(&out, failing, rf.out.showInfo); err != nil {
			return 0, err
		}
		if _, err := env.Stdout.Write(out.Bytes()); err != nil {
			return 0, err
		}
	} else if err := rf.emit(ctx, env, res.Report); err != nil {
		return 0, err
	}
	if err := incompleteError(res); err != nil {
		return frontend.ExitFailure, err
	}
	if check.Fails(res.Findings, rf.failOn, failTags) {
		return frontend.ExitFindings, nil
	}
	return frontend.ExitOK, nil
}

// incompleteError is the tool failure of a comparison one side of which
// is a partial snapshot (a list the server advertises failed): the
// report is written and names the failed list (surface-list-failed), but
// the command exits 2, not 0 or 1, whatever --fail-on says. The job (say
// what changed) could not be done for that list, and no finding level
// can stand for that: with --fail-on none a partial comparison would
// otherwise pass, and two failed captures would look unchanged.
func incompleteError(res *check.Result) error {
	lines := res.Incomplete()
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("the comparison is incomplete: %s; a list that failed was not compared (the report names it): capture again once the server answers every list it advertises",
		strings.Join(lines, "; "))
}
