package schemadiff

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// doc is one parsed schema document.
type doc struct {
	root    *value
	legacy  bool // draft-04/06/07: siblings of $ref are ignored
	id      string
	anchors map[string]anchorLoc
	err     error
	slab    []node
}

type anchorLoc struct {
	v   *value
	ptr string
}

func newDoc(data []byte, defaultDialect string) *doc {
	d := &doc{}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	v, err := parseJSON(data)
	if err != nil {
		d.err = err
		d.root = &value{kind: vObj}
		return d
	}
	d.root = v
	dialect := defaultDialect
	if s := v.get("$schema"); s != nil && s.kind == vStr {
		dialect = s.s
	}
	d.legacy = isLegacyDialect(dialect)
	if id := v.get("$id"); id != nil && id.kind == vStr {
		d.id, _, _ = strings.Cut(id.s, "#")
	} else if id := v.get("id"); id != nil && id.kind == vStr && d.legacy {
		d.id, _, _ = strings.Cut(id.s, "#")
	}
	return d
}

func isLegacyDialect(s string) bool {
	for _, x := range []string{"draft-03", "draft-04", "draft-05", "draft-06", "draft-07", "draft3", "draft4", "draft6", "draft7"} {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func (d *doc) rootNode() *node { return d.node(d.root, "") }

// node returns the node for raw value v, building it on first use. Nodes
// are memoised by raw identity, so a subschema reached inline and through
// a $ref is one node, and cycles terminate.
func (d *doc) node(v *value, ptr string) *node {
	if v.node != nil {
		return v.node
	}
	n := d.newNode(v)
	n.ptrS, n.ptrOK = ptr, true
	return n
}

// under returns the node for v found under parent at tokens t1 (and t2 when
// nt is 2).
func (d *doc) under(v *value, parent *node, nt uint8, t1, t2 string) *node {
	if v.node != nil {
		return v.node
	}
	n := d.newNode(v)
	n.pp, n.pn, n.pt1, n.pt2 = parent, nt, t1, t2
	return n
}

func (d *doc) newNode(v *value) *node {
	if len(d.slab) == cap(d.slab) {
		d.reserve(8)
	}
	d.slab = d.slab[:len(d.slab)+1]
	n := &d.slab[len(d.slab)-1]
	n.d, n.raw = d, v
	v.node = n
	switch v.kind {
	case vBool:
		n.isFalse = !v.b
	case vObj:
	default:
		n.filled = true
		n.keywords = &keywords{
			opaque:    "not a schema (a JSON " + kindName(v.kind) + ")",
			opaqueKey: "invalid:" + canonString(v),
		}
	}
	return n
}

// reserve makes room for n more nodes in one allocation.
func (d *doc) reserve(n int) {
	if cap(d.slab)-len(d.slab) < n {
		d.slab = make([]node, 0, n)
	}
}

// load reads n's keywords on first use.
func (d *doc) load(n *node) {
	if n.filled {
		return
	}
	n.filled = true
	n.keywords = new(keywords)
	if n.raw.kind == vObj && n.opaque == "" {
		d.fill(n, n.raw)
	}
}

func (d *doc) lookupRef(ref string) (*node, string) {
	r := ref
	if d.id != "" && strings.HasPrefix(r, d.id) {
		r = r[len(d.id):]
	}
	if r == "" {
		return d.rootNode(), ""
	}
	if r[0] != '#' {
		return nil, "external $ref " + strconv.Quote(ref) + " is not resolved (external references are off)"
	}
	frag, err := url.PathUnescape(r[1:])
	if err != nil {
		return nil, "$ref " + strconv.Quote(ref) + " is not a valid URI fragment"
	}
	if frag == "" || frag[0] == '/' {
		v, ok := lookupPointer(d.root, frag)
		if !ok || !isSchemaValue(v) {
			return nil, "$ref " + strconv.Quote(ref) + " points at nothing in this schema"
		}
		return d.node(v, frag), ""
	}
	if d.anchors == nil {
		d.anchors = map[string]anchorLoc{}
		d.indexAnchors(d.root, "", 0)
	}
	if a, ok := d.anchors[frag]; ok {
		return d.node(a.v, a.ptr), ""
	}
	return nil, "$ref " + strconv.Quote(ref) + " names an anchor this schema does not define"
}

// indexAnchors records the anchors of a document. Its depth is within the
// one nesting limit the parser enforces; the check only guards values
// built by hand.
func (d *doc) indexAnchors(v *value, ptr string, depth int) {
	if depth > canonjson.MaxDepth {
		return
	}
	switch v.kind {
	case vObj:
		if a := v.get("$anchor"); a != nil && a.kind == vStr {
			if _, dup := d.anchors[a.s]; !dup {
				d.anchors[a.s] = anchorLoc{v, ptr}
			}
		}
		for _, k := range []string{"$id", "id"} {
			if a := v.get(k); a != nil && a.kind == vStr && strings.HasPrefix(a.s, "#") && len(a.s) > 1 {
				if _, dup := d.anchors[a.s[1:]]; !dup {
					d.anchors[a.s[1:]] = anchorLoc{v, ptr}
				}
			}
		}
		for _, m := range v.members() {
			d.indexAnchors(m.v, ptrJoin(ptr, m.k), depth+1)
		}
	case vArr:
		for i, e := range v.elems() {
			d.indexAnchors(e, ptrJoin(ptr, strconv.Itoa(i)), depth+1)
		}
	}
}
