package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
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
		jobs = append(jobs, job{path: *out, hint: rerunHint(args, displayPath(*out))})
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
			hint := rerunHint(args, displayPath(path))
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
	hints := func(args string) snapshotHints {
		return snapshotHints{cli: cliCommand(env), args: args, update: *updateHint, verbose: *verbose}
	}
	if !fromList {
		caps, err := cf.captureAll(ctx, env, cmd)
		if err != nil {
			return 0, err
		}
		return snapshotOne(ctx, env, caps, jobs[0].path, len(revs) > 1, *verify, hints(jobs[0].hint), maxSnapshot)
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
		c, err := snapshotOne(ctx, env, caps, jobs[i].path, len(revs) > 1, *verify, hints(jobs[i].hint), maxSnapshot)
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

// snapshotHints are what snapshot --check says around the changes, in the
// reader's terms: the command that runs mcp-surface (the launcher's, or
// MCP_SURFACE_CLI), what rewrites the snapshot when a test helper runs
// the check (--update-hint), and whether every change is shown.
type snapshotHints struct {
	cli     string // "mcp-surface", "npx mcp-surface"
	args    string // the arguments of the snapshot command that rewrites the file
	update  string // --update-hint: what rewrites it, in a test runner's terms
	verbose bool
}

// rewrite is the sentence that says how to rewrite the snapshot at path.
func (h snapshotHints) rewrite(path string) string {
	if h.update != "" {
		return hintLine(h.update) + " and commit " + cmdline.Word(path)
	}
	return "run `" + h.cli + " snapshot" + h.args + "` and commit " + cmdline.Word(path)
}

// hintLine bounds and escapes a hint a helper passed.
func hintLine(s string) string { return report.LogLine(s, report.MaxMessage) }

// snapshotOne writes (or, with verify, compares) the snapshot of each
// capture of one server to path (one file per revision when several).
// A comparison is the diff engine's: the verdict, one line per change,
// and how to rewrite the file; a rewrite says what it changed.
func snapshotOne(ctx context.Context, env *Env, caps []*capture.Capture, out string, several, verify bool, h snapshotHints, maxSnapshot int64) (int, error) {
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
		shown := displayPath(path)
		if !verify {
			var old *manifest.Manifest
			if path != stdoutPath {
				old, _ = manifest.ReadFileContext(ctx, path, maxSnapshot)
			}
			if err := writeSnapshot(ctx, env, path, head); err != nil {
				return 0, err
			}
			switch {
			case old != nil && !old.Incomplete() && old.Fingerprints.Manifest != head.Fingerprints.Manifest:
				if err := writeBrief(env.Stderr, old, head, shown, h, true); err != nil {
					return 0, err
				}
			case old != nil && old.Fingerprints.Manifest == head.Fingerprints.Manifest:
				fmt.Fprintf(env.Stderr, "wrote %s (unchanged)\n", path)
			default:
				fmt.Fprintf(env.Stderr, "wrote %s\n", path)
			}
			fmt.Fprintln(env.Stderr, report.LogLine(manifest.Summary(c, head), report.MaxText))
			warnPartial(env, path, head)
			continue
		}
		base, err := manifest.ReadFileContext(ctx, path, maxSnapshot)
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(env.Stdout, "%s does not exist: %s\n", shown, h.rewrite(shown))
			code = frontend.ExitFindings
			continue
		}
		if err != nil {
			return 0, err
		}
		if base.Incomplete() {
			// Never "matches": a partial file is no reviewed surface, even
			// against a server whose list fails the same way.
			fmt.Fprintf(env.Stdout, "%s is a partial snapshot (%s): it does not hold the server's surface\n", shown, report.LogLine(base.PartialSummary(), report.MaxText))
			fmt.Fprintf(env.Stdout, "once the server answers every list: %s\n", h.rewrite(shown))
			code = frontend.ExitFindings
			continue
		}
		if base.Fingerprints.Manifest != head.Fingerprints.Manifest {
			if err := writeBrief(env.Stdout, base, head, shown, h, false); err != nil {
				return 0, err
			}
			code = frontend.ExitFindings
			continue
		}
		fmt.Fprintf(env.Stdout, "%s matches the server (manifest %s)\n", shown, head.Fingerprints.Manifest[:12])
	}
	return code, nil
}

// writeBrief judges head against base with the diff engine and writes
// its brief: the verdict, a line per change, and (unless rewritten, when
// the file was just written) how to rewrite it.
func writeBrief(w io.Writer, base, head *manifest.Manifest, shown string, h snapshotHints, rewritten bool) error {
	res := check.Diff(base, head, shown, "the server", check.Options{Version: Version})
	t := report.BriefText{Snapshot: shown, Rewritten: rewritten}
	if !rewritten {
		t.Intended = h.rewrite(shown)
		t.More = h.cli + " snapshot --check --verbose" + h.args
	}
	if h.verbose {
		t.MaxLines = -1
	}
	if len(res.Findings) == 0 {
		// A difference no rule reads (a field of its own): the outline
		// names the items.
		t.Extra = manifest.Outline(base, head)
	}
	return report.WriteBrief(w, res.Report, report.Options{FailOn: rules.LevelError}, t)
}

// displayPath is path as the reader names it: relative to the working
// directory when it is inside it.
func displayPath(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// cliCommand is how the reader runs mcp-surface: the launcher that started
// this binary says so in MCP_SURFACE_CLI ("npx mcp-surface"); else
// "mcp-surface".
func cliCommand(env *Env) string {
	if c := strings.TrimSpace(env.Getenv(frontend.CLIEnv)); c != "" {
		return report.LogLine(c, report.MaxName)
	}
	return "mcp-surface"
}

// rerunHint repeats the user's arguments without --check and the flags
// that only change what --check prints, and without --jobs, which
// changes nothing in the files (and so the hint is the same whatever it
// is). An -o naming an absolute path inside the working directory is
// given as the reader names it, shown.
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
