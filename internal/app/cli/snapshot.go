package cli

import (
	"context"
	"flag"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/snapshotfile"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

func runSnapshot(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("snapshot", "[--check] [-o mcp-surface.json] (-- CMD ARGS... | --url URL | [--server NAME])", env.Stderr)
	var cf captureFlags
	cf.register(fs)
	cf.registerPartial(fs)
	cf.registerJobs(fs)
	out := fs.String("o", "mcp-surface.json", "the snapshot `file`")
	verify := fs.Bool("check", false, "do not write: exit 1 with the changes when the file no longer matches the server")
	verbose := fs.Bool("verbose", false, "with --check, every change (default: the first 20)")
	updateHint := fs.String("update-hint", "", "with --check, what rewrites the snapshot, in a test runner's words (`text`; the test helpers pass it)")
	cfgFile := fs.String("config", "", "configuration `file` whose servers: list names the servers and their snapshots (default .mcp-surface.yaml when present)")
	server := fs.String("server", "", "only the server of this `name` in the servers: list")
	cmd, err := parseServerFlags(fs, args)
	if err != nil {
		return 0, err
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
		jobs = append(jobs, job{path: *out, hint: rerunHint(args, snapshotfile.DisplayPath(*out))})
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
			hint := rerunHint(args, snapshotfile.DisplayPath(path))
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
			if err := frontend.CheckOutput("-o", manifest.RevisionPath(j.path, rev, len(revs) > 1)); err != nil {
				return 0, err
			}
		}
	}
	opts := func(j job) snapshotfile.Options {
		h := snapshotfile.Hints{CLI: snapshotfile.CLICommand(env.Getenv), Args: j.hint, Update: *updateHint, Verbose: *verbose}
		return snapshotfile.Options{Path: j.path, Several: len(revs) > 1, Verify: *verify, MaxBytes: maxSnapshot, Version: Version, Hints: h}
	}
	w := snapshotfile.Streams{Stdout: env.Stdout, Stderr: env.Stderr}
	if !fromList {
		caps, err := cf.captureAll(ctx, env, cmd)
		if err != nil {
			return 0, err
		}
		return snapshotfile.Snapshot(ctx, w, caps, opts(jobs[0]))
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
		err = snapshotfile.PartialHint(frontend.FlagHints.Wrap(err))
		if err := frontend.WriteFrames(ctx, env.Stdout, cf.frames, caps, servers[i].Secrets, err); err != nil {
			return err
		}
		c, err := snapshotfile.Snapshot(ctx, w, caps, opts(jobs[i]))
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

// rerunHint repeats the snapshot command's arguments without --check and
// the flags that only change what --check prints, and without --jobs,
// which changes nothing in the files (and so the hint is the same
// whatever it is). An -o naming an absolute path inside the working
// directory is given as the reader names it, shown.
func rerunHint(args []string, shown string) string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, "--", cmdline.Join(args[i+1:]))
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			out = append(out, cmdline.Word(a))
			continue
		}
		switch name {
		case "check", "verbose":
			continue
		case "jobs", "update-hint":
			if !hasValue {
				i++ // and its value
			}
			continue
		case "o":
			if !hasValue {
				i++
			}
			out = append(out, "-o", cmdline.Word(shown))
			continue
		}
		out = append(out, cmdline.Word(a))
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}
