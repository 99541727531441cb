package action

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/config"
)

// pipelineEnv is env for the commands the pipeline starts (the build, the
// server) and for what the configuration expands (${VAR}): the runner's
// credentials, the inputs and anything holding the token are withheld
// (actionenv.Scrub), but for the pass-env input's names, so the pull
// request's code never receives them through us.
func (a *actionRun) pipelineEnv() *Env {
	scrub := actionenv.Scrub{Secrets: []string{a.cfg.Token}, Pass: a.cfg.PassEnv}
	e := *a.env
	full := a.env.Environ
	e.Environ = func() []string {
		var environ []string
		if full != nil {
			environ = full()
		}
		return scrub.Environ(environ)
	}
	e.Getenv = scrub.Getenv(a.env.Getenv)
	return &e
}

// environ is the whole environment, a copy; nil without one.
func (e *Env) environ() []string {
	if e.Environ == nil {
		return nil
	}
	return slices.Clone(e.Environ())
}

// servers are the servers to check: the command or url input, else the
// servers: list of the configuration (one of them with input server).
func (a *actionRun) servers(cfg *config.Config, cfgPath, repo, relWork string) ([]check.Server, error) {
	c := a.cfg
	snapshot := ""
	if c.Snapshot != "" {
		snapshot = filepath.ToSlash(filepath.Clean(filepath.Join(relWork, c.Snapshot)))
	}
	switch {
	case c.Command != "":
		s := check.Server{Name: c.Server, Dir: relWork, Snapshot: snapshot}
		if c.Shell {
			s.Command, s.Shell = []string{c.Command}, true
		} else {
			argv, err := cmdline.Split(c.Command)
			if err != nil {
				return nil, usagef("input command: %v", err)
			}
			s.Command = argv
		}
		return []check.Server{s}, nil
	case c.URL != "":
		h, err := check.ParseHeaders(c.Headers, a.env.Getenv)
		if err != nil {
			// Worded as the command line's, which the input mirrors.
			return nil, usagef("--header %v", err)
		}
		// The headers after ${VAR} expansion.
		if t, ok := (check.Server{URL: c.URL, Headers: h, SSE: c.SSE}).Target(a.env.environ(), "").(capture.HTTP); ok {
			h = t.Headers
		} else {
			h = nil
		}
		for _, vs := range h {
			a.ae.Mask(vs...) // values after ${VAR} expansion
		}
		return []check.Server{{Name: c.Server, URL: c.URL, SSE: c.SSE, Headers: h, Dir: relWork, Snapshot: snapshot}}, nil
	case cfg != nil && len(cfg.Servers) > 0:
		all, err := check.FromConfig(cfg, cfgPath, repo, a.pipelineEnv().Getenv)
		if err != nil {
			return nil, err
		}
		// Secrets from the configuration (header values, probe arguments
		// taken from the environment) are masked before anything runs.
		for _, s := range all {
			for _, vs := range s.Headers {
				a.ae.Mask(vs...)
			}
			a.ae.Mask(s.Secrets...)
		}
		if c.Server == "" {
			return all, nil
		}
		var names []string
		for _, s := range all {
			if s.Name == c.Server {
				return []check.Server{s}, nil
			}
			names = append(names, s.Name)
		}
		return nil, usagef("input server %q: %s lists %s", c.Server, filepath.Base(cfgPath), strings.Join(names, ", "))
	}
	return nil, usagef("no server to check: set input command (or url), or list servers: in %s", config.DefaultFile)
}

// baseRef is the commit to compare with: the base-ref input, else the
// pull request's base, else a push's previous commit; "" means the
// committed snapshot in the work tree. A commit missing from a shallow
// checkout is fetched.
func (a *actionRun) baseRef(ctx context.Context, repo string) (string, error) {
	if ref := a.cfg.BaseRef; ref != "" {
		if gitrepo.IsCommitID(ref) {
			if err := a.ensureCommit(ctx, repo, ref); err != nil {
				return "", fmt.Errorf("input base-ref %s: %w", ref, err)
			}
			return ref, nil
		}
		if sha, ok := gitrepo.ResolveBranch(ctx, repo, ref); ok {
			return sha, nil
		}
		return "", fmt.Errorf("input base-ref %q names no commit of the checkout (nor origin/%s): check out with fetch-depth: 0, or give a commit id, which is fetched", ref, ref)
	}
	if a.cfg.Baseline.Mode == check.BaselineNone || (a.event == nil) {
		return "", nil
	}
	switch {
	case a.event.PullRequest != nil:
		sha := a.event.PullRequest.Base.SHA
		if err := a.ensureCommit(ctx, repo, sha); err != nil {
			return "", fmt.Errorf("the pull request's base commit %s: %w", sha, err)
		}
		return sha, nil
	case a.event.Push != nil:
		sha, ok := a.event.Push.Previous()
		if !ok {
			a.logger("the push created the branch: comparing with the committed snapshot")
			return "", nil
		}
		if err := a.ensureCommit(ctx, repo, sha); err != nil {
			a.warn(fmt.Sprintf("the push's previous commit %s is not available (%v): comparing with the committed snapshot instead", check.ShortRef(sha), err))
			return "", nil
		}
		return sha, nil
	}
	return "", nil
}

// ensureCommit fetches sha from origin when the checkout lacks it.
func (a *actionRun) ensureCommit(ctx context.Context, repo, sha string) error {
	return gitrepo.EnsureCommit(ctx, repo, sha, func(sha string) { a.logger("fetching %s (not in the checkout)", check.ShortRef(sha)) })
}

// shellQuote quotes a word for the build's shell.
var shellQuote = cmdline.Quote
