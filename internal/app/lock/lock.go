package lock

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// DefaultFile is the lock file's name at the repository root.
const DefaultFile = "mcp-surface.lock.json"

// Version is the lock file format's version (lockVersion) written when an
// entry records its package; a lock without one is written as Version1,
// which every earlier mcp-surface reads. Both are read.
const Version = 2

// Version1 is the format before entries recorded their package.
const Version1 = 1

// Entry is one locked server: the surface captured from the server that
// the configuration file Config declares under Name.
type Entry struct {
	Config string // the client configuration, relative to the root
	Name   string // the server's name in it
	// EntryHash is the hash of the configuration entry when it was locked
	// (clientconfig.Server.EntryHash): a changed command, argument, URL
	// or header is a re-lock, not drift.
	EntryHash string
	Transport string // stdio, http or sse
	// Launch is the command line or URL as written in the configuration,
	// placeholders not filled: for reviewers.
	Launch   string
	Snapshot *manifest.Manifest
	// Package is the package a launcher installs for the server (npx,
	// uvx, docker run ...), as its registry served it when locked; nil
	// for a server that is not launched from a package, or whose
	// registry was not read.
	Package *Package
}

// Key names the entry for people: "CONFIG › NAME".
func (e *Entry) Key() string { return Key(e.Config, e.Name) }

// Key names a server of a configuration for people.
func Key(config, name string) string { return config + " › " + name }

// Lock is the lock file: the entries sorted by configuration, then name.
type Lock struct {
	Entries []Entry
}

// Find returns the entry of a configuration's server.
func (l *Lock) Find(config, name string) (*Entry, bool) {
	i, ok := slices.BinarySearchFunc(l.Entries, [2]string{config, name}, compareKey)
	if !ok {
		return nil, false
	}
	return &l.Entries[i], true
}

// Put adds e, or replaces the entry of the same server.
func (l *Lock) Put(e Entry) {
	i, ok := slices.BinarySearchFunc(l.Entries, [2]string{e.Config, e.Name}, compareKey)
	if ok {
		l.Entries[i] = e
		return
	}
	l.Entries = slices.Insert(l.Entries, i, e)
}

// Remove drops the entry of a server, reporting whether there was one.
func (l *Lock) Remove(config, name string) bool {
	i, ok := slices.BinarySearchFunc(l.Entries, [2]string{config, name}, compareKey)
	if ok {
		l.Entries = slices.Delete(l.Entries, i, i+1)
	}
	return ok
}

func compareKey(e Entry, k [2]string) int {
	return cmp.Or(cmp.Compare(e.Config, k[0]), cmp.Compare(e.Name, k[1]))
}

// Encode renders the lock file: canonical JSON (keys sorted, entries in
// order), pretty-printed with two spaces and a trailing newline, each
// snapshot as its snapshot file holds it. The same lock gives the same
// bytes.
func Encode(l *Lock) ([]byte, error) {
	version := Version1
	for i := range l.Entries {
		if l.Entries[i].Package != nil {
			version = Version
		}
	}
	b := []byte(`{"lockVersion":`)
	b = fmt.Appendf(b, "%d", version)
	b = append(b, `,"servers":[`...)
	for i := range l.Entries {
		e := &l.Entries[i]
		if i > 0 {
			b = append(b, ',')
			if compareKey(l.Entries[i-1], [2]string{e.Config, e.Name}) >= 0 {
				return nil, fmt.Errorf("lock entries out of order or repeated at %s", e.Key())
			}
		}
		if e.Snapshot == nil {
			return nil, fmt.Errorf("lock entry %s has no snapshot", e.Key())
		}
		snap, err := e.Snapshot.CanonicalJSON()
		if err != nil {
			return nil, fmt.Errorf("lock entry %s: %w", e.Key(), err)
		}
		b = append(b, `{"config":`...)
		b = canonjson.AppendString(b, e.Config)
		b = append(b, `,"entryHash":`...)
		b = canonjson.AppendString(b, e.EntryHash)
		b = append(b, `,"launch":`...)
		b = canonjson.AppendString(b, e.Launch)
		b = append(b, `,"name":`...)
		b = canonjson.AppendString(b, e.Name)
		if e.Package != nil {
			pj, err := json.Marshal(e.Package)
			if err != nil {
				return nil, err
			}
			if pj, err = canonjson.Canonicalize(pj); err != nil {
				return nil, err
			}
			b = append(b, `,"package":`...)
			b = append(b, pj...)
		}
		b = append(b, `,"snapshot":`...)
		b = append(b, snap...)
		b = append(b, `,"transport":`...)
		b = canonjson.AppendString(b, e.Transport)
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	return manifest.Indent(b)
}

// fileEntry is an entry as the file holds it.
type fileEntry struct {
	Config    string          `json:"config"`
	EntryHash string          `json:"entryHash"`
	Launch    string          `json:"launch"`
	Name      string          `json:"name"`
	Package   *Package        `json:"package"`
	Snapshot  json.RawMessage `json:"snapshot"`
	Transport string          `json:"transport"`
}

// Decode reads a lock file. It refuses repeated keys, unknown members,
// another lockVersion, entries out of order or repeated, and any
// snapshot manifest.FromCanonicalJSON refuses; errors name the entry.
func Decode(data []byte) (*Lock, error) {
	if err := canonjson.CheckUnique(data); err != nil {
		return nil, fmt.Errorf("lock file refused: %w", err)
	}
	var top struct {
		LockVersion *int        `json:"lockVersion"`
		Servers     []fileEntry `json:"servers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("lock file is not a lock: %w", err)
	}
	if dec.More() {
		return nil, errors.New("lock file is not a lock: data after the object")
	}
	if top.LockVersion == nil || (*top.LockVersion != Version && *top.LockVersion != Version1) {
		return nil, fmt.Errorf("lock file has no lockVersion %d or %d: write it anew with mcp-surface lock (a newer version needs a newer mcp-surface)", Version1, Version)
	}
	l := &Lock{}
	for i, fe := range top.Servers {
		key := Key(fe.Config, fe.Name)
		if fe.Config == "" || fe.Name == "" || len(fe.Snapshot) == 0 {
			return nil, fmt.Errorf("lock file: servers[%d] needs config, name and snapshot", i)
		}
		m, err := manifest.FromCanonicalJSON(fe.Snapshot)
		if err != nil {
			return nil, fmt.Errorf("lock file: %s: %w", key, err)
		}
		if fe.Package != nil && (*top.LockVersion < Version || fe.Package.Name == "" || fe.Package.Version == "" || fe.Package.Ecosystem == "") {
			return nil, fmt.Errorf("lock file: %s: a package needs lockVersion %d, an ecosystem, a name and a version", key, Version)
		}
		e := Entry{Config: fe.Config, Name: fe.Name, EntryHash: fe.EntryHash, Transport: fe.Transport, Launch: fe.Launch, Snapshot: m, Package: fe.Package}
		if i > 0 && compareKey(l.Entries[i-1], [2]string{e.Config, e.Name}) >= 0 {
			return nil, fmt.Errorf("lock file: %s is out of order or repeated (entries are sorted by config, then name)", key)
		}
		l.Entries = append(l.Entries, e)
	}
	return l, nil
}

// ReadFile reads the lock file at path, of at most maxBytes (0:
// manifest.DefaultMaxFileBytes times four: a lock holds several snapshots).
func ReadFile(ctx context.Context, path string, maxBytes int64) (*Lock, error) {
	if maxBytes <= 0 {
		maxBytes = 4 * manifest.DefaultMaxFileBytes
	}
	data, err := infile.Read(ctx, path, "lock file", maxBytes)
	if err != nil {
		return nil, err
	}
	l, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// WriteFile writes the lock file whole (a temporary file renamed into
// place).
func WriteFile(ctx context.Context, path string, l *Lock) error {
	data, err := Encode(l)
	if err != nil {
		return err
	}
	return outfile.Write(ctx, path, data)
}
