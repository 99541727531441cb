package schemadiff

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// shared is the state one Compare call shares between the main walk and
// the proofs it runs on the side (branch matching, coverage checks).
type shared struct {
	opts   Options
	budget int

	eqMemo    map[pairKey]bool
	eqBusy    map[pairKey]bool
	eqPending []pairKey
	eqDepth   int

	compat     map[compatKey]bool
	compatBusy map[compatKey]bool

	regexps map[string]*regexp.Regexp
}

type pairKey struct{ b, h *node }

type compatKey struct {
	b, h *node
	dir  Direction
}

// walker walks one pair of schemas. In sandbox mode it only answers "did
// anything unsafe show up" and stops at the first such change.
type walker struct {
	dir     Direction
	sh      *shared
	sandbox bool
	unsafe  bool

	out   []Change
	n     int // changes found so far (counting memoised revisits)
	local int // changes found by the current pair itself

	memo  map[pairKey]int
	stack []pairKey // pairs being compared, outermost first
	cands []cand
	path  []pathSeg
	depth int
}

// cand is a subtree whose raw JSON differs but whose comparison found
// nothing: an equivalent rewrite, reported at the highest such place.
type cand struct {
	bp, hp string
	why    string
}

func newCmp(dir Direction, sh *shared, sandbox bool) *walker {
	return &walker{dir: dir, sh: sh, sandbox: sandbox, memo: make(map[pairKey]int, 32)}
}

func (c *walker) stop() bool { return c.sandbox && c.unsafe }

// rule picks the walker's direction's ID of a change that has a rule in
// each direction: in for Input, out for Output. Changes that only one
// direction judges name their rule directly, inside a branch on c.dir.
func (c *walker) rule(in, out string) string {
	if c.dir == Output {
		return out
	}
	return in
}

// emit records a change. bp/hp are JSON pointers; before/after raw values.
func (c *walker) emit(id, bp, hp string, before, after *value, format string, args ...any) {
	c.emitFull(id, bp, hp, before, after, format, args...)
}

// emitNP is emit for messages that already name their place (property
// rules say `property "a.b" ...`).
func (c *walker) emitNP(id, bp, hp string, before, after *value, format string, args ...any) {
	if c.sandbox {
		c.emitRaw(id, bp, hp, nil, nil, "")
		return
	}
	c.emitRaw(id, bp, hp, before, after, fmt.Sprintf(format, args...))
}

func (c *walker) emitFull(id, bp, hp string, before, after *value, format string, args ...any) {
	if c.sandbox {
		c.emitRaw(id, bp, hp, nil, nil, "")
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	if w := c.where(); w != "" {
		msg = strconv.Quote(w) + ": " + msg
	}
	c.emitRaw(id, bp, hp, before, after, msg)
}

// emitRaw records a change with a finished message and no location prefix.
func (c *walker) emitRaw(id, bp, hp string, before, after *value, msg string) {
	c.n++
	c.local++
	if c.sandbox {
		if unprovenRule(id) {
			c.unsafe = true
		}
		return
	}
	c.out = append(c.out, Change{Rule: id, BasePointer: bp, HeadPointer: hp, Before: canon(before), After: canon(after), Message: msg})
}

func (c *walker) emitRewrite(cd cand) {
	msg := "schema rewritten without changing the values it accepts"
	if c.dir == Output {
		msg = "schema rewritten without changing the values it allows"
	}
	if cd.why != "" {
		msg += " (" + cd.why + ")"
	}
	c.emitRaw(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), cd.bp, cd.hp, nil, nil, msg)
}

func (c *walker) undecidable(bp, hp string, before, after *value, format string, args ...any) {
	c.emit(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), bp, hp, before, after, format, args...)
}

// where is the human path of the pair being compared, e.g. "a.b[].c".
func (c *walker) where() string {
	if len(c.path) == 0 {
		return ""
	}
	var sb strings.Builder
	for _, s := range c.path {
		sb.WriteString(s.pre)
		sb.WriteString(s.s)
	}
	return strings.TrimLeft(sb.String(), ". ")
}

// propPath is the human name of property p of the current object.
func (c *walker) propPath(p string) string {
	w := c.where()
	if w == "" {
		return p
	}
	return w + "." + p
}

// pathSeg is one step of the human path; pre+s is its text (kept apart so
// pushing a property name allocates nothing).
type pathSeg struct{ pre, s string }

func (c *walker) pop() { c.path = c.path[:len(c.path)-1] }

// sub compares child subschemas under a path segment.
func (c *walker) sub(seg string, b, h *node) int {
	return c.subSeg(pathSeg{s: seg}, b, h)
}

func (c *walker) subSeg(seg pathSeg, b, h *node) int {
	c.path = append(c.path, seg)
	r := c.compare(b, h)
	c.pop()
	return r
}

// compare compares two subschemas (outer nodes, as written) and returns
// the number of changes found below them.
func (c *walker) compare(bo, ho *node) int {
	if c.stop() {
		return 0
	}
	if !c.sh.opts.forceWalk && bo.raw != nil && ho.raw != nil && !bo.raw.hasRef() && !ho.raw.hasRef() &&
		bo.d.legacy == ho.d.legacy && rawEqual(bo.raw, ho.raw) {
		return 0
	}
	n0 := c.n
	savedLocal := c.local
	c.local = 0
	candStart := len(c.cands)
	defer func() { c.local = savedLocal }()

	// Outer-level checks happen for every path, even when the resolved pair
	// was already compared through another $ref.
	b := bo.d.res(bo)
	h := ho.d.res(ho)
	if !c.sandbox {
		c.wrappers(bo, ho, b, h)
		c.annotations(bo, ho, b, h)
	}

	key := pairKey{b, h}
	if v, ok := c.memo[key]; ok {
		if v > 0 {
			c.n += v
		}
	} else {
		c.memo[key] = -1
		c.stack = append(c.stack, key)
		c.depth++
		c.sh.budget--
		switch {
		case c.depth > c.sh.opts.MaxDepth:
			c.undecidable(b.P(), h.P(), nil, nil, "nesting deeper than %d levels was not compared", c.sh.opts.MaxDepth)
		case c.sh.budget <= 0:
			c.undecidable(b.P(), h.P(), nil, nil, "comparison budget exhausted; the rest of this subschema was not compared")
		default:
			before := c.n
			c.body(b, h)
			if c.n == before && !c.stop() && !c.eqGiven(b, h) {
				c.undecidable(b.P(), h.P(), nil, nil, "subschema changed in a way no rule explains")
			}
		}
		c.depth--
		c.stack = c.stack[:len(c.stack)-1]
		c.memo[key] = c.n - n0
	}

	count := c.n - n0
	if c.sandbox {
		return count
	}
	if count == 0 {
		switch {
		case rawEqual(bo.raw, ho.raw):
			c.cands = c.cands[:candStart]
		case len(c.cands) > candStart && !localRawDiff(bo.raw, ho.raw):
			// the rewrites below explain the difference: keep their places
		default:
			c.cands = append(c.cands[:candStart], cand{bp: bo.P(), hp: ho.P(), why: rewriteWhy(bo, ho)})
		}
		return 0
	}
	for _, cd := range c.cands[candStart:] {
		c.emitRewrite(cd)
	}
	c.cands = c.cands[:candStart]
	return c.n - n0
}

// eqGiven is eq under the hypothesis that the pairs being compared further
// up are equal: their differences are reported there, so a subschema that
// differs only by reaching them (a recursive schema) has nothing of its own
// to report.
func (c *walker) eqGiven(b, h *node) bool {
	if c.sh.eq(b, h) {
		return true
	}
	if len(c.stack) < 2 {
		return false
	}
	s := &shared{opts: c.sh.opts, budget: c.sh.budget}
	s.eqMemo = make(map[pairKey]bool, 16)
	s.eqBusy = make(map[pairKey]bool, len(c.stack))
	for _, k := range c.stack[:len(c.stack)-1] {
		s.eqBusy[k] = true
	}
	r := s.eq(b, h)
	c.sh.budget = s.budget
	return r
}

// walkedKey: the keyword holds subschemas the walk compares one by one; a
// raw difference under it is explained by the children's own findings or
// rewrites. Every applicator is walked except "not" and "if" (compared as
// a whole) and "contentSchema" (not compared).
func walkedKey(k string) bool {
	return kw.Applicator(k) && k != "not" && k != "if" && k != "contentSchema"
}

// localRawDiff: do two raw schemas differ outside the walked subschemas?
func localRawDiff(a, b *value) bool {
	if a.kind != vObj || b.kind != vObj {
		return !rawEqual(a, b)
	}
	x, y := a.members(), b.members()
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case j >= len(y) || (i < len(x) && x[i].k < y[j].k):
			if !walkedKey(x[i].k) {
				return true
			}
			i++
		case i >= len(x) || x[i].k > y[j].k:
			if !walkedKey(y[j].k) {
				return true
			}
			j++
		default:
			if !walkedKey(x[i].k) && !rawEqual(x[i].v, y[j].v) {
				return true
			}
			i++
			j++
		}
	}
	return false
}

// rewriteWhy names the most likely kind of rewrite, for the message.
func rewriteWhy(bo, ho *node) string {
	switch {
	case (bo.aliasKind == "$ref") != (ho.aliasKind == "$ref"):
		if ho.aliasKind == "$ref" {
			return "subschema moved behind a $ref"
		}
		return "$ref inlined"
	case bo.aliasKind == "$ref" && ho.aliasKind == "$ref" && bo.refStr != ho.refStr:
		return "$ref target renamed"
	}
	b, h := bo.d.res(bo), ho.d.res(ho)
	if b != nil && h != nil && b.hoisted != h.hoisted {
		if h.hoisted != "" {
			return "union wrapped in a single-branch " + h.hoisted + " with the same branches"
		}
		return "union unwrapped from a single-branch " + b.hoisted + " with the same branches"
	}
	return ""
}

// body runs every keyword family on a resolved pair. Each family that sees
// a difference must report it; if it reports nothing although its keywords
// differ, the pair is reported undecidable (fail closed).
func (c *walker) body(b, h *node) {
	if b.isFalse || h.isFalse {
		c.falseSchema(b, h)
		return
	}
	if b.opaque != "" || h.opaque != "" {
		c.opaquePair(b, h)
		return
	}
	b, h = foldPair(b, h)
	if c.unionWrapped(b, h) || c.liftUnion(b, h) {
		return
	}
	c.family(b, h, "type", c.types, eqTypes)
	c.family(b, h, "enum/const", c.values, eqValsBeyondType)
	// The keywords of a type only one side accepts came with the type
	// change, which reports them: string minLength 1 → integer minimum 0 is
	// one type change, not also a minimum added and a minLength removed.
	if !typeOnOneSide(b, h, tNumber) {
		c.family(b, h, "numeric", c.numbers, eqNumbers)
	}
	if !typeOnOneSide(b, h, tStr) {
		c.family(b, h, "string", c.strings, c.sh.eqStrings)
	}
	if !typeOnOneSide(b, h, tObj) {
		c.family(b, h, "object", c.objects, c.sh.eqObjectsLocal)
	}
	if !typeOnOneSide(b, h, tArr) {
		c.family(b, h, "array", c.arrays, c.sh.eqArraysLocal)
	}
	c.family(b, h, "composition", c.composition, c.sh.eqCompositionLocal)
	c.family(b, h, "unknown keyword", c.unknownKeywords, eqUnknown)
}

// typeOnOneSide: both sides name their types and exactly one accepts some
// value of type t (the other's keywords for t were dropped as inapplicable).
func typeOnOneSide(b, h *node, t uint8) bool {
	return b.hasType && h.hasType && (b.types&t == 0) != (h.types&t == 0)
}

func (c *walker) family(b, h *node, name string, run func(b, h *node), eq func(b, h *node) bool) {
	if c.stop() {
		return
	}
	l0 := c.local
	run(b, h)
	if c.local == l0 && !c.stop() && !eq(b, h) {
		c.undecidable(b.P(), h.P(), nil, nil, "%s keywords changed in a way no rule explains", name)
	}
}

// falseSchema handles a `false` schema on either side: `false` accepts
// nothing, like {not: {}}.
func (c *walker) falseSchema(b, h *node) {
	switch {
	case b.isFalse && h.isFalse:
	case h.isFalse:
		c.emit(c.rule(rules.InputNotAdded, rules.OutputNotAdded), b.P(), h.P(), b.raw, h.raw, "schema became false: no value is accepted any more")
	default:
		c.emit(c.rule(rules.InputNotRemoved, rules.OutputNotRemoved), b.P(), h.P(), b.raw, h.raw, "schema was false (accepted nothing) and now accepts values")
	}
}

func (c *walker) opaquePair(b, h *node) {
	if b.opaque != "" && h.opaque != "" && b.opaqueKey == h.opaqueKey {
		return
	}
	why := h.opaque
	unres := h.unresRef
	side := "head"
	if b.opaque != "" && (h.opaque == "" || !h.unresRef) {
		why, unres, side = b.opaque, b.unresRef, "base"
	}
	if unres {
		c.emit(c.rule(rules.InputRefUnresolvable, rules.OutputRefUnresolvable), b.P(), h.P(), b.raw, h.raw, "%s: %s; the referenced subschema cannot be compared", side, why)
		return
	}
	c.undecidable(b.P(), h.P(), b.raw, h.raw, "%s: %s; cannot compare", side, why)
}

// compositionWrapper is the first single-branch composition an outer node
// passes through on its way to the resolved node ("" if none).
func compositionWrapper(o *node) string {
	for i, n := 0, o; n != nil && i < 64; i, n = i+1, n.aliasTo {
		if n.aliasKind == "allOf" || n.aliasKind == "anyOf" || n.aliasKind == "oneOf" {
			return n.aliasKind
		}
	}
	return ""
}

func (c *walker) wrappers(bo, ho, b, h *node) {
	if b.nullWrap != "" || h.nullWrap != "" {
		return // reported as a nullability change
	}
	bw, hw := compositionWrapper(bo), compositionWrapper(ho)
	if bw == hw {
		return
	}
	var msg string
	switch {
	case bw == "":
		msg = fmt.Sprintf("schema wrapped in a single-branch %s", hw)
	case hw == "":
		msg = fmt.Sprintf("schema unwrapped from a single-branch %s", bw)
	default:
		msg = fmt.Sprintf("single-branch %s wrapper became %s", bw, hw)
	}
	c.emit(c.rule(rules.InputWrappedInComposition, rules.OutputWrappedInComposition), bo.P(), ho.P(), nil, nil, "%s", msg)
}

// ---- equality (the ground truth the fail-closed checks rely on) ----

// eq reports whether two subschemas accept exactly the same values, as far
// as structure shows (a coinductive comparison, so recursive schemas
// terminate). False when unsure.
func (s *shared) eq(x, y *node) bool {
	x, y = foldPair(x.d.res(x), y.d.res(y))
	if x == y {
		return true
	}
	key := pairKey{x, y}
	if v, ok := s.eqMemo[key]; ok {
		return v
	}
	if s.eqBusy[key] {
		return true
	}
	if s.eqDepth > 2*s.opts.MaxDepth+16 {
		return false
	}
	s.budget--
	if s.budget <= 0 {
		return false
	}
	if s.eqMemo == nil {
		s.eqMemo = make(map[pairKey]bool, 64)
		s.eqBusy = make(map[pairKey]bool, 16)
	}
	s.eqBusy[key] = true
	s.eqDepth++
	r := s.eqLocal(x, y) && s.eqChildren(x, y)
	s.eqDepth--
	delete(s.eqBusy, key)
	if !r {
		s.eqMemo[key] = false
	} else if len(s.eqBusy) == 0 {
		// Only a finished top-level proof makes the assumed pairs true.
		s.eqMemo[key] = true
		for _, k := range s.eqPending {
			s.eqMemo[k] = true
		}
		s.eqPending = s.eqPending[:0]
	} else {
		s.eqPending = append(s.eqPending, key)
	}
	if len(s.eqBusy) == 0 && !r {
		s.eqPending = s.eqPending[:0]
	}
	return r
}

func (s *shared) eqLocal(x, y *node) bool {
	if x.isFalse != y.isFalse {
		return false
	}
	if x.isFalse {
		return true
	}
	if x.opaque != "" || y.opaque != "" {
		return x.opaque != "" && y.opaque != "" && x.opaqueKey == y.opaqueKey
	}
	return eqTypes(x, y) && eqVals(x, y) && eqNumbers(x, y) && eqStringsLocal(x, y) &&
		eqObjectsShape(x, y) && eqArraysShape(x, y) && eqCompositionShape(x, y) && eqUnknown(x, y)
}

func (s *shared) eqOpt(x, y *node) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	return s.eq(x, y)
}

func (s *shared) eqNamed(x, y []named) bool {
	for i := range x {
		if !s.eq(x[i].n, y[i].n) {
			return false
		}
	}
	return true
}

func (s *shared) eqChildren(x, y *node) bool {
	if x.isFalse || x.opaque != "" {
		return true
	}
	if !s.eqOpt(x.contentSchema, y.contentSchema) ||
		!s.eqNamed(x.props, y.props) || !s.eqNamed(x.patProps, y.patProps) ||
		!s.eqNamed(effNamed(x.depSchemas), effNamed(y.depSchemas)) ||
		!s.eqOpt(eff(x.addl), eff(y.addl)) || !s.eqOpt(eff(x.uneval), eff(y.uneval)) ||
		!s.eqOpt(eff(x.propNames), eff(y.propNames)) {
		return false
	}
	for i := range x.prefix {
		if !s.eq(x.prefix[i], y.prefix[i]) {
			return false
		}
	}
	if !s.eqOpt(eff(x.items), eff(y.items)) || !s.eqOpt(eff(x.unevalItems), eff(y.unevalItems)) ||
		!s.eqOpt(x.contains, y.contains) || !s.eqOpt(x.not, y.not) ||
		!s.eqOpt(x.ifS, y.ifS) || !s.eqOpt(eff(x.thenS), eff(y.thenS)) || !s.eqOpt(eff(x.elseS), eff(y.elseS)) {
		return false
	}
	return s.eqMultiset(effList(x.allOf), effList(y.allOf)) && s.eqMultiset(x.anyOf, y.anyOf) && s.eqMultiset(x.oneOf, y.oneOf)
}

// eqMultiset: same length and a one-to-one pairing of equal members (eq is
// an equivalence, so first-fit pairing is enough).
func (s *shared) eqMultiset(x, y []*node) bool {
	if len(x) != len(y) {
		return false
	}
	if len(x) == 0 {
		return true
	}
	used := make([]bool, len(y))
outer:
	for i := range x {
		if !used[i] && s.eq(x[i], y[i]) {
			used[i] = true
			continue
		}
		for j := range y {
			if !used[j] && s.eq(x[i], y[j]) {
				used[j] = true
				continue outer
			}
		}
		return false
	}
	return true
}

// eff returns nil for an absent or accept-everything subschema: for
// additionalProperties, items, propertyNames and similar, `true`, {} and
// absent mean the same.
func eff(n *node) *node {
	if n == nil {
		return nil
	}
	if trueish(n) {
		return nil
	}
	return n
}

func trueish(n *node) bool {
	r := n.d.res(n)
	return r != nil && !r.hasAssertions()
}

func effNamed(l []named) []named {
	for _, e := range l {
		if trueish(e.n) {
			out := make([]named, 0, len(l))
			for _, e := range l {
				if !trueish(e.n) {
					out = append(out, e)
				}
			}
			return out
		}
	}
	return l
}

func effList(l []*node) []*node {
	for _, e := range l {
		if trueish(e) {
			out := make([]*node, 0, len(l))
			for _, e := range l {
				if !trueish(e) {
					out = append(out, e)
				}
			}
			return out
		}
	}
	return l
}

// ---- proofs ----

// compatible reports whether the change from b to h is provably safe in
// direction dir (no risky or breaking change found).
func (c *walker) compatible(b, h *node, dir Direction) bool {
	rb, rh := b.d.res(b), h.d.res(h)
	if rb == nil || rh == nil {
		return false
	}
	key := compatKey{rb, rh, dir}
	if v, ok := c.sh.compat[key]; ok {
		return v
	}
	if c.sh.compat == nil {
		c.sh.compat = make(map[compatKey]bool, 16)
		c.sh.compatBusy = make(map[compatKey]bool, 8)
	}
	if c.sh.compatBusy[key] {
		return true
	}
	if c.sh.budget <= 0 {
		return false
	}
	c.sh.compatBusy[key] = true
	s := newCmp(dir, c.sh, true)
	s.depth = c.depth
	s.compare(b, h)
	delete(c.sh.compatBusy, key)
	r := !s.unsafe
	c.sh.compat[key] = r
	return r
}

// subset reports whether every value x accepts is accepted by y.
func (c *walker) subset(x, y *node) bool { return c.compatible(x, y, Input) }
