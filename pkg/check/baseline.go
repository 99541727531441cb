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

// baselineCapture returns the base snapshot as the options ask (nil for
// none) and its label, with the capture of a base built and captured in a worktree (nil for a
// snapshot): what the base's capture noticed tells the head's notes that
// are not about the pull request.
func (o *Options) baselineCapture(ctx context.Context, s Server, copts capture.Options) (*manifest.Manifest, string, *capture.Capture, error) {
	mode := o.Baseline
	if mode == "" {
		mode = BaselineAuto
	}
	switch mode {
	case BaselineNone:
		return nil, "", nil, nil
	case BaselineAuto, BaselineSnapshot, BaselineBuild:
	default:
		m, err := manifest.ReadFileContext(ctx, mode, o.MaxSnapshotBytes)
		if err != nil {
			return nil, "", nil, err
		}
		return m, mode, nil, nil
	}
	if o.BaseRef == "" {
		// No base commit: the committed snapshot in the work tree is the
		// baseline (a local run of `check`).
		if mode == BaselineBuild {
			return nil, "", nil, ErrBuildNeedsBaseRef
		}
		if s.Snapshot == "" {
			return nil, "", nil, nil
		}
		m, err := manifest.ReadFileContext(ctx, filepath.Join(o.RepoDir, s.Snapshot), o.MaxSnapshotBytes)
		if errors.Is(err, fs.ErrNotExist) {
			if mode == BaselineSnapshot {
				return nil, "", nil, &MissingSnapshotError{Path: s.Snapshot}
			}
			return nil, "", nil, nil
		}
		return m, s.Snapshot, nil, err
	}
	if mode != BaselineBuild && s.Snapshot != "" {
		data, err := gitrepo.ReadFile(ctx, o.RepoDir, o.BaseRef, s.Snapshot)
		if err == nil {
			m, err := manifest.FromCanonicalJSON(data)
			if err != nil {
				return nil, "", nil, fmt.Errorf("%s at %s: %w", s.Snapshot, o.BaseRef, err)
			}
			return m, fmt.Sprintf("%s at %s", s.Snapshot, ShortRef(o.BaseRef)), nil, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || mode == BaselineSnapshot {
			return nil, "", nil, err
		}
	}
	// Build and capture the base in a temporary worktree.
	o.Log("capturing the base (%s) in a temporary worktree", ShortRef(o.BaseRef))
	wt, cleanup, err := gitrepo.Worktree(ctx, o.RepoDir, o.BaseRef)
	if err != nil {
		return nil, "", nil, err
	}
	defer cleanup()
	if o.Build != "" {
		if err := o.runBuild(ctx, wt); err != nil {
			return nil, "", nil, fmt.Errorf("building the base: %w", err)
		}
	}
	base := copts
	base.Probes = nil // probes judge the head only
	// The worktree is removed on return: its server must be gone by then.
	base.DeferShutdown = false
	c, err := capture.Run(ctx, s.Target(o.Environ, wt), base)
	if err != nil {
		return nil, "", nil, fmt.Errorf("capturing the base: %w", err)
	}
	m, err := manifest.Build(c)
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
