package spec

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
)

// maxSchemaBytes bounds what is read from a file or the network; the
// largest published schema is under 200 KiB.
const maxSchemaBytes = 16 << 20

// Options say where published schemas are looked for, in this order: Dir,
// CacheDir, then the published location (BaseURL). Nothing in this
// package reads the environment: the CLI resolves the directories.
type Options struct {
	// Dir is a directory the user named, laid out as
	// <Dir>/<revision>/schema.json. "" for none.
	Dir string
	// CacheDir is the local cache, same layout. "" for none. A downloaded
	// schema is written there (atomically) once verified.
	CacheDir string
	// BaseURL replaces PublishedBaseURL (tests, mirrors). The file of a
	// revision is BaseURL/<revision>/schema.json.
	BaseURL string
	// HTTPClient downloads; nil means http.DefaultClient.
	HTTPClient *http.Client
	// NoDownload forbids the network: only Dir and CacheDir are read.
	NoDownload bool
}

// DigestError is a schema file whose SHA-256 is not the pinned one. It is
// never used: a changed file means a changed schema, and findings judged
// against it would not be the published ones.
type DigestError struct {
	Revision string
	Location string // path or URL
	Want     string
	Got      string
}

func (e *DigestError) Error() string {
	return fmt.Sprintf("schema %s at %s has SHA-256 %s, but the published file is pinned to %s; the file was altered or is not the published %s schema",
		e.Revision, e.Location, e.Got, e.Want, e.Revision)
}

// NotFoundError says that no source had a revision's schema.
type NotFoundError struct {
	Revision string
	// Tried lists each source and why it failed, in order.
	Tried []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no published MCP schema for revision %s is reachable (tried %s)", e.Revision, strings.Join(e.Tried, "; "))
}

// UnknownRevisionError is a revision name that is not in the registry.
type UnknownRevisionError struct{ Revision string }

func (e *UnknownRevisionError) Error() string {
	return fmt.Sprintf("unknown MCP revision %q (known: %s)", e.Revision, strings.Join(RevisionNames(), ", "))
}

// Load loads the named revisions (every known revision when none is
// named). The first error stops it.
func Load(ctx context.Context, opts Options, names ...string) (*Schemas, error) {
	if len(names) == 0 {
		names = RevisionNames()
	}
	out := newSchemas()
	for _, n := range names {
		s, err := LoadRevision(ctx, opts, n)
		if err != nil {
			return nil, err
		}
		out.byName[n] = s
	}
	return out, nil
}

// Open returns a set that loads each revision from opts when it is first
// needed (see Schemas), after loading the named ones now: the first error
// stops it. A caller that knows which revision it validates names it, so
// that a missing schema is reported before any work is done; the other
// revisions are loaded only if the comparison of revisions needs them
// (protocol-feature-version-mismatch), and one that cannot be loaded is
// reported there instead of failing the validation. ctx bounds every
// later load too.
func Open(ctx context.Context, opts Options, names ...string) (*Schemas, error) {
	out := newSchemas()
	out.load = func(name string) (*Schema, error) { return LoadRevision(ctx, opts, name) }
	for _, n := range names {
		if _, err := out.Lookup(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LoadRevision finds, verifies and compiles one revision's schema.
func LoadRevision(ctx context.Context, opts Options, name string) (*Schema, error) {
	rev, ok := LookupRevision(name)
	if !ok {
		return nil, &UnknownRevisionError{name}
	}
	nf := &NotFoundError{Revision: name}
	for _, src := range []struct {
		dir    string
		origin Origin
		label  string
	}{{opts.Dir, OriginDir, "schema directory"}, {opts.CacheDir, OriginCache, "cache"}} {
		if src.dir == "" {
			continue
		}
		path := filepath.Join(src.dir, name, "schema.json")
		data, err := readFile(ctx, path)
		if errors.Is(err, fs.ErrNotExist) {
			nf.Tried = append(nf.Tried, fmt.Sprintf("%s %s: not there", src.label, path))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading schema %s: %w", name, err)
		}
		if err := verify(rev, path, data); err != nil {
			return nil, err
		}
		return newSchema(rev, src.origin, path, data)
	}
	if opts.NoDownload {
		nf.Tried = append(nf.Tried, "download: disabled")
		return nil, nf
	}
	url := rev.URL(opts.BaseURL)
	data, err := download(ctx, opts.HTTPClient, url)
	if err != nil {
		nf.Tried = append(nf.Tried, fmt.Sprintf("download %s: %v", url, err))
		return nil, nf
	}
	if err := verify(rev, url, data); err != nil {
		return nil, err
	}
	s, err := newSchema(rev, OriginDownload, url, data)
	if err != nil {
		return nil, err
	}
	if opts.CacheDir != "" {
		// A cache that cannot be written costs a download next time, not
		// this run: the bytes are verified and in memory.
		if path, err := writeCache(opts.CacheDir, name, data); err == nil {
			s.CachedAt = path
		}
	}
	return s, nil
}

func newSchema(rev Revision, origin Origin, location string, data []byte) (*Schema, error) {
	c, err := compile(rev, data)
	if err != nil {
		return nil, err
	}
	return &Schema{Revision: rev, Origin: origin, Location: location, c: c}, nil
}

func verify(rev Revision, location string, data []byte) error {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if got != rev.SHA256 {
		return &DigestError{Revision: rev.Name, Location: location, Want: rev.SHA256, Got: got}
	}
	return nil
}

// readFile reads a schema file of the directory or the cache, bounded by
// maxSchemaBytes.
func readFile(ctx context.Context, path string) ([]byte, error) {
	return infile.Read(ctx, path, "a published schema file", maxSchemaBytes)
}
