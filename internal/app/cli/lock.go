package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/clientconfig"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/lock"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

const lockUsage = `[--check | --update [SERVER...]] [--config-file [FORMAT:]FILE]... [--lock FILE]

For teams whose agents use MCP servers that others ship: captures every
server the repository's client configurations declare (.vscode/mcp.json,
.mcp.json, .cursor/mcp.json, .gemini/settings.json; claude_desktop_config.json
when named with --config-file) and pins each surface in the lock file.

  lock                  capture every declared server and write the lock
  lock --check          capture again and compare with the lock: exit 1 on
                        any change (drift), a changed configuration entry,
                        or a server added to or removed from a configuration
  lock --update [NAME]  accept the changes: re-capture the named servers
                        (NAME, or FILE:NAME; every server when none is named)

Commands run from the repository root, with the configuration's env, as the
clients run them. Placeholders (${env:NAME}, ${VAR}, $VAR ...) are filled
from the environment and never printed; VS Code's ${input:ID} is read from
MCP_SURFACE_INPUT_<ID> (upper case, other characters as _). A server whose
variables are unset is not started: it is named with the variable, and the
run exits 2 unless --skip-missing.

Exit status: 0 nothing changed; 1 a change; 2 the tool could not do its job
(a configuration could not be read, a server failed, variables are missing).`

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
}

func (lf *lockFlags) register(fs *flag.FlagSet) {
	fs.Var(&lf.configs, "config-file", "a client configuration `[FORMAT:]FILE` to read (repeatable; default: each of "+strings.Join(clientconfig.DefaultFiles, ", ")+" that exists); FORMAT is one of vscode, claude-code, cursor, gemini, claude-desktop")
	fs.StringVar(&lf.lockFile, "lock", lock.DefaultFile, "the lock `file`, relative to the root")
	fs.StringVar(&lf.root, "root", "", "the repository root (the workspace folder): where configurations are found and commands run (default: the git work tree's top, else the current directory)")
	fs.BoolVar(&lf.check, "check", false, "do not write: compare every server with its lock entry")
	fs.BoolVar(&lf.update, "update", false, "re-capture the servers named after the flags (every one when none is named) and write the lock")
	fs.BoolVar(&lf.skipMissing, "skip-missing", false, "a server whose variables are unset is named and skipped without failing the run")
	fs.StringVar(&lf.format, "format", "text", "output format of --check: text|json")
	fs.StringVar(&lf.revision, "protocol-version", capture.LatestRevision, "protocol `revision` to request")
	fs.DurationVar(&lf.limits.StartupTimeout, "startup-timeout", capture.DefaultLimits.StartupTimeout, "bound on launch plus handshake")
	fs.DurationVar(&lf.limits.RequestTimeout, "request-timeout", capture.DefaultLimits.RequestTimeout, "bound on each request after the handshake")
	fs.Int64Var(&lf.limits.MaxBytes, "max-bytes", capture.DefaultLimits.MaxBytes, "bound on the total `bytes` received from each server")
	fs.IntVar(&lf.limits.MaxPages, "max-pages", capture.DefaultLimits.MaxPages, "bound on the pages read per list")
	fs.DurationVar(&lf.limits.ShutdownGrace, "shutdown-grace", capture.DefaultLimits.ShutdownGrace, "how long a stdio server is given to exit after its stdin closes, and again after SIGTERM")
}

func runLock(ctx context.Context, env *Env, args []string) (int, error) {
	flags := newFlagSet("lock", lockUsage, env.Stderr)
	var lf lockFlags
	lf.register(flags)
	if err := parseFlags(flags, args); err != nil {
		return 0, err
	}
	names := flags.Args()
	switch {
	case lf.check && lf.update:
		return 0, usagef("--check and --update exclude each other")
	case len(names) > 0 && !lf.update:
		return 0, usagef("unexpected argument %q: only --update takes server names", names[0])
	case lf.format != "text" && lf.format != "json":
		return 0, usagef("unknown --format %q; use text or json", lf.format)
	case !slices.Contains(capture.Revisions, lf.revision):
		return 0, usagef("--protocol-version %q: use one of %s", lf.revision, strings.Join(capture.Revisions, ", "))
	case lf.limits.MaxPages < 1 || lf.limits.MaxBytes < 1 || lf.limits.StartupTimeout <= 0 || lf.limits.RequestTimeout <= 0 || lf.limits.ShutdownGrace <= 0:
		return 0, usagef("--max-pages, --max-bytes, --startup-timeout, --request-timeout and --shutdown-grace must be positive")
	}
	root, err := lockRoot(ctx, lf.root)
	if err != nil {
		return 0, err
	}
	servers, err := lf.readConfigs(ctx, env, root)
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
		return lf.runCheck(ctx, env, servers, old)
	}
	return lf.write(ctx, env, servers, old, names, lockPath)
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

// readConfigs reads --config-file, or every default file that exists.
func (lf *lockFlags) readConfigs(ctx context.Context, env *Env, root string) ([]clientconfig.Server, error) {
	files := []string(lf.configs)
	if len(files) == 0 {
		found, err := clientconfig.Discover(root)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("no client configuration in %s (looked for %s): name one with --config-file", root, strings.Join(clientconfig.DefaultFiles, ", "))
		}
		files = found
	}
	var out []clientconfig.Server
	seen := map[string]bool{}
	for _, spec := range files {
		var format clientconfig.Format
		name := spec
		if f, rest, ok := strings.Cut(spec, ":"); ok && !strings.ContainsAny(f, `/\.`) {
			pf, err := clientconfig.ParseFormat(f)
			if err != nil {
				return nil, usagef("--config-file %s: %v", spec, err)
			}
			format, name = pf, rest
		}
		if filepath.IsAbs(name) {
			if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
				name = rel
			}
		}
		name = filepath.ToSlash(filepath.Clean(name))
		if seen[name] {
			continue
		}
		seen[name] = true
		cf, err := clientconfig.Read(ctx, root, name, format, env.Getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, cf.Servers...)
	}
	return out, nil
}

// lockServer is one declared server with its capture.
type lockServer struct {
	cfg  clientconfig.Server
	head *manifest.Manifest
	err  error
}

func (l *lockServer) key() string { return lock.Key(l.cfg.File, l.cfg.Name) }

// capture captures a server, its errors with the server's secrets hidden.
func (lf *lockFlags) capture(ctx context.Context, env *Env, s *lockServer) {
	cs := check.Server{Name: s.key(), Env: s.cfg.Env, Dir: s.cfg.Dir}
	switch s.cfg.Transport {
	case clientconfig.TransportStdio:
		cs.Command = append([]string{s.cfg.Command}, s.cfg.Args...)
	default:
		cs.URL, cs.SSE = s.cfg.URL, s.cfg.Transport == clientconfig.TransportSSE
		if len(s.cfg.Headers) > 0 {
			cs.Headers = http.Header{}
			for k, v := range s.cfg.Headers {
				cs.Headers.Set(k, v)
			}
		}
	}
	o := check.Options{Servers: []check.Server{cs}, Limits: lf.limits, Version: Version, Clock: time.Now,
		Environ: serverEnv(env, nil), DeferShutdown: true}
	caps, err := check.Captures(ctx, o, []string{lf.revision})
	if err == nil && len(caps) != 1 {
		err = fmt.Errorf("capturing %s: %d captures, want 1", s.key(), len(caps))
	}
	if err == nil {
		s.head, err = manifest.Build(caps[0])
	}
	if err != nil {
		s.err = errors.New(redact(err.Error(), s.cfg.Secrets))
	}
}

// redact hides every secret in text.
func redact(text string, secrets []string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	return text
}

// matches reports whether an --update argument names the server: NAME,
// or FILE:NAME.
func matches(arg string, s clientconfig.Server) bool {
	if file, name, ok := strings.Cut(arg, ":"); ok && file == s.File {
		return name == s.Name
	}
	return arg == s.Name
}

// write is `lock` and `lock --update`.
func (lf *lockFlags) write(ctx context.Context, env *Env, servers []clientconfig.Server, old *lock.Lock, names []string, lockPath string) (int, error) {
	for _, n := range names {
		if !slices.ContainsFunc(servers, func(s clientconfig.Server) bool { return matches(n, s) }) {
			return 0, usagef("--update %s: no configuration declares that server", n)
		}
	}
	next := &lock.Lock{}
	if old != nil && len(names) > 0 {
		next.Entries = slices.Clone(old.Entries)
	}
	failed, skipped := 0, 0
	for _, s := range servers {
		if len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return matches(n, s) }) {
			continue
		}
		ls := &lockServer{cfg: s}
		if len(s.Missing) > 0 {
			skipped++
			fmt.Fprintln(env.Stderr, logf("%s: skipped: set %s (the server is never started with a blank value)", ls.key(), strings.Join(s.Missing, ", ")))
			continue
		}
		fmt.Fprintln(env.Stderr, logf("capturing %s: %s", ls.key(), s.Shown))
		lf.capture(ctx, env, ls)
		if ls.err != nil {
			failed++
			fmt.Fprintln(env.Stderr, logf("%s: %v", ls.key(), ls.err))
			continue
		}
		next.Put(lock.Entry{Config: s.File, Name: s.Name, EntryHash: s.EntryHash, Transport: string(s.Transport), Launch: s.Shown, Snapshot: ls.head})
	}
	if failed > 0 || skipped > 0 && !lf.skipMissing {
		return ExitFailure, fmt.Errorf("the lock was not written: %d server(s) failed, %d skipped for unset variables%s", failed, skipped,
			map[bool]string{true: " (pass --skip-missing to lock the others)", false: ""}[failed == 0])
	}
	if err := lock.WriteFile(ctx, lockPath, next); err != nil {
		return 0, err
	}
	fmt.Fprintln(env.Stderr, logf("wrote %s: %d server(s); review and commit it", lf.lockFile, len(next.Entries)))
	return ExitOK, nil
}

// runCheck is `lock --check`.
func (lf *lockFlags) runCheck(ctx context.Context, env *Env, servers []clientconfig.Server, old *lock.Lock) (int, error) {
	var outs []*lock.Outcome
	var errs []string
	declared := map[[2]string]bool{}
	skipped := 0
	for _, s := range servers {
		declared[[2]string{s.File, s.Name}] = true
		ls := &lockServer{cfg: s}
		entry, locked := old.Find(s.File, s.Name)
		switch {
		case len(s.Missing) > 0:
			skipped++
			outs = append(outs, &lock.Outcome{Config: s.File, Name: s.Name, Status: lock.StatusSkipped, Missing: s.Missing})
		case !locked:
			outs = append(outs, &lock.Outcome{Config: s.File, Name: s.Name, Status: lock.StatusUnlocked})
		case entry.EntryHash != s.EntryHash:
			outs = append(outs, &lock.Outcome{Config: s.File, Name: s.Name, Status: lock.StatusReconfigured})
		default:
			fmt.Fprintln(env.Stderr, logf("capturing %s: %s", ls.key(), s.Shown))
			if lf.capture(ctx, env, ls); ls.err != nil {
				errs = append(errs, logf("%s: %v", ls.key(), ls.err))
				continue
			}
			outs = append(outs, lock.Compare(entry, ls.head, Version))
		}
	}
	for _, e := range old.Entries {
		if !declared[[2]string{e.Config, e.Name}] {
			outs = append(outs, &lock.Outcome{Config: e.Config, Name: e.Name, Status: lock.StatusGone})
		}
	}
	var err error
	if lf.format == "json" {
		err = writeLockJSON(env.Stdout, outs)
	} else {
		err = writeLockText(env.Stdout, outs)
	}
	if err != nil {
		return 0, err
	}
	for _, e := range errs {
		fmt.Fprintln(env.Stderr, e)
	}
	if len(errs) > 0 || skipped > 0 && !lf.skipMissing {
		return ExitFailure, fmt.Errorf("the check is incomplete: %d server(s) failed, %d skipped for unset variables", len(errs), skipped)
	}
	if slices.ContainsFunc(outs, func(o *lock.Outcome) bool { return o.Status.Fails() }) {
		return ExitFindings, nil
	}
	return ExitOK, nil
}

// lockAdvice is what to do about a status.
func lockAdvice(o *lock.Outcome) string {
	arg := o.Config + ":" + o.Name
	switch o.Status {
	case lock.StatusUnchanged:
		return "unchanged"
	case lock.StatusDrifted:
		return "drifted: its surface changed under the same configuration; review the changes, then accept them with `mcp-surface lock --update " + arg + "`"
	case lock.StatusReconfigured:
		return "its configuration entry changed since it was locked (command, arguments, URL or headers): re-lock it with `mcp-surface lock --update " + arg + "`"
	case lock.StatusUnlocked:
		return "declared but not locked: lock it with `mcp-surface lock --update " + arg + "`"
	case lock.StatusGone:
		return "locked but no longer declared: drop it with `mcp-surface lock --update`"
	case lock.StatusSkipped:
		return "not checked: set " + strings.Join(o.Missing, ", ")
	}
	return string(o.Status)
}

func writeLockText(w io.Writer, outs []*lock.Outcome) error {
	changed := 0
	for _, o := range outs {
		if o.Status.Fails() {
			changed++
		}
	}
	fmt.Fprintf(w, "mcp-surface lock --check: %d server(s), %d changed\n", len(outs), changed)
	for _, o := range outs {
		mark := map[bool]string{true: "✗", false: "✓"}[o.Status.Fails()]
		if o.Status == lock.StatusSkipped {
			mark = "!"
		}
		fmt.Fprintln(w, logf("%s %s: %s", mark, o.Key(), lockAdvice(o)))
		if o.Status != lock.StatusDrifted {
			continue
		}
		text, err := report.RenderBytes("text", &report.Report{Version: Version, Servers: []report.Section{o.Section}}, report.Options{ShowInfo: true})
		if err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
			fmt.Fprintln(w, "    "+line)
		}
	}
	return nil
}

// lockJSON is --format json of --check: one object per server.
type lockJSON struct {
	Config   string            `json:"config"`
	Name     string            `json:"name"`
	Status   lock.Status       `json:"status"`
	Missing  []string          `json:"missing,omitempty"`
	Findings []finding.Finding `json:"findings"`
}

func writeLockJSON(w io.Writer, outs []*lock.Outcome) error {
	list := []lockJSON{}
	for _, o := range outs {
		j := lockJSON{Config: o.Config, Name: o.Name, Status: o.Status, Missing: o.Missing, Findings: o.Section.Changes}
		if j.Findings == nil {
			j.Findings = []finding.Finding{}
		}
		list = append(list, j)
	}
	b, err := json.MarshalIndent(map[string]any{"servers": list}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
