package schemadiff

import (
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func eqCompositionShape(b, h *node) bool {
	return len(effList(b.allOf)) == len(effList(h.allOf)) && len(b.anyOf) == len(h.anyOf) && len(b.oneOf) == len(h.oneOf) &&
		(b.not == nil) == (h.not == nil) && (b.ifS == nil) == (h.ifS == nil) &&
		(eff(b.thenS) == nil) == (eff(h.thenS) == nil) && (eff(b.elseS) == nil) == (eff(h.elseS) == nil)
}

// eqCompositionLocal also covers `not` and `if`, which the family judges
// without recursing.
func (s *shared) eqCompositionLocal(b, h *node) bool {
	return eqCompositionShape(b, h) && s.eqOpt(b.not, h.not) && s.eqOpt(b.ifS, h.ifS)
}

func compList(n *node, kw string) []*node {
	switch kw {
	case "allOf":
		return n.allOf
	case "anyOf":
		return n.anyOf
	}
	return n.oneOf
}

func compKinds(n *node) []string {
	var out []string
	if len(effList(n.allOf)) > 0 {
		out = append(out, "allOf")
	}
	if len(n.anyOf) > 0 {
		out = append(out, "anyOf")
	}
	if len(n.oneOf) > 0 {
		out = append(out, "oneOf")
	}
	return out
}

func (c *walker) composition(b, h *node) {
	bk, hk := compKinds(b), compKinds(h)
	if len(bk) == 1 && len(hk) == 1 && bk[0] != hk[0] {
		c.keywordChange(b, h, bk[0], hk[0])
		c.branches(bk[0], hk[0], compList(b, bk[0]), compList(h, hk[0]), b, h)
	} else {
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			B, H := compList(b, k), compList(h, k)
			if k != "allOf" && (len(B) == 0) != (len(H) == 0) {
				c.unionAddedOrRemoved(k, b, h)
				continue
			}
			c.branches(k, k, B, H, b, h)
		}
	}
	c.notKw(b, h)
	c.conditional(b, h)
}

func (c *walker) keywordChange(b, h *node, bk, hk string) {
	bp, hp := ptrJoin(b.P(), b.kw(bk)), ptrJoin(h.P(), h.kw(hk))
	// anyOf and oneOf differ only on values matching two branches: over
	// branches that are provably pairwise disjoint (a required
	// discriminator with different values, disjoint types, ...) they accept
	// the same values. The keyword change is then no change; what changed
	// in the branches themselves is reported branch by branch.
	if (bk == "anyOf" && hk == "oneOf" && pairwiseDisjoint(compList(h, hk), typeMask(h))) ||
		(bk == "oneOf" && hk == "anyOf" && pairwiseDisjoint(compList(b, bk), typeMask(b))) {
		how := "the branches are the same and provably disjoint"
		if !c.sh.eqMultiset(compList(b, bk), compList(h, hk)) {
			how = "the oneOf branches are provably disjoint"
		}
		c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, nil, nil, "%s changed to %s; %s, so no value matches two", bk, hk, how)
		return
	}
	switch bk + ">" + hk {
	case "anyOf>oneOf", "anyOf>allOf", "oneOf>allOf":
		c.emit(c.rule(rules.InputCompositionKeywordNarrowed, rules.OutputCompositionKeywordNarrowed), bp, hp, nil, nil, "%s changed to %s", bk, hk)
	case "oneOf>anyOf", "allOf>anyOf":
		c.emit(c.rule(rules.InputCompositionKeywordWidened, rules.OutputCompositionKeywordWidened), bp, hp, nil, nil, "%s changed to %s", bk, hk)
	default: // allOf > oneOf
		if c.dir == Input {
			c.emit(c.rule(rules.InputCompositionKeywordNarrowed, rules.OutputCompositionKeywordNarrowed), bp, hp, nil, nil, "%s changed to %s: values matching every branch now match more than one", bk, hk)
		} else {
			c.undecidable(bp, hp, nil, nil, "%s changed to %s: values matching exactly one branch were not guaranteed to match all", bk, hk)
		}
	}
}

// shapeKey groups branches that are "the same kind of thing" for the last,
// heuristic pairing stage.
func shapeKey(n *node) uint8 {
	r := n.d.res(n)
	if r == nil || !r.hasType {
		return 0xff
	}
	return r.types &^ tNull
}

// branches pairs the members of two composition lists and reports the rest
// as added or removed: equal pairs first, then a maximum matching of pairs
// that are compatible in this direction, then leftovers of the same type
// (so a changed branch is reported by what changed inside it).
func (c *walker) branches(kb, kh string, B, H []*node, b, h *node) {
	if len(B) == 0 && len(H) == 0 {
		return
	}
	mB := make([]int, len(B))
	mH := make([]int, len(H))
	for i := range mB {
		mB[i] = -1
	}
	for j := range mH {
		mH[j] = -1
	}
	pair := func(i, j int) { mB[i], mH[j] = j, i }
	for i := range B {
		if i < len(H) && c.sh.eq(B[i], H[i]) {
			pair(i, i)
		}
	}
	for i := range B {
		if mB[i] >= 0 {
			continue
		}
		for j := range H {
			if mH[j] < 0 && c.sh.eq(B[i], H[j]) {
				pair(i, j)
				break
			}
		}
	}
	// Maximum matching of compatible pairs (Kuhn's augmenting paths).
	var ub, uh []int
	for i := range B {
		if mB[i] < 0 {
			ub = append(ub, i)
		}
	}
	for j := range H {
		if mH[j] < 0 {
			uh = append(uh, j)
		}
	}
	if len(ub) > 0 && len(uh) > 0 && len(ub)*len(uh) <= 256 && !c.stop() {
		adj := make([][]int8, len(ub)) // 0 unknown, 1 yes, 2 no
		for x := range adj {
			adj[x] = make([]int8, len(uh))
		}
		ok := func(x, y int) bool {
			if adj[x][y] == 0 {
				adj[x][y] = 2
				if c.compatible(B[ub[x]], H[uh[y]], c.dir) {
					adj[x][y] = 1
				}
			}
			return adj[x][y] == 1
		}
		owner := make([]int, len(uh))
		for y := range owner {
			owner[y] = -1
		}
		var try func(x int, seen []bool) bool
		try = func(x int, seen []bool) bool {
			for y := range uh {
				if seen[y] || !ok(x, y) {
					continue
				}
				seen[y] = true
				if owner[y] < 0 || try(owner[y], seen) {
					owner[y] = x
					return true
				}
			}
			return false
		}
		for x := range ub {
			try(x, make([]bool, len(uh)))
		}
		for y, x := range owner {
			if x >= 0 {
				pair(ub[x], uh[y])
			}
		}
	}
	for i := range B {
		if mB[i] >= 0 {
			continue
		}
		for j := range H {
			if mH[j] < 0 && shapeKey(B[i]) == shapeKey(H[j]) && !trueish(B[i]) && !trueish(H[j]) {
				pair(i, j)
				break
			}
		}
	}
	changed := make([]bool, len(B))
	for i := range B {
		if j := mB[i]; j >= 0 {
			// a branch rewritten without changing its values (a wrapper, a
			// tautology) cannot start overlapping another
			changed[i] = c.sub(" "+kh+"["+strconv.Itoa(branchNo(H[j], j))+"]", B[i], H[j]) > 0 && !c.sh.eq(B[i], H[j])
		}
	}
	for i := range B {
		if mB[i] < 0 {
			c.branchRemoved(kb, B, i, H, b, h)
		}
	}
	for j := range H {
		if mH[j] < 0 {
			c.branchAdded(kh, H, j, B, b, h)
		}
	}
	if kb == "oneOf" && kh == "oneOf" && !c.stop() {
		for i := range B {
			j := mB[i]
			if j < 0 || !changed[i] {
				continue
			}
			if c.dir == Input && !disjointFromOthers(H, j, typeMask(h)) {
				c.undecidable(B[i].entryP(), H[j].entryP(), nil, nil, "oneOf branch %d changed and may now overlap another branch (values matching two branches are rejected)", branchNo(H[j], j))
			}
			if c.dir == Output && !disjointFromOthers(B, i, typeMask(b)) {
				c.undecidable(B[i].entryP(), H[j].entryP(), nil, nil, "oneOf branch %d changed while base branches may overlap (values base rejected as matching two branches may now be returned)", branchNo(H[j], j))
			}
		}
	}
}

func listPtr(n *node, kw string) string { return ptrJoin(n.P(), n.kw(kw)) }

func (c *walker) branchRemoved(kind string, B []*node, i int, H []*node, b, h *node) {
	bp, hp := B[i].entryP(), listPtr(h, kind)
	raw := B[i].raw
	n := branchNo(B[i], i)
	switch kind {
	case "allOf":
		if trueish(B[i]) {
			c.emit(c.rule(rules.InputCompositionAnnotationOnlyChanged, rules.OutputCompositionAnnotationOnlyChanged), bp, hp, raw, nil, "allOf entry with only annotations removed")
		} else if c.subset(h, B[i]) {
			c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, raw, nil, "allOf subschema %d removed; every value the schema accepts still satisfies it", n)
		} else {
			c.emit(c.rule(rules.InputAllOfSubschemaRemoved, rules.OutputAllOfSubschemaRemoved), bp, hp, raw, nil, "allOf subschema %d removed", n)
		}
	case "anyOf":
		if c.dir == Input {
			for j := range H {
				if c.subset(B[i], H[j]) {
					c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, raw, nil, "anyOf branch %d removed; anyOf branch %d still accepts all its values", n, branchNo(H[j], j))
					return
				}
			}
		}
		c.emit(c.rule(rules.InputAnyOfBranchRemoved, rules.OutputAnyOfBranchRemoved), bp, hp, raw, nil, "anyOf branch %d removed", n)
	default:
		c.emit(c.rule(rules.InputOneOfBranchRemoved, rules.OutputOneOfBranchRemoved), bp, hp, raw, nil, "oneOf branch %d removed", n)
		if c.dir == Output && !disjointFromOthers(B, i, typeMask(b)) {
			c.undecidable(bp, hp, raw, nil, "removed oneOf branch %d may overlap another: values that matched both were invalid and may now be returned", n)
		}
	}
}

func (c *walker) branchAdded(kind string, H []*node, j int, B []*node, b, h *node) {
	bp, hp := listPtr(b, kind), H[j].entryP()
	raw := H[j].raw
	n := branchNo(H[j], j)
	switch kind {
	case "allOf":
		if trueish(H[j]) {
			c.emit(c.rule(rules.InputCompositionAnnotationOnlyChanged, rules.OutputCompositionAnnotationOnlyChanged), bp, hp, nil, raw, "allOf entry with only annotations added")
		} else if c.subset(b, H[j]) {
			c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, nil, raw, "allOf subschema %d added; every value the schema accepted already satisfies it", n)
		} else {
			c.emit(c.rule(rules.InputAllOfSubschemaAdded, rules.OutputAllOfSubschemaAdded), bp, hp, nil, raw, "allOf subschema %d added", n)
		}
	case "anyOf":
		if c.dir == Output {
			for i := range B {
				if c.subset(H[j], B[i]) {
					c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, nil, raw, "anyOf branch %d added; base anyOf branch %d already allowed all its values", n, branchNo(B[i], i))
					return
				}
			}
		}
		c.emit(c.rule(rules.InputAnyOfBranchAdded, rules.OutputAnyOfBranchAdded), bp, hp, nil, raw, "anyOf branch %d added", n)
	default:
		if c.dir == Input {
			if over := overlapping(H, j, typeMask(h)); len(over) == 0 {
				c.emit(rules.InputOneOfDisjointBranchAdded, bp, hp, nil, raw, "oneOf branch %d added; it is provably disjoint from the other branches, so it only widens", n)
			} else {
				c.emit(rules.InputOneOfBranchAdded, bp, hp, nil, raw, "oneOf branch %d added; it may overlap %s, and values matching two branches are rejected", n, over)
			}
			return
		}
		c.emit(c.rule(rules.InputOneOfBranchAdded, rules.OutputOneOfBranchAdded), bp, hp, nil, raw, "oneOf branch %d added", n)
	}
}

func (c *walker) notKw(b, h *node) {
	if b.not == nil && h.not == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "not"), ptrJoin(h.P(), "not")
	switch {
	case b.not == nil:
		c.emit(c.rule(rules.InputNotAdded, rules.OutputNotAdded), bp, hp, nil, h.not.raw, "not added: values matching it are excluded")
	case h.not == nil:
		c.emit(c.rule(rules.InputNotRemoved, rules.OutputNotRemoved), bp, hp, b.not.raw, nil, "not removed: values it excluded are allowed")
	case !c.sh.eq(b.not, h.not):
		// not S accepts more when S accepts less: the inner change judged
		// as a set relation tells which way it went. Still risky: no rule
		// proves the outcome.
		how := "the effect is not proven either way"
		fewer := c.compatible(b.not, h.not, Output) // L(h.not) ⊆ L(b.not)
		more := c.compatible(b.not, h.not, Input)   // L(b.not) ⊆ L(h.not)
		switch {
		case fewer && more:
		case fewer:
			how = "it now excludes fewer values"
		case more:
			how = "it now excludes more values"
		}
		if fewer != more && fewer == (c.dir == Input) {
			how += ", which looks safe in this direction but no rule proves it"
		}
		c.emit(c.rule(rules.InputNotChanged, rules.OutputNotChanged), bp, hp, b.not.raw, h.not.raw, "not subschema changed; %s", how)
	}
}

func (c *walker) conditional(b, h *node) {
	switch {
	case b.ifS == nil && h.ifS == nil:
		return
	case b.ifS == nil:
		c.emit(c.rule(rules.InputConditionalAdded, rules.OutputConditionalAdded), ptrJoin(b.P(), "if"), h.ifS.P(), nil, h.ifS.raw, "if/then/else added")
		return
	case h.ifS == nil:
		c.emit(c.rule(rules.InputConditionalRemoved, rules.OutputConditionalRemoved), b.ifS.P(), ptrJoin(h.P(), "if"), b.ifS.raw, nil, "if/then/else removed")
		return
	}
	if !c.sh.eq(b.ifS, h.ifS) {
		c.emit(c.rule(rules.InputConditionalChanged, rules.OutputConditionalChanged), b.ifS.P(), h.ifS.P(), b.ifS.raw, h.ifS.raw, "if condition changed; the effect on accepted values is not judged")
		return
	}
	// Same condition: then and else act like allOf members of their branch.
	for _, kw := range []string{"then", "else"} {
		bs, hs := b.thenS, h.thenS
		if kw == "else" {
			bs, hs = b.elseS, h.elseS
		}
		bs, hs = eff(bs), eff(hs)
		if bs == nil && hs == nil {
			continue
		}
		if bs == nil {
			bs = virtualTrue(b.d, ptrJoin(b.P(), kw))
		}
		if hs == nil {
			hs = virtualTrue(h.d, ptrJoin(h.P(), kw))
		}
		c.sub(" "+kw, bs, hs)
	}
}

// liftUnion compares a pure anyOf/oneOf with a schema that is not a union
// by treating the latter as a union too, so {type: string} →
// anyOf[string, number] is one branch added, not a type constraint dropped.
// A bare type set [a, b] becomes one branch per type.
func (c *walker) liftUnion(b, h *node) bool {
	bu, hu := pureUnion(b), pureUnion(h)
	if (bu == "") == (hu == "") {
		return false
	}
	single, kind := h, bu
	if hu != "" {
		single, kind = b, hu
	}
	if trueish(single) || len(single.allOf)+len(single.anyOf)+len(single.oneOf) > 0 {
		return false
	}
	// null the single side names itself: in its type set, or folded into its
	// enum from a null branch.
	valsNull := single.hasVals && len(single.vals) > 1 && valsHaveNull(single) && (!single.hasType || single.types&tNull != 0)
	explicitNull := single.orNull || (single.hasType && single.types&tNull != 0 && single.types != tNull) || valsNull
	var list []*node
	if onlyType(single) && len(typeNames(single.types&^tNull)) >= 2 {
		if single.foldedFrom != nil {
			list = single.foldedFrom
		} else {
			for _, name := range typeNames(single.types &^ tNull) {
				list = append(list, virtualType(single, name))
			}
		}
	} else {
		cp := single
		if explicitNull {
			// The single side without its null: null is compared here.
			cp = new(node)
			*cp = *single
			k := *single.keywords
			cp.keywords = &k
			cp.res, cp.resState = cp, resDone
			if cp.hasType {
				cp.types &^= tNull
			}
			if valsNull {
				i, _ := slices.BinarySearch(cp.vals, "null")
				cp.vals = slices.Delete(slices.Clone(cp.vals), i, i+1)
				cp.valVals = slices.Delete(slices.Clone(cp.valVals), i, i+1)
			}
			cp.orNull = false
			cp.nullWrap = ""
		}
		list = []*node{cp}
	}
	var B, H []*node
	unionNull, singleNull := false, acceptsNull(single)
	if bu != "" {
		B, H = compList(b, bu), list
		unionNull = b.orNull
	} else {
		B, H = list, compList(h, hu)
		unionNull = h.orNull
	}
	if unionNull != singleNull && (explicitNull || unionNull) {
		bn, hn := unionNull, singleNull
		if hu != "" {
			bn, hn = singleNull, unionNull
		}
		bp, hp := ptrJoin(b.P(), b.kw("type")), ptrJoin(h.P(), h.kw("type"))
		if hn && !bn {
			c.emit(c.rule(rules.InputBecameNullable, rules.OutputBecameNullable), bp, hp, nil, nil, "null is now allowed")
		} else {
			c.emit(c.rule(rules.InputBecameNotNullable, rules.OutputBecameNotNullable), bp, hp, nil, nil, "null is no longer allowed")
		}
	}
	c.branches(kind, kind, B, H, b, h)
	return true
}

// onlyType: the node says nothing but type (and maybe null).
func onlyType(n *node) bool {
	if !n.hasType || len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 {
		return false
	}
	save, saveNull := n.hasType, n.orNull
	n.hasType, n.orNull = false, false
	r := n.hasOwnAssertions()
	n.hasType, n.orNull = save, saveNull
	return !r
}

// virtualType is the branch {type: name} of a type set, pointing at the
// type keyword.
func virtualType(of *node, name string) *node {
	tv := strValue(name)
	raw := &value{kind: vObj, obj: []member{{"type", tv}}}
	n := &node{d: of.d, raw: raw, ptrS: of.P(), ptrOK: true, filled: true,
		keywords: &keywords{hasType: true, types: typeBits[name], typeRaw: tv, entryPtr: ptrJoin(of.P(), of.kw("type"))}}
	n.res, n.resState = n, resDone
	return n
}

func pureUnion(n *node) string {
	if n.hasOwnAssertionsIgnoringNull() || len(n.allOf) > 0 {
		return ""
	}
	switch {
	case len(n.anyOf) >= 2 && len(n.oneOf) == 0:
		return "anyOf"
	case len(n.oneOf) >= 2 && len(n.anyOf) == 0:
		return "oneOf"
	}
	return ""
}

// unionAddedOrRemoved judges an anyOf/oneOf present on one side only. An
// absent union constrains nothing, so adding one narrows (and removing one
// widens) unless a branch provably covers the side without it: then the
// values are the same.
func (c *walker) unionAddedOrRemoved(kind string, b, h *node) {
	bp, hp := listPtr(b, kind), listPtr(h, kind)
	if B := compList(b, kind); len(B) > 0 {
		braw := b.raw.get(b.kw(kind))
		if i, ok, why := c.unionCovers(kind, h, B, typeMask(b)); ok {
			c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, braw, nil, "%s removed; its branch %d already accepted every value the schema allows", kind, i)
			return
		} else if why != "" && c.dir == Output {
			c.undecidable(bp, hp, braw, nil, "%s removed: %s", kind, why)
			return
		}
		if c.dir == Input {
			c.emit(rules.InputCompositionRemoved, bp, hp, braw, nil, "%s removed: values no longer need to match one of its branches", kind)
		} else {
			c.emit(rules.OutputCompositionRemoved, bp, hp, braw, nil, "%s removed: results no longer need to match one of its branches", kind)
		}
		return
	}
	H := compList(h, kind)
	hraw := h.raw.get(h.kw(kind))
	if j, ok, why := c.unionCovers(kind, b, H, typeMask(h)); ok {
		c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, nil, hraw, "%s added; its branch %d accepts every value the schema accepted", kind, j)
		return
	} else if why != "" && c.dir == Input {
		c.undecidable(bp, hp, nil, hraw, "%s added where there was none: %s", kind, why)
		return
	}
	if c.dir == Input {
		c.emit(rules.InputCompositionAdded, bp, hp, nil, hraw, "%s added where there was none: values no branch accepts are rejected", kind)
	} else {
		c.emit(rules.OutputCompositionAdded, bp, hp, nil, hraw, "%s added where there was none: results must match its branches", kind)
	}
}

// unionCovers reports whether every value n accepts matches the union
// list: one branch accepts all of them and, for oneOf, no other branch can
// match them too. why is set when a branch covers n but the oneOf overlap
// cannot be ruled out. holder is the type mask of the node holding list.
func (c *walker) unionCovers(kind string, n *node, list []*node, holder uint8) (int, bool, string) {
	if c.stop() {
		return 0, false, ""
	}
	why := ""
	for j, br := range list {
		if !c.subset(n, br) {
			continue
		}
		if kind == "anyOf" {
			return j, true, ""
		}
		clear := true
		for k, o := range list {
			ctx := holder & typeMask(n)
			if k != j && !disjoint(n, o, ctx, 0) && !disjoint(br, o, ctx, 0) {
				clear = false
				why = "branch " + strconv.Itoa(j) + " accepts every value the schema accepted, but branch " + strconv.Itoa(k) + " may match them too (values matching two branches are rejected)"
				break
			}
		}
		if clear {
			return j, true, ""
		}
	}
	if kind == "anyOf" && typeUnionCovers(n, list) {
		return 0, true, ""
	}
	return 0, false, why
}

// typeUnionCovers: n says nothing but type, and the branches are plain
// types whose union contains n's.
func typeUnionCovers(n *node, list []*node) bool {
	if n.hasOwnAssertionsIgnoringNull() && !onlyType(n) {
		return false
	}
	var t uint8
	for _, br := range list {
		r := br.d.res(br)
		if r == nil || !(r.typeOnly() || r.isNullOnly()) {
			return false
		}
		if r.isNullOnly() {
			t |= tNull
		} else {
			t |= r.types
		}
	}
	return typeMask(n)&^t == 0
}
