package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/base/gitrepo"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// ErrBuildNeedsBaseRef is returned for BaselineBuild without a BaseRef.
var ErrBuildNeedsBaseRef = errors.New("baseline build needs a base ref")

// MissingSnapshotError is BaselineSnapshot without a base ref when the
// work tree has no committed snapshot.
type MissingSnapshotError struct{ Path string }

func (e *MissingSnapshotError) Error() string {
	return e.Path + " does not exist: run `mcp-surface snapshot` and commit it"
}

// baseline is a server's baseline as the options ask: a snapshot (nil
// for none) with its label, or, when build is set, the base to build and
// capture in a worktree.
type baseline struct {
	m     *manifest.Manifest
	label string
	build bool
}

// baselineOf finds the baseline of s short of building the base: what a
// Run needs to know before it starts the builds.
func (o *Options) baselineOf(ctx context.Context, s Server) (baseline, error) {
	if file := o.Baseline.File; file != "" {
		m, err := manifest.ReadFileContext(ctx, file, o.MaxSnapshotBytes)
		if err != nil {
			return baseline{}, err
		}
		return baseline{m: m, label: file}, nil
	}
	mode := o.Baseline.mode()
	if mode == BaselineNone {
		return baseline{}, nil
	}
	if o.BaseRef == "" {
		// No base commit: the committed snapshot in the work tree is the
		// baseline (a local run of `check`).
		if mode == BaselineBuild {
			return baseline{}, ErrBuildNeedsBaseRef
		}
		if s.Snapshot == "" {
			return baseline{}, nil
		}
		m, err := manifest.ReadFileContext(ctx, filepath.Join(o.RepoDir, s.Snapshot), o.MaxSnapshotBytes)
		if errors.Is(err, fs.ErrNotExist) {
			if mode == BaselineSnapshot {
				return baseline{}, &MissingSnapshotError{Path: s.Snapshot}
			}
			return baseline{}, nil
		}
		return baseline{m: m, label: s.Snapshot}, err
	}
	if mode != BaselineBuild && s.Snapshot != "" {
		data, err := gitrepo.ReadFile(ctx, o.RepoDir, o.BaseRef, s.Snapshot)
		if err == nil {
			m, err := manifest.FromCanonicalJSON(data)
			if err != nil {
				return baseline{}, fmt.Errorf("%s at %s: %w", s.Snapshot, o.BaseRef, err)
			}
			return baseline{m: m, label: fmt.Sprintf("%s at %s", s.Snapshot, ShortRef(o.BaseRef))}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || mode == BaselineSnapshot {
			return baseline{}, err
		}
	}
	return baseline{build: true}, nil
}

// baseWorktree checks the base out in a temporary worktree and builds it
// there; cleanup removes the worktree (also after an error).
func (o *Options) baseWorktree(ctx context.Context, j *jobs) (wt string, cleanup func(), err error) {
	o.Log("checking out the base (%s) in a temporary worktree", ShortRef(o.BaseRef))
	wt, remove, err := gitrepo.Worktree(ctx, o.RepoDir, o.BaseRef)
	cleanup = func() { _ = remove() }
	if err != nil {
		return "", func() {}, fmt.Errorf("checking out the base: %w", err)
	}
	if o.Build != "" {
		o.Log("building the base: %s", o.Build)
		if err := j.slot(func() error { return o.runBuild(ctx, wt) }); err != nil {
			return wt, cleanup, fmt.Errorf("building the base: %w", err)
		}
	}
	return wt, cleanup, nil
}

// captureBase captures s in the base's worktree wt: the base's snapshot,
// its label, and the capture (what the base's capture noticed tells the
// head's notes that are not about the pull request).
func (o *Options) captureBase(ctx context.Context, s Server, wt string, copts capture.Options) (*manifest.Manifest, string, *capture.Capture, error) {
	base := copts
	base.Probes = nil // probes judge the head only
	// The worktree is removed once every server is checked: its server
	// must be gone by then.
	base.DeferShutdown = false
	c, err := capture.Run(ctx, s.Target(o.Environ, wt), base)
	if err != nil {
		return nil, "", nil, fmt.Errorf("capturing the base: %w", err)
	}
	m, err := manifest.BuildPartial(c)
	if err != nil {
		return nil, "", nil, fmt.Errorf("building the base snapshot: %w", err)
	}
	// The label follows "base" in every report ("compared base …").
	return m, ShortRef(o.BaseRef) + " (built)", c, nil
}

// ShortRef shortens a full commit id for labels; other refs are kept.
func ShortRef(ref string) string {
	if gitrepo.IsCommitID(ref) && len(ref) > 12 {
		return ref[:12]
	}
	return ref
}

// runBuild runs the user's build command through the shell in dir; its
// output is the user's own and goes to BuildOutput.
func (o *Options) runBuild(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", o.Build)
	cmd.Dir = dir
	cmd.Env = o.Environ
	out := o.BuildOutput
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	// Stopped with everything it started when the check stops (the other
	// side failed, or an interrupt).
	inGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", o.Build, err)
	}
	return nil
}

// ReadSnapshot reads a snapshot file of at most maxBytes (0:
// manifest.DefaultMaxFileBytes), or, when no file of that name exists,
// REF:PATH from the git repository at dir (as `git show REF:PATH`).
func ReadSnapshot(ctx context.Context, dir, arg string, maxBytes int64) (*manifest.Manifest, error) {
	_, statErr := os.Stat(arg)
	if statErr == nil || !strings.Contains(arg, ":") {
		return manifest.ReadFileContext(ctx, arg, maxBytes)
	}
	ref, path, _ := strings.Cut(arg, ":")
	if ref == "" || path == "" {
		return nil, fmt.Errorf("%s: no such file, and not a REF:PATH", arg)
	}
	data, err := gitrepo.ReadFile(ctx, dir, ref, path)
	if err != nil {
		return nil, fmt.Errorf("reading %s from git: %w", arg, err)
	}
	m, err := manifest.FromCanonicalJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return m, nil
}
