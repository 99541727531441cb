package schemadiff

import (
	kw "github.com/mcp-surface/mcp-surface/internal/base/jsonschemakw"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// annLookup finds annotation kw for an outer node: on the node itself, else
// on the wrappers' targets ($ref, single-branch composition), so a
// description written next to a $ref wins over the target's. It returns
// the node that carries it (outer when absent).
func annLookup(outer *node, kw string) (*value, *node) {
	outer.d.res(outer) // reads the keywords and follows the wrappers
	for i, n := 0, outer; n != nil && i < 64; i, n = i+1, n.aliasTo {
		if v := n.annGet(kw); v != nil {
			return v, n
		}
	}
	return nil, outer
}

var annotationKeywords = []string{"description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "x-mcp-header"}

// annotations compares the keywords that describe rather than constrain.
// Only the input direction has rules for title, examples, readOnly/writeOnly
// and x-mcp-header; in the output direction those changes are equivalent
// rewrites (reported by the rewrite pass when nothing else changed).
func (c *walker) annotations(bo, ho, b, h *node) {
	if !hasAnnotations(bo) && !hasAnnotations(ho) {
		return
	}
	for _, kw := range annotationKeywords {
		bv, bn := annLookup(bo, kw)
		hv, hn := annLookup(ho, kw)
		if rawEqual(bv, hv) {
			continue
		}
		bp, hp := ptrJoin(bn.P(), kw), ptrJoin(hn.P(), kw)
		what := verbOf(bv, hv)
		switch kw {
		case "description":
			c.emit(c.rule(rules.InputPropertyDescriptionChanged, rules.OutputPropertyDescriptionChanged), bp, hp, bv, hv, "description %s", what)
		case "title":
			if c.dir == Input {
				c.emit(rules.InputPropertyTitleChanged, bp, hp, bv, hv, "title %s", what)
			}
		case "default":
			if c.dir == Output {
				c.emit(c.rule(rules.InputDefaultChanged, rules.OutputDefaultChanged), bp, hp, bv, hv, "default %s", describeChange(bv, hv))
				break
			}
			c.valueChange(kw, rules.InputDefaultAdded, rules.InputDefaultRemoved, rules.InputDefaultChanged, bp, hp, bv, hv)
		case "examples", "example":
			if c.dir == Input {
				c.emit(rules.InputExamplesChanged, bp, hp, bv, hv, "%s %s", kw, what)
			}
		case "deprecated":
			bd := bv != nil && bv.kind == vBool && bv.b
			hd := hv != nil && hv.kind == vBool && hv.b
			if hd && !bd {
				c.emit(c.rule(rules.InputPropertyDeprecated, rules.OutputPropertyDeprecated), bp, hp, bv, hv, "marked deprecated")
			}
		case "readOnly", "writeOnly":
			if c.dir == Input {
				c.emit(rules.InputReadWriteOnlyChanged, bp, hp, bv, hv, "%s %s", kw, describeChange(bv, hv))
			}
		case "x-mcp-header":
			if c.dir == Input {
				c.valueChange(kw, rules.InputMcpHeaderAdded, rules.InputMcpHeaderRemoved, rules.InputMcpHeaderChanged, bp, hp, bv, hv)
			}
		}
	}
}

// valueChange reports keyword kw's value added, removed or changed, with
// the rule for each.
func (c *walker) valueChange(kw, added, removed, changed, bp, hp string, bv, hv *value) {
	switch {
	case bv == nil:
		c.emit(added, bp, hp, bv, hv, "%s %s added", kw, short(hv))
	case hv == nil:
		c.emit(removed, bp, hp, bv, hv, "%s %s removed", kw, short(bv))
	default:
		c.emit(changed, bp, hp, bv, hv, "%s changed from %s to %s", kw, short(bv), short(hv))
	}
}

// hasAnnotations: does the node or a wrapper it passes through carry any
// annotation keyword.
func hasAnnotations(outer *node) bool {
	outer.d.res(outer)
	for i, n := 0, outer; n != nil && i < 64; i, n = i+1, n.aliasTo {
		if n.keywords != nil && len(n.ann) > 0 {
			return true
		}
	}
	return false
}

func verbOf(b, h *value) string {
	switch {
	case b == nil:
		return "added"
	case h == nil:
		return "removed"
	}
	return "changed"
}

func describeChange(b, h *value) string {
	switch {
	case b == nil:
		return short(h) + " added"
	case h == nil:
		return short(b) + " removed"
	}
	return "changed from " + short(b) + " to " + short(h)
}

func eqUnknown(b, h *node) bool {
	if len(b.unknown) != len(h.unknown) {
		return false
	}
	for i := range b.unknown {
		if b.unknown[i].k != h.unknown[i].k || !rawEqual(b.unknown[i].v, h.unknown[i].v) {
			return false
		}
	}
	return true
}

// unknownKeywords: keywords this comparison does not model (vendor
// extensions, $dynamicRef, keywords in an unsupported form) are compared as
// raw JSON, and any difference is undecidable.
func (c *walker) unknownKeywords(b, h *node) {
	i, j := 0, 0
	for i < len(b.unknown) || j < len(h.unknown) {
		switch {
		case j >= len(h.unknown) || (i < len(b.unknown) && b.unknown[i].k < h.unknown[j].k):
			m := b.unknown[i]
			c.undecidable(ptrJoin(b.P(), m.k), ptrJoin(h.P(), m.k), m.v, nil, "keyword %q removed; %s", m.k, unknownWhy(m.k))
			i++
		case i >= len(b.unknown) || b.unknown[i].k > h.unknown[j].k:
			m := h.unknown[j]
			c.undecidable(ptrJoin(b.P(), m.k), ptrJoin(h.P(), m.k), nil, m.v, "keyword %q added; %s", m.k, unknownWhy(m.k))
			j++
		default:
			mb, mh := b.unknown[i], h.unknown[j]
			if !rawEqual(mb.v, mh.v) {
				c.undecidable(ptrJoin(b.P(), mb.k), ptrJoin(h.P(), mh.k), mb.v, mh.v, "keyword %q changed; %s", mb.k, unknownWhy(mb.k))
			}
			i++
			j++
		}
	}
}

func unknownWhy(k string) string {
	switch k {
	case "$dynamicRef", "$recursiveRef":
		return "dynamic references depend on the evaluation path and are not compared"
	}
	if knownKeyword(k) {
		return "its value has a form this comparison does not support"
	}
	return "the keyword is not understood by this comparison"
}

// knownKeyword: the comparison has rules for the keyword (every assertion
// and applicator, $ref, and the OpenAPI "nullable" and draft-04 "id" it
// reads).
func knownKeyword(k string) bool {
	return kw.Assertion(k) || kw.Applicator(k) || k == "$ref" || k == "nullable" || k == "id"
}
