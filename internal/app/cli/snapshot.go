package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func runSnapshot(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("snapshot", "[--check] [-o mcp-surface.json] (-- CMD ARGS... | --url URL | [--server NAME])", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	cf.registerPartial(fs)
	cf.registerJobs(fs)
	out := fs.String("o", "mcp-surface.json", "the snapshot `file`")
	verify := fs.Bool("check", false, "do not write: exit 1 with a summary when the file no longer matches the server")
	cfgFile := fs.String("config", "", "configuration `file` whose servers: list names the servers and their snapshots (default .mcp-surface.yaml when present)")
	server := fs.String("server", "", "only the server of this `name` in the servers: list")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	if *verify && cf.partial {
		return 0, usagef("--check verifies the committed snapshot against the whole surface; --partial writes an incomplete one: give one of them")
	}
	revs, err := cf.revisions()
	if err != nil {
		return 0, err
	}
	maxSnapshot, err := frontend.SnapshotLimit(env.Getenv)
	defer frontend.BoundCaptureMemory(env.Getenv, cf.maxBytes)()
	if err != nil {
		return 0, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	// The servers: the command line's, else the configuration's list.
	type job struct {
		path   string
		hint   string // the arguments that rewrite the file
		server check.Server
	}
	var jobs []job
	fromList := len(cmd) == 0 && cf.url == ""
	if !fromList {
		if *server != "" {
			return 0, usagef("--server picks a server of the servers: list; with a command or --url, name the file with -o")
		}
		jobs = append(jobs, job{path: *out, hint: rerunHint(args)})
	} else {
		cfg, err := frontend.LoadConfig(ctx, *cfgFile)
		if err != nil {
			return 0, err
		}
		cfgPath := *cfgFile
		if cfgPath == "" {
			cfgPath = config.DefaultFile
		}
		if cfg == nil || len(cfg.Servers) == 0 {
			if *server != "" {
				return 0, usagef("--server %s: %s lists no servers", *server, cfgPath)
			}
			return 0, usagef("no server: put the server command after --, use --url, or list servers: in %s", cfgPath)
		}
		entries, err := pickServers(cfg, *server, cfgPath)
		if err != nil {
			return 0, err
		}
		if set["o"] && len(entries) > 1 {
			return 0, usagef("-o names one file, and %s lists %d servers: each writes its own snapshot: (or pick one with --server)", cfgPath, len(entries))
		}
		if err := cf.checkLimits(); err != nil {
			return 0, err
		}
		for _, e := range entries {
			s, err := check.ServerFromConfig(e, cfgPath, "", env.Getenv)
			if err != nil {
				return 0, err
			}
			path := s.Snapshot
			switch {
			case set["o"]:
				path = *out
			case path == "" && len(entries) > 1:
				return 0, usagef("server %s in %s has no snapshot: file; with several servers each needs its own", s.Name, cfgPath)
			case path == "":
				path = *out
			}
			hint := rerunHint(args)
			if *server == "" && len(entries) > 1 {
				hint += " --server " + cmdline.Word(s.Name)
			}
			jobs = append(jobs, job{path, hint, s})
		}
	}

	// Every file is checked to be writable before any server starts.
	for _, j := range jobs {
		for _, rev := range revs {
			if *verify {
				break
			}
			if err := checkOutput("-o", manifest.RevisionPath(j.path, rev, len(revs) > 1)); err != nil {
				return 0, err
			}
		}
	}
	if !fromList {
		caps, err := cf.captureAll(ctx, env, cmd)
		if err != nil {
			return 0, err
		}
		return snapshotOne(ctx, env, caps, jobs[0].path, len(revs) > 1, *verify, jobs[0].hint, maxSnapshot)
	}
	// The servers are captured at once (--jobs); each one's snapshot is
	// written, and its lines printed, in the list's order, as soon as it
	// and the ones before it are done.
	servers := make([]check.Server, len(jobs))
	for i, j := range jobs {
		servers[i] = j.server
	}
	code := frontend.ExitOK
	err = check.EachCapture(ctx, cf.options(env, servers...), revs, func(i int, caps []*capture.Capture, err error) error {
		if err := cf.writeFrames(ctx, env, caps, servers[i].Secrets, partialHint(frontend.FlagHints.Wrap(err))); err != nil {
			return err
		}
		c, err := snapshotOne(ctx, env, caps, jobs[i].path, len(revs) > 1, *verify, jobs[i].hint, maxSnapshot)
		code = max(code, c)
		return err
	})
	if err != nil {
		return 0, err
	}
	return code, nil
}

// pickServers is the servers: list, or its entry called name.
func pickServers(cfg *config.Config, name, cfgPath string) ([]config.Server, error) {
	if name == "" {
		return cfg.Servers, nil
	}
	s, err := cfg.ServerNamed(name)
	if err != nil {
		return nil, usagef("--server %s: %s %v", name, cfgPath, err)
	}
	return []config.Server{*s}, nil
}

// snapshotOne writes (or, with verify, compares) the snapshot of each
// capture of one server to path (one file per revision when several);
// hint is the arguments of the snapshot command that rewrites it.
func snapshotOne(ctx context.Context, env *Env, caps []*capture.Capture, out string, several, verify bool, hint string, maxSnapshot int64) (int, error) {
	code := frontend.ExitOK
	for _, c := range caps {
		head, err := manifest.Build(c)
		// The shutdown overlapped the build; what it noticed is reported
		// with the rest.
		c.Wait()
		reportDiagnostics(env.Stderr, c)
		if err != nil {
			return 0, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
		}
		path := manifest.RevisionPath(out, c.RequestedVersion, several)
		if !verify {
			if err := writeSnapshot(ctx, env, path, head); err != nil {
				return 0, err
			}
			fmt.Fprintf(env.Stderr, "wrote %s\n", path)
			fmt.Fprintln(env.Stderr, report.LogLine(manifest.Summary(c, head), report.MaxText))
			warnPartial(env, path, head)
			continue
		}
		base, err := manifest.ReadFileContext(ctx, path, maxSnapshot)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.Stdout, "%s does not exist: run `mcp-surface snapshot%s` and commit it\n", path, hint)
			code = frontend.ExitFindings
			continue
		}
		if err != nil {
			return 0, err
		}
		if base.Incomplete() {
			// Never "matches": a partial file is no reviewed surface, even
			// against a server whose list fails the same way.
			fmt.Fprintf(env.Stdout, "%s is a partial snapshot (%s): it does not hold the server's surface\n", path, report.LogLine(base.PartialSummary(), report.MaxText))
			fmt.Fprintf(env.Stdout, "run `mcp-surface snapshot%s` once the server answers every list, and commit the file\n", hint)
			code = frontend.ExitFindings
			continue
		}
		if lines := manifest.Outline(base, head); len(lines) > 0 {
			fmt.Fprintf(env.Stdout, "%s no longer matches the server:\n", path)
			for _, l := range lines {
				fmt.Fprintf(env.Stdout, "  %s\n", report.LogLine(l, report.MaxText))
			}
			fmt.Fprintf(env.Stdout, "run `mcp-surface snapshot%s` and commit the file (`%s` shows every change)\n", hint, diffHint(path, hint))
			code = frontend.ExitFindings
			continue
		}
		fmt.Fprintf(env.Stdout, "%s matches the server (manifest %s)\n", path, head.Fingerprints.Manifest[:12])
	}
	return code, nil
}

// diffHint is a command that shows every change between the file at
// path and the server: it writes the server's snapshot beside the file
// (the arguments of hint with their -o replaced) and diffs the two.
func diffHint(path, hint string) string {
	var args []string
	words := strings.Fields(hint)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			args = append(args, words[i:]...)
			break
		}
		switch {
		case w == "-o" || w == "--o":
			i++ // and its value
			continue
		case strings.HasPrefix(w, "-o=") || strings.HasPrefix(w, "--o="):
			continue
		}
		args = append(args, w)
	}
	live := strings.TrimSuffix(path, ".json") + ".live.json"
	cmd := "mcp-surface snapshot -o " + cmdline.Word(live)
	if len(args) > 0 {
		cmd += " " + strings.Join(args, " ")
	}
	return cmd + " && mcp-surface diff " + cmdline.Word(path) + " " + cmdline.Word(live)
}

// rerunHint repeats the user's arguments without --check, and without
// --jobs, which changes nothing in the files (and so the hint is the
// same whatever it is).
func rerunHint(args []string) string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		switch {
		case a == "--check" || a == "-check":
			continue
		case a == "--jobs" || a == "-jobs":
			i++ // and its value
			continue
		case strings.HasPrefix(a, "--jobs=") || strings.HasPrefix(a, "-jobs="):
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}
