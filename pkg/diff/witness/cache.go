package witness

import (
	"encoding/json"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
)

// Cache shares compiled schemas between the Pairs of one comparison: the
// tools of a server repeat their schemas (the same $defs, the same
// arguments with another description), and compiling one, which checks it
// against its metaschema first, costs more than most searches. A schema is
// compiled once per distinct form without its documentation (title,
// description, examples, $comment: no validation reads them, and no error
// is located in them). Not safe for concurrent use; the zero value is not
// ready, use NewCache.
type Cache struct {
	compiled map[string]compiled
	decoded  map[string]decoded
}

type decoded struct {
	v   any
	err error
}

type compiled struct {
	v   *validator
	err error
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{compiled: map[string]compiled{}, decoded: map[string]decoded{}}
}

// Decode is canonjson.Decode, once per distinct document: a comparison
// reads each schema for several purposes. The value is shared: callers
// must not change it. c may be nil.
func (c *Cache) Decode(raw json.RawMessage) (any, error) {
	if c == nil {
		return canonjson.Decode(raw)
	}
	if d, ok := c.decoded[string(raw)]; ok {
		return d.v, d.err
	}
	v, err := canonjson.Decode(raw)
	if len(c.decoded) < maxCached {
		c.decoded[string(raw)] = decoded{v, err}
	}
	return v, err
}

// maxCached bounds the schemas one Cache keeps.
const maxCached = 4096

// compile is compileSide through the cache (c may be nil).
func (c *Cache) compile(name string, doc any, dialect string) (*validator, error) {
	if c == nil {
		return compileSide(name, doc, dialect)
	}
	bare := withoutDocs(doc, 0)
	raw, err := encode(bare)
	if err != nil {
		return compileSide(name, doc, dialect)
	}
	key := dialect + "\x00" + string(raw)
	if e, ok := c.compiled[key]; ok {
		return e.v, e.err
	}
	v, err := compileSide(name, bare, dialect)
	if len(c.compiled) < maxCached {
		c.compiled[key] = compiled{v, err}
	}
	return v, err
}

// withoutDocs is a schema without the documentation keywords at its
// schema positions (a property named "description" stays), for keywords
// whose values the metaschema accepts anyway (a string title, an array of
// examples), so that the document compiles exactly when the original does.
// Values are shared, not copied, where nothing is removed below them.
func withoutDocs(v any, depth int) any {
	m, ok := v.(map[string]any)
	if !ok || depth > 128 {
		return v
	}
	out := make(map[string]any, len(m))
	for k, c := range m { // (any order: the result is a map)
		switch {
		case jsonschemakw.Doc(k) && docValue(k, c):
			continue
		case jsonschemakw.HoldsMap(k):
			if cm, ok := c.(map[string]any); ok {
				o := make(map[string]any, len(cm))
				for n, s := range cm {
					o[n] = withoutDocs(s, depth+1)
				}
				c = o
			}
		case jsonschemakw.HoldsList(k):
			if l, ok := c.([]any); ok {
				o := make([]any, len(l))
				for i, s := range l {
					o[i] = withoutDocs(s, depth+1)
				}
				c = o
			} else {
				c = withoutDocs(c, depth+1)
			}
		case jsonschemakw.HoldsOne(k):
			c = withoutDocs(c, depth+1)
		}
		out[k] = c
	}
	return out
}

// docValue reports whether a documentation keyword's value is of the type
// its metaschema asks for (removing it then changes no verdict).
func docValue(k string, v any) bool {
	switch k {
	case "examples":
		_, ok := v.([]any)
		return ok
	default:
		_, ok := v.(string)
		return ok
	}
}
