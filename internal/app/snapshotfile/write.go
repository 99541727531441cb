package snapshotfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Streams are where the snapshot commands write: a snapshot written to
// frontend.StdoutPath and the verdict of a check go to Stdout, the rest
// to Stderr.
type Streams struct {
	Stdout, Stderr io.Writer
}

// Options say where a server's captures go and how.
type Options struct {
	// Path is the snapshot file (frontend.StdoutPath for stdout);
	// Several means one file per revision (manifest.RevisionPath).
	Path    string
	Several bool
	// Partial (capture --partial) builds the snapshot of a capture whose
	// list failed, marked partial.
	Partial bool
	// Verify compares the captures with the files instead of writing
	// them (snapshot --check).
	Verify bool
	// MaxBytes bounds each snapshot file read (0: the default).
	MaxBytes int64
	// Version is this binary's, for the diff engine's report.
	Version string
	Hints   Hints
}

// Write streams a snapshot to path, or to stdout for
// frontend.StdoutPath: a large one is never all in memory.
func Write(ctx context.Context, stdout io.Writer, path string, m *manifest.Manifest) error {
	if path == frontend.StdoutPath {
		return manifest.EncodeTo(stdout, m)
	}
	return manifest.WriteFileContext(ctx, path, m)
}

// build builds the snapshot of c and reports what the capture noticed:
// the shutdown overlapped the build, and its notes come with the rest.
func build(w Streams, c *capture.Capture, partial bool) (*manifest.Manifest, error) {
	b := manifest.Build
	if partial {
		b = manifest.BuildPartial
	}
	m, err := b(c)
	c.Wait()
	frontend.WriteDiagnostics(w.Stderr, c)
	if err != nil {
		return nil, fmt.Errorf("building the snapshot of %s: %w", c.Target, err)
	}
	return m, nil
}

// Capture writes the snapshot of each capture (the capture command),
// saying on stderr where it went and what it holds. Each capture is
// dropped once built: a large one is not kept while its snapshot is
// written.
func Capture(ctx context.Context, w Streams, caps []*capture.Capture, o Options) error {
	for i, c := range caps {
		m, err := build(w, c, o.Partial)
		if err != nil {
			return PartialHint(err)
		}
		summary, rev := manifest.Summary(c, m), c.RequestedVersion
		caps[i], c = nil, nil
		path := manifest.RevisionPath(o.Path, rev, o.Several)
		if err := Write(ctx, w.Stdout, path, m); err != nil {
			return err
		}
		if path != frontend.StdoutPath {
			fmt.Fprintf(w.Stderr, "wrote %s\n", path)
		}
		fmt.Fprintln(w.Stderr, report.LogLine(summary, report.MaxText))
		WarnPartial(w.Stderr, path, m)
	}
	return nil
}

// Snapshot writes (or, with o.Verify, compares) the snapshot of each
// capture of one server (the snapshot command), and returns the exit
// code: frontend.ExitFindings when a file does not match. A comparison
// is the diff engine's: the verdict, one line per change, and how to
// rewrite the file; a rewrite says what it changed.
func Snapshot(ctx context.Context, w Streams, caps []*capture.Capture, o Options) (int, error) {
	code := frontend.ExitOK
	for _, c := range caps {
		head, err := build(w, c, false)
		if err != nil {
			return 0, err
		}
		path := manifest.RevisionPath(o.Path, c.RequestedVersion, o.Several)
		if !o.Verify {
			if err := rewrite(ctx, w, c, head, path, o); err != nil {
				return 0, err
			}
			continue
		}
		matches, err := verify(ctx, w.Stdout, head, path, o)
		if err != nil {
			return 0, err
		}
		if !matches {
			code = frontend.ExitFindings
		}
	}
	return code, nil
}

// rewrite writes head to path and says what changed from the file there.
func rewrite(ctx context.Context, w Streams, c *capture.Capture, head *manifest.Manifest, path string, o Options) error {
	var old *manifest.Manifest
	if path != frontend.StdoutPath {
		old, _ = manifest.ReadFileContext(ctx, path, o.MaxBytes)
	}
	if err := Write(ctx, w.Stdout, path, head); err != nil {
		return err
	}
	switch {
	case old != nil && !old.Incomplete() && old.Fingerprints.Manifest != head.Fingerprints.Manifest:
		if err := brief(w.Stderr, old, head, DisplayPath(path), o, true); err != nil {
			return err
		}
	case old != nil && old.Fingerprints.Manifest == head.Fingerprints.Manifest:
		fmt.Fprintf(w.Stderr, "wrote %s (unchanged)\n", path)
	default:
		fmt.Fprintf(w.Stderr, "wrote %s\n", path)
	}
	fmt.Fprintln(w.Stderr, report.LogLine(manifest.Summary(c, head), report.MaxText))
	WarnPartial(w.Stderr, path, head)
	return nil
}

// verify compares head with the file at path and says so on stdout.
func verify(ctx context.Context, stdout io.Writer, head *manifest.Manifest, path string, o Options) (bool, error) {
	shown := DisplayPath(path)
	base, err := manifest.ReadFileContext(ctx, path, o.MaxBytes)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stdout, "%s does not exist: %s\n", shown, o.Hints.rewrite(shown))
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if base.Incomplete() {
		// Never "matches": a partial file is no reviewed surface, even
		// against a server whose list fails the same way.
		fmt.Fprintf(stdout, "%s is a partial snapshot (%s): it does not hold the server's surface\n", shown, report.LogLine(base.PartialSummary(), report.MaxText))
		fmt.Fprintf(stdout, "once the server answers every list: %s\n", o.Hints.rewrite(shown))
		return false, nil
	}
	if base.Fingerprints.Manifest != head.Fingerprints.Manifest {
		return false, brief(stdout, base, head, shown, o, false)
	}
	fmt.Fprintf(stdout, "%s matches the server (manifest %s)\n", shown, head.Fingerprints.Manifest[:12])
	return true, nil
}

// brief judges head against base with the diff engine and writes its
// brief: the verdict, a line per change, and (unless rewritten, when the
// file was just written) how to rewrite it.
func brief(w io.Writer, base, head *manifest.Manifest, shown string, o Options, rewritten bool) error {
	res := check.Diff(base, head, shown, "the server", check.Options{Version: o.Version})
	t := report.BriefText{Snapshot: shown, Rewritten: rewritten}
	h := o.Hints
	if !rewritten {
		t.Intended = h.rewrite(shown)
		t.More = h.CLI + " snapshot --check --verbose" + h.Args
	}
	if h.Verbose {
		t.MaxLines = -1
	}
	if len(res.Findings) == 0 {
		// A difference no rule reads (a field of its own): the outline
		// names the items.
		t.Extra = manifest.Outline(base, head)
	}
	return report.WriteBrief(w, res.Report, report.Options{FailOn: rules.LevelError}, t)
}

// PartialHint adds to an incomplete capture's error how to write what
// was read anyway.
func PartialHint(err error) error {
	var ie *capture.IncompleteError
	if errors.As(err, &ie) {
		return fmt.Errorf("%w; or pass --partial to write what was read, marked partial", err)
	}
	var ue *manifest.UnidentifiedError
	if errors.As(err, &ue) {
		return fmt.Errorf("%w; fix the server's list, or pass --partial to write the snapshot of everything else with the item recorded under unidentified", err)
	}
	return err
}

// WarnPartial says that a snapshot written is partial, or records items
// it could not identify.
func WarnPartial(w io.Writer, path string, m *manifest.Manifest) {
	if len(m.Unidentified) > 0 {
		fmt.Fprintf(w, "warning: %s records %d item(s) served without identity under \"unidentified\" (--partial); a diff compares everything else and says so\n",
			path, len(m.Unidentified))
	}
	if m.Incomplete() {
		fmt.Fprintf(w, "warning: %s is a PARTIAL snapshot (--partial): %s; the failed list holds nothing, and a diff against it exits 2; do not commit it\n",
			path, report.LogLine(m.PartialSummary(), report.MaxText))
	}
}
