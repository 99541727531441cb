package witness

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// maxPatternWork bounds the transitions all pattern searches of one Find
// may try together.
const maxPatternWork = 200000

// Options tune the search. The zero value is ready to use.
type Options struct {
	// Budget bounds the validations one Find may run. Default 2000.
	Budget int
	// Dialect is assumed for a schema without $schema: "2020-12" (default)
	// or "draft-07", as schemadiff.Options.Dialect.
	Dialect string
	// Cache, when set, shares compiled schemas with the other Pairs that
	// use it (one comparison's); nil compiles each side anew.
	Cache *Cache
}

// Pair is the two schemas of one tool's inputSchema or outputSchema. Each
// side is decoded and compiled once, on first use, and reused for every
// change of the pair. A Pair is not safe for concurrent use.
type Pair struct {
	raw  [2]json.RawMessage
	dir  schemadiff.Direction
	opts Options

	once  sync.Once
	err   error
	sides [2]*side
}

type side struct {
	name string
	doc  *doc
	v    *validator // the whole schema, compiled; nil for a wide side
	wide *wideSide

	root       any
	dialect    string
	assertOnce sync.Once
	assertV    *validator
}

// asserting is the side compiled with formats asserted, compiled on first
// use; nil when its schema names no format (or it is wide).
func (s *side) asserting() *validator {
	s.assertOnce.Do(func() {
		if s.wide != nil || !hasFormat(s.root) {
			return
		}
		s.assertV, _ = compileAsserting(s.name, s.root, s.dialect)
	})
	return s.assertV
}

// validate validates an instance against the side's schema.
func (s *side) validate(inst any) result {
	if s.wide != nil {
		return s.wide.validate(inst)
	}
	return s.v.validate(inst)
}

// NewPair prepares the search for one schema pair in one direction: for
// Input a witness is a value base accepts and head rejects (a call that
// worked and now fails), for Output one head accepts and base rejects (a
// result clients did not expect).
func NewPair(base, head json.RawMessage, dir schemadiff.Direction, opts Options) *Pair {
	if opts.Budget <= 0 {
		opts.Budget = 2000
	}
	if opts.Dialect == "" {
		opts.Dialect = "2020-12"
	}
	return &Pair{raw: [2]json.RawMessage{base, head}, dir: dir, opts: opts}
}

func (p *Pair) prepare() error {
	p.once.Do(func() {
		for i, name := range []string{finding.SideBase, finding.SideHead} {
			raw := p.raw[i]
			if len(raw) == 0 {
				raw = json.RawMessage("{}")
			}
			v, err := p.opts.Cache.Decode(raw)
			if err == nil {
				if w := newWideSide(name, v, p.opts.Dialect); w != nil {
					if err = w.check(); err == nil {
						p.sides[i] = &side{name: name, doc: newDoc(v, p.opts.Dialect), wide: w, root: v, dialect: p.opts.Dialect}
						continue
					}
				} else {
					var val *validator
					if val, err = p.opts.Cache.compile(name, v, p.opts.Dialect); err == nil {
						p.sides[i] = &side{name: name, doc: newDoc(v, p.opts.Dialect), v: val, root: v, dialect: p.opts.Dialect}
						continue
					}
				}
			}
			if p.err == nil { // the first side's reason; the other's is usually the same
				p.err = fmt.Errorf("%s schema: %w", name, err)
			}
		}
	})
	return p.err
}

// Err reports why the pair cannot be searched at all: a schema that is
// not JSON or that the validator does not compile (an external reference,
// an invalid keyword). nil when both sides compile.
func (p *Pair) Err() error { return p.prepare() }

// Check validates one instance against both schemas. An error says the
// schemas do not compile (external references, invalid keywords), the
// instance is not JSON, or the answer cannot be trusted (a pattern the
// engines might read differently was consulted).
func (p *Pair) Check(value json.RawMessage) (baseOK, headOK bool, err error) {
	if err := p.prepare(); err != nil {
		return false, false, err
	}
	inst, err := canonjson.Decode(value)
	if err != nil {
		return false, false, err
	}
	b, h := p.sides[0].validate(inst), p.sides[1].validate(inst)
	if !b.trusted || !h.trusted {
		return b.ok, h.ok, errors.New("a pattern outside the subset both regular expression engines agree on was consulted")
	}
	return b.ok, h.ok, nil
}

// Find searches for a witness of one change: a whole instance that the
// accepting side validates and the other rejects, where a leaf error of
// the rejection lies at or under the change's pointer on that side.
// Among those, one whose every rejection is the change's is preferred.
// others are the pair's other changes (c among them or not): a rejection
// inside one of them is that change's, so that a second change in the
// same schema never proves the wrong finding.
func (p *Pair) Find(c schemadiff.Change, others ...schemadiff.Change) (finding.Witness, bool) {
	r := p.Search(c, others...)
	return r.Witness, r.Found
}

// Result is what one search made of a change.
type Result struct {
	// Witness is the instance found, when Found.
	Witness finding.Witness
	Found   bool
	// GaveUp, when not empty, says which bound stopped the search before
	// it had tried every candidate ("the budget of 2000 validations", "the
	// route search's 4096 subschemas"): the change may still have a
	// witness, so a caller must not read its absence as evidence.
	GaveUp string
	// Tried is the number of validations the search ran.
	Tried int
}

// Search is Find with the account of how the search ended: a witness, a
// search that tried every candidate without one, or one that gave up at
// a bound (Result.GaveUp).
func (p *Pair) Search(c schemadiff.Change, others ...schemadiff.Change) Result {
	if p.prepare() != nil {
		return Result{}
	}
	acc, rej := p.sides[0], p.sides[1]
	pA, pR := c.BasePointer, c.HeadPointer
	if p.dir == schemadiff.Output {
		acc, rej = rej, acc
		pA, pR = pR, pA
	}
	nA, nR := acc.doc.nodePrefix(pA), rej.doc.nodePrefix(pR)
	_, present := rej.doc.at(pR)
	absent := !present
	attr := newAttribution(pR, nR, absent, exclusions(others, c, pR, p.dir == schemadiff.Output))
	rA, ok, exhausted := acc.doc.findRoute(nA)
	if !ok {
		if exhausted {
			return Result{GaveUp: fmt.Sprintf("the route search's %d subschemas", maxRouteNodes)}
		}
		return Result{}
	}
	rR, okR, _ := rej.doc.findRoute(nR)
	focusA := rA.levels[len(rA.levels)-1].nodes
	var focusR []sref
	var ctx *route
	if okR && segsEqual(rA, rR) {
		focusR = rR.levels[len(rR.levels)-1].nodes
		ctx = &rR
	} else if v, ok := rej.doc.at(nR); ok {
		focusR = []sref{{v, nR, rej.doc}}
	}
	choose := map[at]int{}
	for k, v := range rA.choose {
		choose[k] = v
	}
	for k, v := range rR.choose {
		choose[k] = v
	}
	g := &gen{choose: choose, pwork: maxPatternWork}
	_, propFocus := rA.levels[len(rA.levels)-1].seg.(string)
	budget := p.opts.Budget
	tried := map[string]bool{}
	var found, loose, partial json.RawMessage
	// try validates one instance: stop when the search is over (a witness
	// whose every rejection is the change's, or no budget left), retry
	// when its context may be at fault (the accepting side rejected it, or
	// not every rejection was the change's).
	const (
		next = iota
		retry
		stop
	)
	try := func(inst any) int {
		raw, err := encode(inst)
		if err != nil || tried[string(raw)] {
			return retry
		}
		tried[string(raw)] = true
		budget--
		rr := rej.validate(inst)
		if rr.ok || !rr.trusted {
			return next
		}
		some, every := attr.of(rr.leaves)
		if !some {
			return retry
		}
		budget--
		ra := acc.validate(inst)
		switch {
		case !ra.ok || !ra.trusted:
			return retry
		case every && p.holdsAsserted(raw, acc, rej):
			found = raw
			return stop
		case every:
			// holds only while formats are annotations: kept, and the
			// search goes on for one that holds either way
			if loose == nil {
				loose = raw
			}
			return retry
		}
		if partial == nil {
			partial = raw
		}
		return retry
	}
	nv := namedOf(c, p.dir)
	// each tries one candidate in the context both sides allow first, the
	// accepting side's alone when that one may be what failed; false ends
	// the search.
	each := func(cd cand) bool {
		if nv != nil && (cd.absent || !nv.ok(cd.v)) {
			return true // a value this change does not name proves another
		}
		// The context both sides allow first; the accepting side's alone
		// when that one may be what failed.
		for _, c := range []*route{ctx, nil} {
			if budget < 2 {
				return false
			}
			st := retry
			if inst, ok := g.build(rA, c, cd); ok {
				st = try(inst)
			}
			if st == stop {
				return false
			}
			if st == next || ctx == nil {
				break
			}
		}
		return budget >= 2
	}
	complete := true
	if nv != nil {
		first := slices.Clone(nv.values)
		for _, t := range nv.types {
			g.work = maxWork
			if v, ok := g.valueAs(focusA, t, 0); ok {
				first = append(first, v)
			}
		}
		for _, v := range first {
			if complete = each(cand{v: v}); !complete {
				break
			}
		}
	}
	if complete && found == nil {
		complete = g.candidates(focusA, focusR, propFocus, each)
	}
	res := Result{Tried: p.opts.Budget - budget}
	switch {
	case found != nil:
		res.Witness, res.Found = p.witness(found, acc, rej), true
	case loose != nil:
		res.Witness, res.Found = p.witness(loose, acc, rej), true
	case partial != nil:
		res.Witness, res.Found = p.witness(partial, acc, rej), true
	case budget < 2:
		res.GaveUp = fmt.Sprintf("the budget of %d validations", p.opts.Budget)
	case !complete:
		res.GaveUp = fmt.Sprintf("the first %d candidate values", maxCands)
	case g.exhausted:
		res.GaveUp = "the bounds on building one value (depth, steps, pattern search)"
	}
	return res
}

func (p *Pair) witness(raw json.RawMessage, acc, rej *side) finding.Witness {
	w := finding.Witness{Value: raw, Accepts: acc.name, Rejects: rej.name}
	if !p.holdsAsserted(raw, acc, rej) {
		w.Formats = "holds while format is an annotation (the JSON Schema default); no value was found that also holds when formats are asserted"
	}
	return w
}

// holdsAsserted reports whether a witness also holds for a validator that
// asserts formats: the accepting side still accepts it and the other still
// rejects it. A pair without formats (or a wide side, compiled per
// instance) holds trivially.
func (p *Pair) holdsAsserted(raw json.RawMessage, acc, rej *side) bool {
	av, rv := acc.asserting(), rej.asserting()
	if av == nil && rv == nil {
		return true
	}
	inst, err := canonjson.Decode(raw)
	if err != nil {
		return false
	}
	if av != nil && !av.validate(inst).ok {
		return false
	}
	return rv == nil || !rv.validate(inst).ok
}

// attribution decides which leaf errors of a rejection belong to the
// change at pointer ptr (whose subschema is at node): those at or under
// ptr or node, or, for a change to a property itself (added, removed,
// became required), at the object keywords that decide its presence when
// the error is about that name. A value matching two oneOf branches is
// rejected at each of them (see leafLocations), so an overlap is
// attributed to a changed branch only when that branch is one it matched.
// A leaf inside an excluded pointer (another change of the pair, not an
// enclosing one) is that change's, never this one's.
type attribution struct {
	allowed  []string
	objKw    []string // property changes: the object keywords
	about    func(names []string) bool
	excluded []string
}

func newAttribution(ptr, node string, absent bool, excluded []string) *attribution {
	parent, name := parentOf(ptr)
	gp, kw := parentOf(parent)
	property := kw == "properties" || kw == "patternProperties"
	a := &attribution{allowed: []string{ptr}, excluded: excluded}
	if absent && !property {
		// What changed is not there on the rejecting side (a branch or
		// keyword added): the nearest subschema that is rejects for it.
		// A property is not: the object keywords below decide whether
		// its name is accepted, and only an error about its name is its.
		a.allowed = append(a.allowed, node)
	}
	if rest, ok := strings.CutPrefix(ptr, node+"/"); ok && node != ptr {
		// ptr names a keyword (or a member of one) of node's subschema:
		// the whole keyword, as the validator reports it ("/enum", not
		// "/enum/1"), or the named member of a map of schemas.
		toks := strings.SplitN(rest, "/", 3)
		k := node + "/" + toks[0]
		if jsonschemakw.HoldsMap(jsonptr.Unescape(toks[0])) && len(toks) > 1 {
			k += "/" + toks[1]
		}
		a.allowed = append(a.allowed, k)
	}
	if property {
		for _, k := range []string{"required", "additionalProperties", "unevaluatedProperties", "dependentRequired", "dependencies", "propertyNames"} {
			a.objKw = append(a.objKw, gp+"/"+k)
		}
		a.about = func(names []string) bool { return slices.Contains(names, name) }
		if kw == "patternProperties" {
			re, ok := compileECMA(name)
			a.about = func(names []string) bool {
				return !ok || slices.ContainsFunc(names, re.MatchString)
			}
		}
	}
	return a
}

// of reports whether some (and whether every) leaf is the change's.
func (a *attribution) of(leaves []leaf) (some, every bool) {
	every = len(leaves) > 0
	for _, l := range leaves {
		ok := withinAny(l.loc, a.allowed) ||
			a.about != nil && withinAny(l.loc, a.objKw) && a.about(l.names)
		ok = ok && !withinAny(l.loc, a.excluded)
		some = some || ok
		every = every && ok
	}
	return some, every
}

func withinAny(loc string, ps []string) bool {
	for _, p := range ps {
		if within(loc, p) {
			return true
		}
	}
	return false
}

// exclusions are the rejecting side's pointers of the pair's other
// changes, but for those at or above the change's own pointer (a change
// to an enclosing subschema contains this one).
func exclusions(others []schemadiff.Change, c schemadiff.Change, pR string, output bool) []string {
	var out []string
	for _, o := range others {
		oR := o.HeadPointer
		if output {
			oR = o.BasePointer
		}
		if o.BasePointer == c.BasePointer && o.HeadPointer == c.HeadPointer || within(pR, oR) || slices.Contains(out, oR) {
			continue
		}
		out = append(out, oR)
	}
	return out
}
