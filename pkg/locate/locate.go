package locate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// Sources of a Location, best first.
const (
	SourceCode     = "code"     // the line of the repository's source that defines the item
	SourceSnapshot = "snapshot" // the item's line in the committed snapshot file
	SourceFallback = "fallback" // line 1 of the snapshot or fallback file
)

// DefaultSnapshot is the snapshot file name used when the caller names
// none and there is no fallback file either.
const DefaultSnapshot = "mcp-surface.json"

// Default bounds of the source search.
const (
	DefaultMaxFileBytes  = 1 << 20  // larger files are skipped
	DefaultMaxTotalBytes = 64 << 20 // the search stops reading after this much
)

// Location is where a finding is anchored: a slash-separated path relative
// to the repository root, and a 1-based line.
type Location struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Source string `json:"source"`
}

// IsZero reports whether l names no file.
func (l Location) IsZero() bool { return l.Path == "" }

// Options configures a Locator.
type Options struct {
	// Dir is the repository checkout; Files are read relative to it.
	Dir string
	// Files are the tracked files, slash-separated and relative to Dir
	// (GitFiles). Nil means no source search.
	Files []string
	// Snapshot is the committed snapshot file, relative to Dir (e.g.
	// "mcp-surface.json"); "" when there is none.
	Snapshot string
	// SnapshotData is the snapshot's content; when nil it is read from
	// Dir/Snapshot (a missing file is not an error: the fallback is used).
	SnapshotData []byte
	// Fallback is the file named when nothing better is known and there
	// is no snapshot (e.g. ".mcp-surface.yaml" or the workflow file).
	Fallback string
	// MaxFileBytes and MaxTotalBytes bound the search; 0 means the
	// defaults.
	MaxFileBytes  int64
	MaxTotalBytes int64
}

// Locator answers where findings belong. It is safe for concurrent use.
type Locator struct {
	opts Options
	snap *snapshotIndex // nil when there is no readable snapshot

	mu   sync.Mutex
	code map[finding.Subject]codeResult // searched subjects
}

type codeResult struct {
	loc Location
	ok  bool
}

// New prepares a Locator: it reads and indexes the snapshot; the source
// search runs lazily, once per batch of subjects. A snapshot that exists
// but is not JSON is an error.
func New(opts Options) (*Locator, error) {
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.MaxTotalBytes <= 0 {
		opts.MaxTotalBytes = DefaultMaxTotalBytes
	}
	opts.Snapshot = filepath.ToSlash(opts.Snapshot)
	opts.Fallback = filepath.ToSlash(opts.Fallback)
	l := &Locator{opts: opts, code: map[finding.Subject]codeResult{}}
	data := opts.SnapshotData
	if data == nil && opts.Snapshot != "" {
		b, err := os.ReadFile(filepath.Join(opts.Dir, filepath.FromSlash(opts.Snapshot)))
		switch {
		case err == nil:
			data = b
		case errors.Is(err, os.ErrNotExist):
			// No committed snapshot: never point at a file that is not
			// there.
			l.opts.Snapshot = ""
		default:
			return nil, fmt.Errorf("locate: snapshot %s: %w", opts.Snapshot, err)
		}
	}
	if data != nil {
		idx, err := indexSnapshot(data)
		if err != nil {
			return nil, fmt.Errorf("locate: snapshot %s: %w", opts.Snapshot, err)
		}
		l.snap = idx
	}
	return l, nil
}

// Locate returns where one finding belongs (see the package comment for
// the order of preference). It never returns a zero Location.
func (l *Locator) Locate(f finding.Finding) Location {
	l.search([]finding.Subject{f.Subject})
	return l.locate(f)
}

// LocateAll returns the Location of every finding, by fingerprint,
// searching the source once for all their subjects.
func (l *Locator) LocateAll(fs []finding.Finding) map[string]Location {
	subjects := make([]finding.Subject, 0, len(fs))
	for _, f := range fs {
		subjects = append(subjects, f.Subject)
	}
	l.search(subjects)
	out := make(map[string]Location, len(fs))
	for _, f := range fs {
		out[f.Fingerprint] = l.locate(f)
	}
	return out
}

func (l *Locator) locate(f finding.Finding) Location {
	l.mu.Lock()
	r, ok := l.code[f.Subject]
	l.mu.Unlock()
	if ok && r.ok {
		return r.loc
	}
	if l.snap != nil && l.opts.Snapshot != "" {
		pointer := f.HeadPointer
		if pointer == "" {
			pointer = f.Pointer
		}
		if line, ok := l.snap.line(f.Subject, pointer); ok {
			return Location{Path: l.opts.Snapshot, Line: line, Source: SourceSnapshot}
		}
		return Location{Path: l.opts.Snapshot, Line: 1, Source: SourceFallback}
	}
	return l.Fallback()
}

// Fallback is the location of last resort: line 1 of the snapshot file,
// else of Options.Fallback, else of DefaultSnapshot.
func (l *Locator) Fallback() Location {
	return FallbackLocation(l.opts.Snapshot, l.opts.Fallback)
}

// FallbackLocation is line 1 of the first non-empty name among snapshot
// and fallback, else of DefaultSnapshot.
func FallbackLocation(snapshot, fallback string) Location {
	p := DefaultSnapshot
	switch {
	case snapshot != "":
		p = snapshot
	case fallback != "":
		p = fallback
	}
	return Location{Path: filepath.ToSlash(p), Line: 1, Source: SourceFallback}
}

// search runs the source search for the subjects not searched yet.
func (l *Locator) search(subjects []finding.Subject) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var todo []finding.Subject
	for _, s := range subjects {
		if _, done := l.code[s]; done || !searchable(s) {
			continue
		}
		if !slices.Contains(todo, s) {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return
	}
	found := searchSource(l.opts, todo)
	for _, s := range todo {
		l.code[s] = found[s]
	}
}

func searchable(s finding.Subject) bool {
	switch s.Kind {
	case finding.KindTool, finding.KindPrompt, finding.KindResource, finding.KindResourceTemplate:
		return s.Name != ""
	}
	return false
}

// GitFiles lists the files git tracks in dir (`git -C dir ls-files -z`),
// slash-separated and relative to dir, sorted.
func GitFiles(ctx context.Context, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git ls-files in %s: %s", dir, msg)
	}
	var files []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			files = append(files, path.Clean(p))
		}
	}
	slices.Sort(files)
	return files, nil
}
