package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcp-surface/mcp-surface/internal/app/actionenv"
	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/internal/app/github"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// lockRun is a run with the lock input: the servers the client
// configurations declare are checked against the lock, for the team whose
// agents use them. On a pull request the comparison is with the lock at
// the base, and it is commented when the pull request changes a client
// configuration or the lock; on any other event (schedule,
// workflow_dispatch, push) drift files, updates or closes one issue.
// The exit code is lock --check's: 1 when a server does not match the
// committed lock.
func (a *actionRun) lockRun(ctx context.Context) (int, error) {
	c := a.cfg
	workDir := filepath.Join(a.ws, c.WorkingDirectory)
	repo, root, rel, err := gitrepo.Within(ctx, workDir)
	if err != nil {
		return a.fail(err)
	}
	env := a.pipelineEnv()
	o := lock.Options{
		Root: root, Configs: c.LockConfigs, Getenv: env.Getenv, Environ: env.environ(),
		Limits:   capture.Limits{StartupTimeout: c.StartupTimeout, ShutdownGrace: c.ShutdownGrace},
		Revision: c.ProtocolVersion, Version: version, Log: a.logger, Clock: a.env.Clock,
		Cache:      map[string]*manifest.Manifest{},
		Registries: &lock.Registries{Timeout: capture.DefaultLimits.RequestTimeout},
	}
	servers, err := lock.ReadServers(ctx, o)
	if err != nil {
		return a.fail(err)
	}
	for _, s := range servers {
		for _, v := range s.Secrets {
			a.ae.Mask(v)
		}
	}
	head, err := lock.ReadFile(ctx, filepath.Join(root, c.Lock), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return a.fail(usagef("input lock %q: no such file; write it with `mcp-surface lock`, review it and commit it", c.Lock))
	} else if err != nil {
		return a.fail(err)
	}
	defer capture.WaitShutdowns()
	checked, err := lock.Check(ctx, o, servers, head)
	if err != nil {
		return a.fail(err)
	}
	code := 0
	if checked.Fails() {
		code = 1
	}
	for _, e := range checked.Failed {
		a.ae.Error(a.logf("%v", e), actionenv.Annotation{})
	}
	if pr := a.pullRequest(); pr != nil {
		return a.lockPullRequest(ctx, o, servers, repo, filepath.ToSlash(filepath.Join(rel, c.Lock)), checked, code)
	}
	md := lock.Markdown(checked.Outcomes, c.Lock)
	a.appendSummary(md + a.notesMarkdown())
	a.setLockOutputs(code)
	if len(checked.Failed) > 0 || checked.Skipped() > 0 {
		// A check that could not finish is no verdict: the issue is left
		// as it is, neither filed from half the servers nor closed.
		return a.fail(fmt.Errorf("the lock check is incomplete: %d server(s) failed, %d skipped for unset variables", len(checked.Failed), checked.Skipped()))
	}
	client, owner, name, err := a.lockClient()
	if err != nil {
		a.warn(err.Error())
		return code, nil
	}
	marker := github.IssueMarker(filepath.ToSlash(filepath.Join(rel, c.Lock)))
	if code == 1 {
		changed := 0
		for _, o := range checked.Outcomes {
			if o.Fails() {
				changed++
			}
		}
		title := fmt.Sprintf("mcp-surface: %d server(s) your agents use changed", changed)
		if _, f, ok := lock.Worst(checked.Outcomes); ok && lock.ClassOf(&f) <= lock.ClassBreak {
			// The worst leads the title: a poisoned tool is not "a change".
			title = "mcp-surface: " + issueTitle(lock.Headline(checked.Outcomes))
		}
		is, created, err := client.UpsertIssue(ctx, owner, name, marker, title, md, c.CommentAuthor)
		switch {
		case err != nil:
			a.warn("the drift issue was not updated: " + err.Error())
		case created:
			a.logger("filed issue #%d: %s", is.Number, is.URL)
		default:
			a.logger("updated issue #%d: %s", is.Number, is.URL)
		}
		return code, nil
	}
	is, err := client.CloseIssue(ctx, owner, name, marker, "Every locked server matches `"+c.Lock+"` again: the drift is gone or was accepted.", c.CommentAuthor)
	switch {
	case err != nil:
		a.warn("the drift issue was not closed: " + err.Error())
	case is != nil:
		a.logger("closed issue #%d: no drift", is.Number)
	}
	return code, nil
}

// lockPullRequest comments what a pull request's client configurations
// change for the agents: the servers compared with the lock at the base
// (an added server with everything it adds, a changed one with its
// entry, a removed one). Nothing is commented when the pull request
// changes neither a configuration nor the lock, and an existing comment
// is kept up to date. code is the verdict against the lock at the head.
func (a *actionRun) lockPullRequest(ctx context.Context, o lock.Options, servers []clientconfig.Server, repo, lockRel string, checked *lock.Checked, code int) (int, error) {
	pr := a.pullRequest()
	base := &lock.Lock{}
	if data, err := gitrepo.ReadFile(ctx, repo, pr.Base.SHA, lockRel); err == nil {
		if base, err = lock.Decode(data); err != nil {
			return a.fail(fmt.Errorf("the lock at the base (%s): %w", pr.Base.SHA, err))
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return a.fail(fmt.Errorf("reading the lock at the base: %w", err))
	}
	changed, err := a.configsChanged(ctx, repo, pr.Base.SHA, o.Root, servers, lockRel)
	if err != nil {
		return a.fail(err)
	}
	o.CompareReconfigured = true
	against, err := lock.Check(ctx, o, servers, base)
	if err != nil {
		return a.fail(err)
	}
	md := lock.Markdown(against.Outcomes, a.cfg.Lock)
	if code == 1 {
		md += "\n**The committed lock does not match these servers:** run `mcp-surface lock --update` and commit `" + a.cfg.Lock + "` once the changes are reviewed.\n"
	}
	a.appendSummary(md + a.notesMarkdown())
	a.setLockOutputs(code)
	if len(checked.Failed) > 0 || len(against.Failed) > 0 {
		return a.fail(fmt.Errorf("the lock check is incomplete: %d server(s) failed", len(checked.Failed)+len(against.Failed)))
	}
	client, owner, name, err := a.lockClient()
	if err != nil {
		a.warn(err.Error())
		return code, nil
	}
	marker := github.StickyMarker("lock:" + lockRel)
	if !changed {
		// Keep an earlier comment true; do not start one.
		if found, err := client.FindStickyComment(ctx, owner, name, pr.Number, marker, a.cfg.CommentAuthor); err != nil || found == nil {
			a.logger("no client configuration changed: no comment")
			return code, nil
		}
	}
	if _, err := client.UpsertStickyComment(ctx, owner, name, pr.Number, marker, md, a.cfg.CommentAuthor); err != nil {
		a.warn("the pull request comment was not updated: " + err.Error())
	}
	return code, nil
}

// configsChanged reports whether the pull request changed the lock or a
// client configuration (one it reads now, or a default one at the base).
func (a *actionRun) configsChanged(ctx context.Context, repo, baseSHA, root string, servers []clientconfig.Server, lockRel string) (bool, error) {
	rel, err := filepath.Rel(repo, root)
	if err != nil {
		return false, err
	}
	files := map[string]bool{lockRel: true}
	for _, s := range servers {
		files[filepath.ToSlash(filepath.Join(rel, s.File))] = true
	}
	for _, f := range clientconfig.DefaultFiles {
		files[filepath.ToSlash(filepath.Join(rel, f))] = true
	}
	for f := range files {
		was, err := gitrepo.ReadFile(ctx, repo, baseSHA, f)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("reading %s at the base: %w", f, err)
		}
		now, nerr := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f)))
		if nerr != nil && !errors.Is(nerr, fs.ErrNotExist) {
			return false, nerr
		}
		if (err == nil) != (nerr == nil) || !bytes.Equal(was, now) {
			return true, nil
		}
	}
	return false, nil
}

// lockClient is githubClient with the repository's owner and name.
func (a *actionRun) lockClient() (*github.Client, string, string, error) {
	c, err := a.githubClient()
	return c, a.gctx.Owner, a.gctx.Repo, err
}

// setLockOutputs sets the verdict and the exit code of a lock run.
func (a *actionRun) setLockOutputs(code int) {
	a.setOutput("verdict", map[bool]string{true: "fail", false: "pass"}[code == 1])
	a.setOutput("exit-code", fmt.Sprint(code))
}

// issueTitle bounds a headline for an issue title and keeps it to one
// line of visible text (GitHub renders titles as plain text, but a
// control or invisible character would still hide part of it).
func issueTitle(h string) string {
	h = textscan.Visible(h, textscan.Escapes)
	if r := []rune(h); len(r) > 200 {
		h = string(r[:199]) + "…"
	}
	return h
}
