package schemadiff

import (
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// eqArraysShape compares the array keywords except the subschemas below
// them (which the array family recurses into).
func eqArraysShape(b, h *node) bool {
	return len(b.prefix) == len(h.prefix) &&
		(eff(b.items) == nil) == (eff(h.items) == nil) &&
		(eff(b.unevalItems) == nil) == (eff(h.unevalItems) == nil) &&
		(b.contains == nil) == (h.contains == nil) &&
		eqNum(b.minItems, h.minItems) && eqNum(b.maxItems, h.maxItems) &&
		eqNum(b.minContains, h.minContains) && eqNum(b.maxContains, h.maxContains) &&
		b.unique == h.unique
}

func (s *shared) eqArraysLocal(b, h *node) bool { return eqArraysShape(b, h) }

// closedTail: the array rejects elements past the tuple.
func closedTail(n *node) bool {
	if it := eff(n.items); it != nil {
		return isFalseNode(it)
	}
	return isFalseNode(eff(n.unevalItems))
}

func (c *walker) arrays(b, h *node) {
	nb, nh := len(b.prefix), len(h.prefix)
	for i := 0; i < nb && i < nh; i++ {
		c.sub("["+strconv.Itoa(i)+"]", b.prefix[i], h.prefix[i])
	}
	bpk, hpk := b.kw("prefixItems"), h.kw("prefixItems")
	switch {
	case nh > nb:
		bp, hp := ptrJoin(b.P(), bpk, strconv.Itoa(nb)), h.prefix[nb].P()
		if closedTail(b) {
			c.emit(c.rule(rules.InputExtraItemsAllowed, rules.OutputExtraItemsAllowed), bp, hp, nil, h.prefix[nb].raw, "tuple lengthened from %d to %d positions that base rejected", nb, nh)
		} else {
			what := "prefixItems added"
			if nb > 0 {
				what = "prefixItems lengthened from " + strconv.Itoa(nb) + " to " + strconv.Itoa(nh)
			}
			c.emit(c.rule(rules.InputPrefixItemsAdded, rules.OutputPrefixItemsAdded), bp, hp, nil, h.prefix[nb].raw, "%s", what)
			if bi := eff(b.items); bi != nil {
				for i := nb; i < nh; i++ {
					c.sub("["+strconv.Itoa(i)+"]", bi, h.prefix[i])
				}
			}
		}
	case nb > nh:
		bp, hp := b.prefix[nh].P(), ptrJoin(h.P(), hpk, strconv.Itoa(nh))
		if closedTail(h) {
			c.emit(c.rule(rules.InputExtraItemsDisallowed, rules.OutputExtraItemsDisallowed), bp, hp, b.prefix[nh].raw, nil, "tuple shortened from %d to %d; the positions dropped are now rejected", nb, nh)
		} else {
			what := "prefixItems removed"
			if nh > 0 {
				what = "prefixItems shortened from " + strconv.Itoa(nb) + " to " + strconv.Itoa(nh)
			}
			c.emit(c.rule(rules.InputPrefixItemsRemoved, rules.OutputPrefixItemsRemoved), bp, hp, b.prefix[nh].raw, nil, "%s", what)
			if hi := eff(h.items); hi != nil && !isFalseNode(hi) {
				for i := nh; i < nb; i++ {
					c.sub("["+strconv.Itoa(i)+"]", b.prefix[i], hi)
				}
			}
		}
	}
	c.itemsTail(b, h, nb > 0 || nh > 0)
	c.unevaluatedItems(b, h)
	c.containsKw(b, h)
	c.bound(b, h, "minItems", b.minItems, h.minItems, true, c.rule(rules.InputMinItemsIncreased, rules.OutputMinItemsIncreased), c.rule(rules.InputMinItemsDecreased, rules.OutputMinItemsDecreased))
	c.bound(b, h, "maxItems", b.maxItems, h.maxItems, false, c.rule(rules.InputMaxItemsDecreased, rules.OutputMaxItemsDecreased), c.rule(rules.InputMaxItemsIncreased, rules.OutputMaxItemsIncreased))
	if b.unique != h.unique {
		bp, hp := ptrJoin(b.P(), "uniqueItems"), ptrJoin(h.P(), "uniqueItems")
		if h.unique {
			c.emit(c.rule(rules.InputUniqueItemsEnabled, rules.OutputUniqueItemsEnabled), bp, hp, falseValue, trueValue, "uniqueItems enabled: arrays with duplicates are rejected")
		} else {
			c.emit(c.rule(rules.InputUniqueItemsDisabled, rules.OutputUniqueItemsDisabled), bp, hp, trueValue, falseValue, "uniqueItems disabled: arrays may contain duplicates")
		}
	}
}

func (c *walker) itemsTail(b, h *node, tuple bool) {
	bi, hi := eff(b.items), eff(h.items)
	if bi == nil && hi == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), b.kw("items")), ptrJoin(h.P(), h.kw("items"))
	bf, hf := isFalseNode(bi), isFalseNode(hi)
	switch {
	case tuple && hf && !bf:
		c.emit(c.rule(rules.InputExtraItemsDisallowed, rules.OutputExtraItemsDisallowed), bp, hp, rawOf(b.items), rawOf(h.items), "elements past the tuple are now rejected")
	case tuple && bf && !hf:
		c.emit(c.rule(rules.InputExtraItemsAllowed, rules.OutputExtraItemsAllowed), bp, hp, rawOf(b.items), rawOf(h.items), "elements past the tuple are now accepted")
	case bi == nil:
		if hf {
			c.emit(c.rule(rules.InputItemsSchemaAdded, rules.OutputItemsSchemaAdded), bp, hp, nil, rawOf(h.items), "items set to false: only empty arrays are accepted")
		} else {
			c.emit(c.rule(rules.InputItemsSchemaAdded, rules.OutputItemsSchemaAdded), bp, hp, nil, rawOf(h.items), "items schema added (elements were unconstrained)")
		}
	case hi == nil:
		c.emit(c.rule(rules.InputItemsSchemaRemoved, rules.OutputItemsSchemaRemoved), bp, hp, rawOf(b.items), nil, "items schema removed: elements are unconstrained")
	default:
		c.sub("[]", bi, hi)
	}
}

func (c *walker) unevaluatedItems(b, h *node) {
	bu, hu := eff(b.unevalItems), eff(h.unevalItems)
	if bu == nil && hu == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "unevaluatedItems"), ptrJoin(h.P(), "unevaluatedItems")
	bf, hf := isFalseNode(bu), isFalseNode(hu)
	switch {
	case bu == nil:
		c.emit(c.rule(rules.InputExtraItemsDisallowed, rules.OutputExtraItemsDisallowed), bp, hp, nil, rawOf(h.unevalItems), "unevaluatedItems introduced: elements no subschema evaluates are constrained")
	case hu == nil:
		c.emit(c.rule(rules.InputExtraItemsAllowed, rules.OutputExtraItemsAllowed), bp, hp, rawOf(b.unevalItems), nil, "unevaluatedItems removed")
	case bf && hf:
	case hf:
		c.emit(c.rule(rules.InputExtraItemsDisallowed, rules.OutputExtraItemsDisallowed), bp, hp, rawOf(b.unevalItems), rawOf(h.unevalItems), "unevaluatedItems changed from a schema to false")
	case bf:
		c.emit(c.rule(rules.InputExtraItemsAllowed, rules.OutputExtraItemsAllowed), bp, hp, rawOf(b.unevalItems), rawOf(h.unevalItems), "unevaluatedItems changed from false to a schema")
	default:
		c.sub("[]", bu, hu)
	}
}

func (c *walker) containsKw(b, h *node) {
	if b.contains == nil && h.contains == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "contains"), ptrJoin(h.P(), "contains")
	switch {
	case b.contains == nil:
		c.emit(c.rule(rules.InputContainsAdded, rules.OutputContainsAdded), bp, hp, nil, h.contains.raw, "contains added: arrays need a matching element")
		return
	case h.contains == nil:
		c.emit(c.rule(rules.InputContainsRemoved, rules.OutputContainsRemoved), bp, hp, b.contains.raw, nil, "contains removed")
		return
	}
	c.sub("[contains]", b.contains, h.contains)
	c.bound(b, h, "minContains", b.minContains, h.minContains, true, c.rule(rules.InputContainsBoundsTightened, rules.OutputContainsBoundsTightened), c.rule(rules.InputContainsBoundsRelaxed, rules.OutputContainsBoundsRelaxed))
	c.bound(b, h, "maxContains", b.maxContains, h.maxContains, false, c.rule(rules.InputContainsBoundsTightened, rules.OutputContainsBoundsTightened), c.rule(rules.InputContainsBoundsRelaxed, rules.OutputContainsBoundsRelaxed))
}
