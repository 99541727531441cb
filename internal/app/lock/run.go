package lock

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// Options are what reading, locking and checking the servers need.
type Options struct {
	// Root is the repository root (the workspace folder), absolute: where
	// configurations are read and commands run.
	Root string
	// Configs are the configurations to read, [FORMAT:]FILE relative to
	// Root; none means every clientconfig.DefaultFiles that exists.
	Configs []string
	// Getenv fills placeholders; Environ is the environment every server
	// command starts with (its entry's env added).
	Getenv  func(string) string
	Environ []string
	// Limits bound each capture; Revision is the protocol revision
	// requested ("" for capture.LatestRevision).
	Limits   capture.Limits
	Revision string
	// Version is this program's version (the captures' clientInfo).
	Version string
	// Log receives a progress line per server; nil for none.
	Log func(format string, args ...any)
	// Clock times the captures; nil leaves the timings zero.
	Clock func() time.Time
	// CompareReconfigured captures a server whose configuration entry
	// changed since it was locked and shows its comparison with the entry
	// (a pull request that changes the entry); without it the server is
	// only named, for a re-lock.
	CompareReconfigured bool
	// Cache, when not nil, keeps every capture by server and entry, so
	// that a second Check of the same servers (against another lock)
	// starts no server again.
	Cache map[string]*manifest.Manifest
	// Jobs bounds the captures made at once (0: the number of CPUs; 1:
	// one after the other). The lock and the outcomes are the same
	// whatever it is.
	Jobs int

	// Registries reads the packages launchers install (npx, uvx, docker
	// run ...): lock records each one's version and integrity, and
	// lock --check compares them. nil skips it, and every server that
	// launches a package says so, with NoRegistry as the reason
	// ("--no-registry").
	Registries *Registries
	NoRegistry string

	fetched map[string]fetched // prefetch's results, by cacheKey
}

func (o *Options) log(format string, args ...any) {
	if o.Log != nil {
		o.Log(format, args...)
	}
}

// ReadServers reads every configuration of o.
func ReadServers(ctx context.Context, o Options) ([]clientconfig.Server, error) {
	files, err := ConfigFiles(o)
	if err != nil {
		return nil, err
	}
	var out []clientconfig.Server
	for _, cf := range files {
		read, err := clientconfig.Read(ctx, o.Root, cf.Name, cf.Format, o.Getenv)
		if err != nil {
			return nil, err
		}
		out = append(out, read.Servers...)
	}
	return out, nil
}

// ConfigFile is a configuration to read: its name as the lock records it
// (relative to the root and slash-separated, or absolute outside it) and
// its format ("": told by the name).
type ConfigFile struct {
	Name   string
	Format clientconfig.Format
}

// ConfigFiles are the configurations o names ([FORMAT:]FILE, each once),
// else those of clientconfig.DefaultFiles that exist.
func ConfigFiles(o Options) ([]ConfigFile, error) {
	files := o.Configs
	if len(files) == 0 {
		found, err := clientconfig.Discover(o.Root)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("no client configuration in %s (looked for %s): name one", o.Root, strings.Join(clientconfig.DefaultFiles, ", "))
		}
		files = found
	}
	var out []ConfigFile
	seen := map[string]bool{}
	for _, spec := range files {
		var format clientconfig.Format
		name := spec
		if f, rest, ok := strings.Cut(spec, ":"); ok && !strings.ContainsAny(f, `/\.`) {
			pf, err := clientconfig.ParseFormat(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", spec, err)
			}
			format, name = pf, rest
		}
		if filepath.IsAbs(name) {
			if rel, err := filepath.Rel(o.Root, name); err == nil && !strings.HasPrefix(rel, "..") {
				name = rel
			}
		}
		name = filepath.ToSlash(filepath.Clean(name))
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, ConfigFile{Name: name, Format: format})
	}
	return out, nil
}

// Capture captures one declared server (it must have no Missing
// variables). Its errors never hold the server's secrets. A list the
// server advertises that fails is an error (a *capture.IncompleteError
// from check.Captures): a lock never pins an unknown list as an empty
// one, and a check never takes it for drift.
func Capture(ctx context.Context, o Options, s clientconfig.Server) (*manifest.Manifest, error) {
	if len(s.Missing) > 0 {
		return nil, fmt.Errorf("%s: set %s first", Key(s.File, s.Name), strings.Join(s.Missing, ", "))
	}
	cacheKey := cacheKey(s)
	if m, ok := o.Cache[cacheKey]; ok {
		return m, nil
	}
	if f, ok := o.fetched[cacheKey]; ok {
		if f.err == nil && o.Cache != nil {
			o.Cache[cacheKey] = f.m
		}
		return f.m, f.err
	}
	cs := check.Server{Name: Key(s.File, s.Name), Env: s.Env, Dir: s.Dir}
	switch s.Transport {
	case clientconfig.TransportStdio:
		cs.Command = append([]string{s.Command}, s.Args...)
	default:
		cs.URL, cs.SSE = s.URL, s.Transport == clientconfig.TransportSSE
		if len(s.Headers) > 0 {
			cs.Headers = http.Header{}
			for k, v := range s.Headers {
				cs.Headers.Set(k, v)
			}
		}
	}
	rev := o.Revision
	if rev == "" {
		rev = capture.LatestRevision
	}
	co := check.Options{Servers: []check.Server{cs}, Limits: o.Limits, Version: o.Version, Clock: o.Clock,
		Environ: o.Environ, DeferShutdown: true}
	caps, err := check.Captures(ctx, co, []string{rev})
	var m *manifest.Manifest
	if err == nil && len(caps) != 1 {
		err = fmt.Errorf("%d captures, want 1", len(caps))
	}
	if err == nil {
		m, err = manifest.Build(caps[0])
	}
	if err != nil {
		return nil, errors.New(Redact(err.Error(), s.Secrets))
	}
	if o.Cache != nil {
		o.Cache[cacheKey] = m
	}
	return m, nil
}

// Redact hides every secret in text.
func Redact(text string, secrets []string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	return text
}

// Matches reports whether a name given on the command line names the
// server: NAME, or FILE:NAME.
func Matches(arg string, s clientconfig.Server) bool {
	if file, name, ok := strings.Cut(arg, ":"); ok && file == s.File {
		return name == s.Name
	}
	return arg == s.Name
}

// Written is what Update did.
type Written struct {
	Lock    *Lock
	Failed  []error  // the servers whose capture failed
	Skipped []string // the servers whose variables are unset, with the variables
	// Packages say, per server that launches a package, what was pinned,
	// what floats (with the argument to write) and what was skipped.
	// Configuration and registry text: escape it.
	Packages []string
}

// Update captures the servers that names name (every one when none) and
// returns the lock with their entries replaced; the entries of other
// servers are kept from old when names are given, and dropped otherwise
// (a server no longer declared leaves the lock).
func Update(ctx context.Context, o Options, servers []clientconfig.Server, old *Lock, names []string) (*Written, error) {
	for _, n := range names {
		if !slices.ContainsFunc(servers, func(s clientconfig.Server) bool { return Matches(n, s) }) {
			declared := make([]string, 0, len(servers))
			for _, s := range servers {
				declared = append(declared, s.Name)
			}
			return nil, fmt.Errorf("%s: no configuration declares that server%s", n, frontend.DidYouMean(n, declared))
		}
	}
	w := &Written{Lock: &Lock{}}
	if old != nil && len(names) > 0 {
		w.Lock.Entries = slices.Clone(old.Entries)
	}
	picked := func(s clientconfig.Server) bool {
		return len(names) == 0 || slices.ContainsFunc(names, func(n string) bool { return Matches(n, s) })
	}
	o.prefetch(ctx, servers, picked)
	for _, s := range servers {
		if !picked(s) {
			continue
		}
		key := Key(s.File, s.Name)
		if len(s.Missing) > 0 {
			w.Skipped = append(w.Skipped, key+": skipped: set "+strings.Join(s.Missing, ", "))
			continue
		}
		m, err := o.captureLogged(ctx, s)
		if err != nil {
			w.Failed = append(w.Failed, fmt.Errorf("%s: %w", key, err))
			continue
		}
		e := Entry{Config: s.File, Name: s.Name, EntryHash: s.EntryHash, Transport: string(s.Transport), Launch: s.Shown, Snapshot: m}
		if spec, ok := launchSpec(s); ok {
			res, skipped := o.resolve(ctx, s, spec)
			switch {
			case skipped != "":
				w.Packages = append(w.Packages, key+": "+skipped)
			case res.Package != nil:
				e.Package = res.Package
				w.Packages = append(w.Packages, fmt.Sprintf("%s: pinned %s %s %s", key, res.Package.Name, res.Package.Version, res.Package.Digest()))
			}
			if f, ok := floating(spec, res); ok {
				w.Packages = append(w.Packages, key+": "+f.Message+" ("+f.Rule+")")
			}
		}
		w.Lock.Put(e)
	}
	return w, ctx.Err()
}

// Checked is what Check found.
type Checked struct {
	Outcomes []*Outcome
	Failed   []error // the servers whose capture failed: not judged
}

// Skipped counts the servers not checked for unset variables.
func (c *Checked) Skipped() int {
	n := 0
	for _, o := range c.Outcomes {
		if o.Status == StatusSkipped {
			n++
		}
	}
	return n
}

// Fails reports whether any server changed.
func (c *Checked) Fails() bool {
	return slices.ContainsFunc(c.Outcomes, func(o *Outcome) bool { return o.Fails() })
}

// Check compares every declared server with its entry in the lock: a
// server with unset variables is skipped, one the lock lacks is unlocked
// (captured, to show what it adds),
// one whose configuration entry changed is reconfigured (not captured:
// it is another server now), the others are captured and compared; an
// entry no configuration declares any more is gone. Outcomes keep the
// order of the servers, then the lock's.
func Check(ctx context.Context, o Options, servers []clientconfig.Server, old *Lock) (*Checked, error) {
	c := &Checked{}
	o.prefetch(ctx, servers, func(s clientconfig.Server) bool {
		entry, locked := old.Find(s.File, s.Name)
		return !locked || entry.EntryHash == s.EntryHash || o.CompareReconfigured
	})
	declared := map[[2]string]bool{}
	for _, s := range servers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		declared[[2]string{s.File, s.Name}] = true
		entry, locked := old.Find(s.File, s.Name)
		out := &Outcome{Config: s.File, Name: s.Name, Launch: s.Shown}
		switch {
		case len(s.Missing) > 0:
			out.Status, out.Missing = StatusSkipped, s.Missing
		case !locked:
			head, err := o.captureLogged(ctx, s)
			if err != nil {
				c.Failed = append(c.Failed, fmt.Errorf("%s: %w", out.Key(), err))
				continue
			}
			out = Added(s.File, s.Name, head, o.Version)
			out.Launch = s.Shown
		case entry.EntryHash != s.EntryHash && !o.CompareReconfigured:
			out.Status = StatusReconfigured
			out.EntryChange = EntryChange(entry.Launch, s.Shown)
		default:
			head, err := o.captureLogged(ctx, s)
			if err != nil {
				c.Failed = append(c.Failed, fmt.Errorf("%s: %w", out.Key(), err))
				continue
			}
			out = Compare(entry, head, o.Version)
			out.Launch = s.Shown
			if entry.EntryHash != s.EntryHash {
				out.Status = StatusReconfigured
				out.EntryChange = EntryChange(entry.Launch, s.Shown)
			}
		}
		if spec, ok := launchSpec(s); ok && out.Status != StatusSkipped {
			res, skipped := o.resolve(ctx, s, spec)
			out.PackageNote = skipped
			var pinned *Package
			if locked {
				pinned = entry.Package
			}
			out.Section.Findings = append(out.Section.Findings, pinFindings(spec, res, pinned)...)
		}
		c.Outcomes = append(c.Outcomes, out)
	}
	for _, e := range old.Entries {
		if !declared[[2]string{e.Config, e.Name}] {
			c.Outcomes = append(c.Outcomes, &Outcome{Config: e.Config, Name: e.Name, Launch: e.Launch, Status: StatusGone})
		}
	}
	shadowing(c, old)
	return c, nil
}
