package spec

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Checking that a tool schema is a valid schema in its dialect is the
// expensive part of validating a large server, so it is organised for
// speed without giving up exactness:
//
//   - A schema without references, identifiers or anchors cannot fail to
//     compile for any reason but its meta-schema, so it is only validated
//     against the meta-schema (compiled once per process).
//   - Every standard meta-schema judges each schema object on its own:
//     the keywords of one object (their JSON types, non-negative
//     integers, unique string lists) and, separately, each subschema
//     with the whole meta-schema again. So a schema is valid exactly when
//     each of its objects is valid with its object-valued subschemas
//     replaced by {} — and those small "nodes" repeat across tools.
//   - A node's validity does not depend on property names, on the text of
//     descriptions and titles, on annotation values (default, const,
//     examples), on which strings "required" or "enum" list (only on how
//     many and which are equal), nor on a number beyond its sign and
//     whether it is an integer. Nodes are validated in a normal form that
//     replaces those, once per distinct form. Patterns are checked on
//     their own (with the lenient engine; the meta-schema's regex format
//     would use Go's) and blanked in the normal form.
//   - A schema with a node that fails, and every schema with references,
//     is compiled in full, which gives the precise location of each
//     problem.
//   - Distinct checks run on all processors.

// schemaJob is one distinct check: a node against its meta-schema, or a
// full compile.
type schemaJob struct {
	dialect string
	doc     any // node (normal form) or whole schema (full)
	full    bool
	err     error
}

// schemaCheck is the check of one tool's schema.
type schemaCheck struct {
	dialect        string
	doc            any
	nodes          []*schemaJob
	full           *schemaJob // set for schemas with references, or failed nodes
	unknownDialect string
	badPatterns    []badPattern
}

// failed returns the error of the check, nil when the schema is valid.
func (sc *schemaCheck) failed() error {
	if sc.full != nil {
		return sc.full.err
	}
	return nil
}

type badPattern struct {
	loc     []string
	pattern string
	err     error
}

var (
	metaMu      sync.Mutex
	metaSchemas = map[string]*jsonschema.Schema{}
)

// metaschema returns the compiled meta-schema of a dialect.
func metaschema(dialect string) (*jsonschema.Schema, error) {
	metaMu.Lock()
	defer metaMu.Unlock()
	key := dialectKey(dialect)
	if s, ok := metaSchemas[key]; ok {
		return s, nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	s, err := c.Compile("https://" + key)
	if err != nil {
		return nil, err
	}
	metaSchemas[key] = s
	return s, nil
}

// prepareSchema sets up the check of one tool schema, sharing jobs with
// the checks prepared before.
func (k *checker) prepareSchema(v map[string]any) *schemaCheck {
	dialect := k.rev.ToolSchemaDialect
	if dialect == "" {
		dialect = Dialect202012
	}
	if s, ok := v["$schema"].(string); ok {
		if _, known := dialects[dialectKey(s)]; !known {
			return &schemaCheck{unknownDialect: s}
		}
		dialect = s
	}
	sc := &schemaCheck{dialect: dialect, doc: v}
	n := &normalizer{draft4: dialectKey(dialect) == "json-schema.org/draft-04/schema"}
	n.node(v)
	sc.badPatterns = n.bad
	if n.refs {
		sc.full = k.fullJob(dialect, v)
		return sc
	}
	jobs := k.nodeJobs[dialect]
	if jobs == nil {
		jobs = map[string]*schemaJob{}
		k.nodeJobs[dialect] = jobs
	}
	for _, key := range n.nodes {
		j, ok := jobs[key]
		if !ok {
			doc, err := decodeJSON([]byte(key))
			if err != nil {
				sc.full = k.fullJob(dialect, v)
				return sc
			}
			j = &schemaJob{dialect: dialect, doc: doc}
			jobs[key] = j
			k.jobOrder = append(k.jobOrder, j)
		}
		if !slices.Contains(sc.nodes, j) {
			sc.nodes = append(sc.nodes, j)
		}
	}
	return sc
}

// fullJob returns the full compile of a schema, shared by identical ones.
func (k *checker) fullJob(dialect string, v any) *schemaJob {
	b, _ := json.Marshal(v)
	key := dialect + "\x00" + string(b)
	if j, ok := k.jobs[key]; ok {
		return j
	}
	j := &schemaJob{dialect: dialect, doc: v, full: true}
	k.jobs[key] = j
	k.jobOrder = append(k.jobOrder, j)
	return j
}

// runChecks performs every check prepared, on all processors; a schema
// with a failing node is then compiled in full for precise errors.
func (k *checker) runChecks(checks []*schemaCheck) {
	k.runJobs()
	for _, sc := range checks {
		if sc.full != nil || sc.unknownDialect != "" {
			continue
		}
		for _, j := range sc.nodes {
			if j.err != nil {
				sc.full = k.fullJob(sc.dialect, sc.doc)
				break
			}
		}
	}
	k.runJobs()
}

func (k *checker) runJobs() {
	jobs := k.jobOrder
	k.jobOrder = nil
	parallel(len(jobs), func(i int) { jobs[i].run() })
}

func (j *schemaJob) run() {
	if j.full {
		_, j.err = compileSchema(j.dialect, j.doc)
		return
	}
	meta, err := metaschema(j.dialect)
	if err != nil {
		j.err = err
		return
	}
	j.err = meta.Validate(j.doc)
}

// compileSchema compiles a tool schema in full.
func compileSchema(dialect string, v any) (*jsonschema.Schema, error) {
	c := newCompiler(dialect)
	if err := c.AddResource(toolSchemaBase, v); err != nil {
		return nil, err
	}
	return c.Compile(toolSchemaBase)
}

// normalizer splits a schema into nodes and writes each node's normal
// form (see above) as JSON, noting whether the schema has references and
// which patterns are malformed.
type normalizer struct {
	draft4 bool
	refs   bool
	bad    []badPattern
	nodes  []string
	path   []string // location of the node being written
}

func (n *normalizer) push(tok string) { n.path = append(n.path, tok) }
func (n *normalizer) pop()            { n.path = n.path[:len(n.path)-1] }

// node writes the normal form of one schema object and, recursively, of
// its subschemas.
func (n *normalizer) node(m map[string]any) {
	if len(n.path) > maxSchemaDepth {
		n.refs = true // too deep to reason about: compile it
		return
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, key := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, key)
		b.WriteByte(':')
		x := m[key]
		n.push(key)
		switch {
		case kw.Reference(key), key == "id" && n.draft4:
			n.refs = true
			writeJSON(&b, x)
		case kw.HoldsMap(key):
			obj, ok := x.(map[string]any)
			if !ok {
				writeJSON(&b, x)
				break
			}
			b.WriteByte('{')
			for j, name := range slices.Sorted(maps.Keys(obj)) {
				if j > 0 {
					b.WriteByte(',')
				}
				if key == "patternProperties" {
					n.pattern(name, name)
				}
				b.WriteString(`"k` + strconv.Itoa(j) + `":`)
				n.push(name)
				n.child(&b, obj[name])
				n.pop()
			}
			b.WriteByte('}')
		case kw.HoldsList(key) && isArray(x):
			b.WriteByte('[')
			for j, e := range x.([]any) {
				if j > 0 {
					b.WriteByte(',')
				}
				n.push(strconv.Itoa(j))
				n.child(&b, e)
				n.pop()
			}
			b.WriteByte(']')
		case kw.HoldsOne(key):
			n.child(&b, x)
		case key == "pattern":
			if p, ok := x.(string); ok {
				n.pattern(p, "")
				b.WriteString(`""`)
			} else {
				writeJSON(&b, x)
			}
		case key == "required" || key == "enum":
			writeJSON(&b, tokens(x))
		case key == "dependentRequired":
			obj, ok := x.(map[string]any)
			if !ok {
				writeJSON(&b, x)
				break
			}
			r := map[string]any{}
			for j, name := range slices.Sorted(maps.Keys(obj)) {
				r["k"+strconv.Itoa(j)] = tokens(obj[name])
			}
			writeJSON(&b, r)
		case key == "description" || key == "title" || key == "$comment":
			if _, ok := x.(string); ok {
				b.WriteString(`""`)
			} else {
				writeJSON(&b, x)
			}
		case key == "default" || key == "const":
			b.WriteString("null")
		case key == "examples":
			if isArray(x) {
				b.WriteString("[]")
			} else {
				writeJSON(&b, x)
			}
		default:
			if num, ok := x.(json.Number); ok {
				b.WriteString(numberClass(num))
			} else {
				writeJSON(&b, x)
			}
		}
		n.pop()
	}
	b.WriteByte('}')
	n.nodes = append(n.nodes, b.String())
}

// child writes a subschema position: an object becomes {} and a node of
// its own; anything else is left for this node's meta-schema to judge.
func (n *normalizer) child(b *bytes.Buffer, x any) {
	if m, ok := x.(map[string]any); ok {
		b.WriteString("{}")
		n.node(m)
		return
	}
	writeJSON(b, x)
}

// pattern checks a regular expression; tok, when not empty, is appended
// to the current location (a patternProperties key).
func (n *normalizer) pattern(p, tok string) {
	if _, err := lenientRegexp(p); err != nil {
		loc := slices.Clone(n.path)
		if tok != "" {
			loc = append(loc, tok)
		}
		n.bad = append(n.bad, badPattern{loc: loc, pattern: p, err: err})
	}
}

func isArray(x any) bool {
	_, ok := x.([]any)
	return ok
}

// numberClass keeps what a meta-schema can test of a number: its sign
// and whether it is an integer.
func numberClass(num json.Number) string {
	r, ok := new(big.Rat).SetString(num.String())
	if !ok {
		return num.String()
	}
	switch sign, integer := r.Sign(), r.IsInt(); {
	case sign == 0:
		return "0"
	case sign > 0 && integer:
		return "1"
	case sign > 0:
		return "0.5"
	case integer:
		return "-1"
	}
	return "-0.5"
}

// writeJSON writes v as JSON (object keys sorted). Numbers keep their
// text: the meta-schemas of older drafts tell 1.0 from 1, so the
// canonical number form would change a node's validity.
func writeJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
		return
	case bool:
		b.WriteString(strconv.FormatBool(x))
		return
	case json.Number:
		b.WriteString(x.String())
		return
	case string:
		b.Write(canonjson.AppendString(b.AvailableBuffer(), x))
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte("null")
	}
	b.Write(data)
}

// tokens replaces the values of a list by tokens that keep equality.
func tokens(x any) any {
	arr, ok := x.([]any)
	if !ok {
		return x
	}
	seen := map[string]string{}
	out := make([]any, len(arr))
	for i, e := range arr {
		var b bytes.Buffer
		writeJSON(&b, e)
		t, ok := seen[b.String()]
		if !ok {
			t = "t" + strconv.Itoa(len(seen))
			seen[b.String()] = t
		}
		out[i] = t
	}
	return out
}
