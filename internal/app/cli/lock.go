package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/app/lockwrap"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// lockFlags are the lock command's flags.
type lockFlags struct {
	configs     stringList
	lockFile    string
	root        string
	check       bool
	update      bool
	skipMissing bool
	format      string
	revision    string
	limits      capture.Limits
	jobs        int
	noRegistry  bool
	wrap        bool
	unwrap      bool
}

func (lf *lockFlags) register(fs *flag.FlagSet) {
	fs.Var(&lf.configs, "config-file", "a client configuration `[FORMAT:]FILE` to read (repeatable; default: each of "+strings.Join(clientconfig.DefaultFiles, ", ")+" that exists); FORMAT is one of vscode, claude-code, cursor, gemini, claude-desktop")
	fs.StringVar(&lf.lockFile, "lock", lock.DefaultFile, "the lock `file`, relative to the root")
	fs.StringVar(&lf.root, "root", "", "the repository root (the workspace folder): where configurations are found and commands run (default: the git work tree's top, else the current directory)")
	fs.BoolVar(&lf.check, "check", false, "do not write: compare every server with its lock entry")
	fs.BoolVar(&lf.wrap, "wrap", false, "start no server: rewrite each stdio entry of the configurations to run under mcp-surface guard (the lock must hold it)")
	fs.BoolVar(&lf.unwrap, "unwrap", false, "start no server: restore each entry that runs under the guard to its own command and args")
	fs.BoolVar(&lf.update, "update", false, "re-capture the servers named after the flags (every one when none is named) and write the lock")
	fs.BoolVar(&lf.skipMissing, "skip-missing", false, "a server whose variables are unset is named and skipped without failing the run")
	fs.StringVar(&lf.format, "format", "text", "output format of --check: text|json")
	fs.StringVar(&lf.revision, "protocol-version", capture.LatestRevision, "protocol `revision` to request")
	fs.DurationVar(&lf.limits.StartupTimeout, "startup-timeout", capture.DefaultLimits.StartupTimeout, "bound on launch plus handshake")
	fs.DurationVar(&lf.limits.RequestTimeout, "request-timeout", capture.DefaultLimits.RequestTimeout, "bound on each request after the handshake")
	fs.Int64Var(&lf.limits.MaxBytes, "max-bytes", capture.DefaultLimits.MaxBytes, "bound on the total `bytes` received from each server")
	fs.IntVar(&lf.limits.MaxPages, "max-pages", capture.DefaultLimits.MaxPages, "bound on the pages read per list")
	fs.BoolVar(&lf.noRegistry, "no-registry", false, "do not read the registries of package launchers (npx, uvx, docker run ...): no version or integrity is recorded or checked, and each such server says so")
	fs.IntVar(&lf.jobs, "jobs", 0, "at most `n` servers captured at once (default: the number of CPUs; 1: one after the other); the lock and the report are the same whatever it is")
	fs.DurationVar(&lf.limits.ShutdownGrace, "shutdown-grace", capture.DefaultLimits.ShutdownGrace, "how long a stdio server is given to exit after its stdin closes, and again after SIGTERM")
}

func runLock(ctx context.Context, env *Env, args []string) (int, error) {
	flags := newFlagSet("lock", help("lock"), env.Stderr)
	var lf lockFlags
	lf.register(flags)
	if err := parseFlags(flags, args); err != nil {
		return 0, err
	}
	names := flags.Args()
	switch {
	case lf.check && lf.update, (lf.wrap || lf.unwrap) && (lf.check || lf.update || lf.wrap == lf.unwrap):
		return 0, usagef("--check, --update, --wrap and --unwrap exclude each other")
	case len(names) > 0 && !lf.update:
		return 0, usagef("unexpected argument %q: only --update takes server names", names[0])
	case lf.format != "text" && lf.format != "json":
		return 0, usagef("unknown --format %q; use text or json", lf.format)
	case !slices.Contains(capture.Revisions, lf.revision):
		return 0, usagef("--protocol-version %q: use one of %s", lf.revision, strings.Join(capture.Revisions, ", "))
	case lf.jobs < 0:
		return 0, usagef("--jobs %d: give a positive number, or 0 for the number of CPUs", lf.jobs)
	case lf.limits.MaxPages < 1 || lf.limits.MaxBytes < 1 || lf.limits.StartupTimeout <= 0 || lf.limits.RequestTimeout <= 0 || lf.limits.ShutdownGrace <= 0:
		return 0, usagef("--max-pages, --max-bytes, --startup-timeout, --request-timeout and --shutdown-grace must be positive")
	}
	root, err := lockRoot(ctx, lf.root)
	if err != nil {
		return 0, err
	}
	if lf.wrap || lf.unwrap {
		lines, err := lockwrap.Run(ctx, lockwrap.Options{Root: root, Configs: lf.configs, Lock: lf.lockFile, Getenv: env.Getenv, Unwrap: lf.unwrap})
		for _, line := range lines {
			fmt.Fprintln(env.Stderr, logf("%s", line))
		}
		return frontend.ExitOK, err
	}
	o := lf.options(env, root)
	servers, err := lock.ReadServers(ctx, o)
	if err != nil {
		return 0, err
	}
	lockPath := lf.lockFile
	if !filepath.IsAbs(lockPath) {
		lockPath = filepath.Join(root, lockPath)
	}
	var old *lock.Lock
	if lf.check || lf.update {
		if old, err = lock.ReadFile(ctx, lockPath, 0); errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("there is no lock file %s yet: run `mcp-surface lock` to write it, then review and commit it", lf.lockFile)
		} else if err != nil {
			return 0, err
		}
	}
	defer capture.WaitShutdowns()
	if lf.check {
		return lf.runCheck(ctx, env, o, servers, old)
	}
	return lf.write(ctx, env, o, servers, old, names, lockPath)
}

// lockRoot is --root, else the git work tree's top, else the current
// directory; absolute.
func lockRoot(ctx context.Context, root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		root = wd
		if top, err := gitrepo.TopLevel(ctx, wd); err == nil && top != "" {
			root = top
		}
	}
	return filepath.Abs(root)
}

// options are internal/app/lock's options for this run.
func (lf *lockFlags) options(env *Env, root string) lock.Options {
	var reg *lock.Registries
	if !lf.noRegistry {
		reg = &lock.Registries{Timeout: lf.limits.RequestTimeout, MaxBytes: lf.limits.MaxBytes}
	}
	return lock.Options{Registries: reg, NoRegistry: "--no-registry",
		Root: root, Configs: lf.configs, Getenv: env.Getenv, Environ: serverEnv(env, nil),
		Limits: lf.limits, Revision: lf.revision, Version: Version, Clock: time.Now, Jobs: lf.jobs,
		// A changed entry is another server: review it like drift.
		CompareReconfigured: true,
		Log:                 func(format string, args ...any) { fmt.Fprintln(env.Stderr, logf(format, args...)) }}
}

// write is `lock` and `lock --update`.
func (lf *lockFlags) write(ctx context.Context, env *Env, o lock.Options, servers []clientconfig.Server, old *lock.Lock, names []string, lockPath string) (int, error) {
	w, err := lock.Update(ctx, o, servers, old, names)
	if err != nil {
		return 0, usagef("--update %v", err)
	}
	for _, s := range w.Skipped {
		fmt.Fprintln(env.Stderr, logf("%s (the server is never started with a blank value)", s))
	}
	for _, e := range w.Failed {
		fmt.Fprintln(env.Stderr, frontend.LogText(e.Error()))
	}
	if len(w.Failed) > 0 || len(w.Skipped) > 0 && !lf.skipMissing {
		return frontend.ExitFailure, fmt.Errorf("the lock was not written: %d server(s) failed, %d skipped for unset variables%s", len(w.Failed), len(w.Skipped),
			map[bool]string{true: " (pass --skip-missing to lock the others)", false: ""}[len(w.Failed) == 0])
	}
	if err := lock.WriteFile(ctx, lockPath, w.Lock); err != nil {
		return 0, err
	}
	for _, line := range acceptedLines(old, w.Lock) {
		fmt.Fprintln(env.Stderr, logf("%s", line))
	}
	for _, line := range w.Packages {
		fmt.Fprintln(env.Stderr, logf("%s", line))
	}
	fmt.Fprintln(env.Stderr, logf("wrote %s: %d server(s); review and commit it", lf.lockFile, len(w.Lock.Entries)))
	return frontend.ExitOK, nil
}

// runCheck is `lock --check`.
func (lf *lockFlags) runCheck(ctx context.Context, env *Env, o lock.Options, servers []clientconfig.Server, old *lock.Lock) (int, error) {
	c, err := lock.Check(ctx, o, servers, old)
	if err != nil {
		return 0, err
	}
	if lf.format == "json" {
		err = writeLockJSON(env.Stdout, c.Outcomes)
	} else {
		err = writeLockText(env.Stdout, c.Outcomes)
	}
	if err != nil {
		return 0, err
	}
	for _, e := range c.Failed {
		fmt.Fprintln(env.Stderr, frontend.LogText(e.Error()))
	}
	if len(c.Failed) > 0 || c.Skipped() > 0 && !lf.skipMissing {
		return frontend.ExitFailure, fmt.Errorf("the check is incomplete: %d server(s) failed, %d skipped for unset variables", len(c.Failed), c.Skipped())
	}
	if c.Fails() {
		return frontend.ExitFindings, nil
	}
	return frontend.ExitOK, nil
}

// acceptedLines say what a write locked: for a server new to the lock
// what it holds, for one whose entry changed the verdict of the change
// it accepts and the counts, so that an update never accepts a change
// silently. Entries the write kept as they were are not named.
func acceptedLines(old, now *lock.Lock) []string {
	var lines []string
	for i := range now.Entries {
		e := &now.Entries[i]
		var was *lock.Entry
		ok := false
		if old != nil {
			was, ok = old.Find(e.Config, e.Name)
		}
		switch {
		case !ok:
			lines = append(lines, fmt.Sprintf("locked %s: %s", e.Key(), lock.Counts(e.Snapshot)))
		case was.Snapshot == e.Snapshot:
		case was.Snapshot.Fingerprints.Manifest == e.Snapshot.Fingerprints.Manifest && was.EntryHash == e.EntryHash:
			lines = append(lines, fmt.Sprintf("kept %s: unchanged (%s)", e.Key(), lock.Counts(e.Snapshot)))
		default:
			o := lock.Compare(was, e.Snapshot, Version)
			line := fmt.Sprintf("accepted %s: %s; now %s", e.Key(), lock.Verdict(o), lock.Counts(e.Snapshot))
			if _, f, ok := lock.Worst([]*lock.Outcome{o}); ok && lock.ClassOf(&f) == lock.ClassDanger {
				line += "; worst: " + lock.Headline([]*lock.Outcome{o})
			}
			lines = append(lines, line)
			if was.EntryHash != e.EntryHash {
				lines = append(lines, "    entry: "+lock.EntryChange(was.Launch, e.Launch))
			}
		}
	}
	return lines
}

func writeLockText(w io.Writer, outs []*lock.Outcome) error {
	for _, line := range lock.TextLines(outs) {
		if _, err := fmt.Fprintln(w, logf("%s", line)); err != nil {
			return err
		}
	}
	return nil
}

// lockJSON is --format json of --check: one object per server, its
// findings in the order a consumer reads them (lock.Ranked).
type lockJSON struct {
	Config      string            `json:"config"`
	Name        string            `json:"name"`
	Status      lock.Status       `json:"status"`
	Missing     []string          `json:"missing,omitempty"`
	EntryChange string            `json:"entryChange,omitempty"`
	Verdict     string            `json:"verdict,omitempty"`
	Findings    []finding.Finding `json:"findings"`
}

func writeLockJSON(w io.Writer, outs []*lock.Outcome) error {
	list := []lockJSON{}
	for _, o := range outs {
		j := lockJSON{Config: o.Config, Name: o.Name, Status: o.Status, Missing: o.Missing, EntryChange: o.EntryChange, Findings: lock.Ranked(o)}
		if o.Head != nil {
			j.Verdict = lock.Verdict(o)
		}
		if j.Findings == nil {
			j.Findings = []finding.Finding{}
		}
		list = append(list, j)
	}
	doc := map[string]any{"servers": list}
	if h := lock.Headline(outs); h != "" {
		doc["headline"] = h
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
