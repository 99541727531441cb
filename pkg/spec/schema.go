package spec

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Origin says where a schema was found.
type Origin string

const (
	OriginDir      Origin = "schema-dir" // the directory the user named
	OriginCache    Origin = "cache"      // the local cache
	OriginDownload Origin = "download"   // the published location, just now
)

// Schema is the published schema of one revision, verified against its
// pinned digest and compiled. It is safe for concurrent use.
type Schema struct {
	Revision Revision
	// Origin and Location say where the bytes came from (a path or a URL).
	Origin   Origin
	Location string
	// CachedAt is the cache path a downloaded schema was written to, ""
	// when it was not cached.
	CachedAt string

	c *compiled
}

// HasDefinition reports whether the schema defines name.
func (s *Schema) HasDefinition(name string) bool {
	_, ok := s.c.defs[name]
	return ok
}

// Properties returns the property names a definition declares at its
// root, or nil when the schema has no such definition.
func (s *Schema) Properties(definition string) []string {
	d, ok := s.c.defs[definition].(map[string]any)
	if !ok {
		return nil
	}
	props, _ := d["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ValidateValue validates a decoded JSON value (see DecodeJSON) against
// one of the schema's definitions. The error, when validation fails, is a
// *jsonschema.ValidationError.
func (s *Schema) ValidateValue(definition string, v any) error {
	sch, err := s.c.definition(definition)
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// compiled is the process-wide, shared form of one verified schema file,
// keyed by its digest: each file is parsed and compiled once per process.
type compiled struct {
	rev  Revision
	url  string
	doc  map[string]any
	defs map[string]any

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

var (
	compiledMu  sync.Mutex
	compiledSet = map[string]*compiled{}
)

// compile parses the verified bytes of rev's schema, or returns the copy
// this process already has.
func compile(rev Revision, data []byte) (*compiled, error) {
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if c, ok := compiledSet[rev.SHA256]; ok {
		return c, nil
	}
	v, err := decodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev.Name, err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: not a JSON object", rev.Name)
	}
	defs, ok := doc[rev.definitionsKey()].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: no %q", rev.Name, rev.definitionsKey())
	}
	c := &compiled{
		rev: rev, url: rev.URL(""), doc: doc, defs: defs,
		compiler: newCompiler(rev.Dialect),
		schemas:  map[string]*jsonschema.Schema{},
	}
	ignoreFormats(c.compiler, doc)
	if err := c.compiler.AddResource(c.url, doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev.Name, err)
	}
	compiledSet[rev.SHA256] = c
	return c, nil
}

// definition compiles a reference to one definition of the loaded
// resource, once.
func (c *compiled) definition(name string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.schemas[name]; ok {
		return s, nil
	}
	if _, ok := c.defs[name]; !ok {
		return nil, fmt.Errorf("the %s schema has no definition %q", c.rev.Name, name)
	}
	s, err := c.compiler.Compile(c.url + "#/" + c.rev.definitionsKey() + "/" + name)
	if err != nil {
		return nil, fmt.Errorf("compiling %s of the %s schema: %w", name, c.rev.Name, err)
	}
	c.schemas[name] = s
	return s, nil
}

// Schemas is a set of revisions' schemas. A set made by Load or
// NewSchemas holds what it was given; a set made by Open also loads a
// revision the first time it is asked for and remembers the outcome, so
// that a caller that needs one revision never waits for (or fails on) the
// others. It is safe for concurrent use.
type Schemas struct {
	mu     sync.Mutex
	byName map[string]*Schema
	// load finds a revision not in byName; nil for a set that holds
	// only what it was given.
	load   func(name string) (*Schema, error)
	failed map[string]error
}

// newSchemas makes a set from loaded schemas.
func newSchemas(ss ...*Schema) *Schemas {
	out := &Schemas{byName: map[string]*Schema{}}
	for _, s := range ss {
		out.byName[s.Revision.Name] = s
	}
	return out
}

// Lookup returns the schema of a revision, loading it first in a set made
// by Open. The error is ErrSchemaMissing for a revision that a set made by
// Load or NewSchemas does not hold, otherwise the loading error (*NotFoundError, *DigestError, ...), which is remembered: a
// revision is tried once per set.
func (s *Schemas) Lookup(revision string) (*Schema, error) {
	if s == nil {
		return nil, ErrSchemaMissing
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if x, ok := s.byName[revision]; ok {
		return x, nil
	}
	if err, ok := s.failed[revision]; ok {
		return nil, err
	}
	if s.load == nil {
		return nil, ErrSchemaMissing
	}
	x, err := s.load(revision)
	if err != nil {
		if s.failed == nil {
			s.failed = map[string]error{}
		}
		s.failed[revision] = err
		return nil, err
	}
	s.byName[revision] = x
	return x, nil
}

// All returns the schemas the set holds (in a set made by Open, those
// loaded so far), oldest revision first.
func (s *Schemas) All() []*Schema {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Schema, 0, len(s.byName))
	for _, x := range s.byName {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b *Schema) int { return strings.Compare(a.Revision.Name, b.Revision.Name) })
	return out
}
