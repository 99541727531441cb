package schemadiff

import (
	"strconv"
	"strings"
)

// The schema node: one location of a schema, its keywords read into
// fields, and the names it is reported under.

type optStr struct{ v *value }

type named struct {
	name string
	n    *node
}

type depReq struct {
	name  string
	names []string
	raw   *value
}

// node is one schema location after normalisation. Fields are read only
// through a resolved node (doc.res), which has followed pure $ref and
// singleton-composition wrappers and folded the null encodings.
type node struct {
	d      *doc
	raw    *value
	filled bool // keywords read (lazily: unchanged subtrees are never read)

	// The JSON pointer of the raw location is built on first use from the
	// parent's pointer and up to two tokens (most nodes never need it).
	ptrS  string
	ptrOK bool
	pn    uint8
	pp    *node
	pt1   string
	pt2   string

	// Resolution.
	aliasTo   *node  // pure wrapper target
	aliasKind string // "$ref", "allOf", "anyOf", "oneOf"
	res       *node
	resState  uint8
	isFalse   bool

	// keywords is allocated when the node is read (doc.load), so a subtree
	// the walk never enters costs one small shell per schema.
	*keywords
}

// keywords are a node's normalised keywords.
type keywords struct {
	refStr   string // $ref as written
	nullWrap string // set on a resolved copy made for an X-or-null wrapper
	nullPtr  string // where the null came from: the null branch
	nullRaw  *value
	// nullBranch is the pointer (and raw) of the first null branch
	// stripNull dropped from a union of this node, the branch that
	// admitted null.
	nullBranch    string
	nullBranchRaw *value
	// foldedFrom keeps the branches of a union of plain types that was
	// folded into a type set, so a union on the other side pairs with them.
	foldedFrom []*node
	// valsFrom keeps the resolved branches a union of value lists was
	// folded from (unions.go): pointers to a value name the branch that
	// lists it.
	valsFrom []*node
	// valsAt is where the values of a folded union are listed (the union
	// keyword), for a change to the value set as a whole.
	valsAt string
	// folded is the union's single-schema form (unions.go), once computed.
	folded   *node
	foldDone bool
	// entryPtr is where a virtual branch stands as a member of a union: the
	// type keyword of the type set it was split from (its P() is the
	// schema's own place, where the keywords inside it would be written).
	entryPtr string
	// hoisted names the single-branch wrapper (anyOf, oneOf or allOf) a
	// union was lifted out of: {anyOf: [{oneOf: [A, B]}]} is oneOf [A, B].
	hoisted string
	// opaque nodes cannot be interpreted (invalid schema, unresolvable or
	// looping $ref); they compare equal only to an identical opaque node.
	opaque    string
	opaqueKey string
	unresRef  bool

	hasType bool
	types   uint8
	typeRaw *value
	orNull  bool

	hasConst bool
	constV   *value
	hasEnum  bool
	enumV    *value
	vals     []string // allowed values (canonical), sorted; valid when hasVals
	valVals  []*value
	hasVals  bool

	minimum, maximum, exclMin, exclMax, multipleOf num
	minLength, maxLength                           num
	minItems, maxItems, minContains, maxContains   num
	minProps, maxProps                             num

	pattern, format, contentEncoding, contentMediaType optStr
	contentSchema                                      *node

	props      []named
	required   []string
	reqRaw     *value
	addl       *node
	uneval     *node
	patProps   []named
	propNames  *node
	depReq     []depReq
	depSchemas []named

	prefix      []*node
	items       *node
	unevalItems *node
	contains    *node
	unique      bool

	allOf, anyOf, oneOf    []*node
	not, ifS, thenS, elseS *node

	unknown []member
	ann     []member

	// rawKw records the keyword as written where normalisation renamed it
	// (draft-07 items array → prefixItems, additionalItems → items,
	// dependencies → dependentRequired/dependentSchemas).
	rawKw map[string]string
	// boolean draft-04 exclusives, resolved in finish
	exclMinBool, exclMaxBool bool
	nullable                 bool
}

func (n *node) kw(k string) string {
	if n.rawKw != nil {
		if r, ok := n.rawKw[k]; ok {
			return r
		}
	}
	return k
}

func (n *node) setRawKw(k, raw string) {
	if n.rawKw == nil {
		n.rawKw = map[string]string{}
	}
	n.rawKw[k] = raw
}

func (n *node) annGet(k string) *value {
	for _, m := range n.ann {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

// P is the node's JSON pointer.
func (n *node) P() string {
	if !n.ptrOK {
		switch n.pn {
		case 1:
			n.ptrS = ptrJoin(n.pp.P(), n.pt1)
		case 2:
			n.ptrS = ptrJoin(n.pp.P(), n.pt1, n.pt2)
		}
		n.ptrOK = true
	}
	return n.ptrS
}

// entryP is the node's pointer as a branch of a union: P(), except for a
// branch split from a type set, which stands at the type keyword.
func (n *node) entryP() string {
	if n.keywords != nil && n.entryPtr != "" {
		return n.entryPtr
	}
	return n.P()
}

// branchNo is the index of branch n as written (the last token of its
// pointer), so messages name the branch the pointer names even where a
// null branch was folded out of the list; i, the index in the compared
// list, where the pointer ends in no index.
func branchNo(n *node, i int) int {
	p := n.entryP()
	k := strings.LastIndexByte(p, '/')
	if k < 0 {
		return i
	}
	list := p[:k]
	switch list[strings.LastIndexByte(list, '/')+1:] {
	case "anyOf", "oneOf", "allOf":
		if v, err := strconv.Atoi(p[k+1:]); err == nil && v >= 0 {
			return v
		}
	}
	return i
}
