package schemadiff

import (
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func inSorted(l []string, s string) bool {
	_, ok := slices.BinarySearch(l, s)
	return ok
}

func namesEqual(a, b []named) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name {
			return false
		}
	}
	return true
}

func eqDepReq(a, b []depReq) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || !slices.Equal(a[i].names, b[i].names) {
			return false
		}
	}
	return true
}

// eqObjectsShape compares the object keywords except the subschemas below
// them (which the object family recurses into).
func eqObjectsShape(b, h *node) bool {
	return slices.Equal(b.required, h.required) && namesEqual(b.props, h.props) &&
		namesEqual(b.patProps, h.patProps) && eqDepReq(b.depReq, h.depReq) &&
		namesEqual(effNamed(b.depSchemas), effNamed(h.depSchemas)) &&
		eqNum(b.minProps, h.minProps) && eqNum(b.maxProps, h.maxProps) &&
		(eff(b.addl) == nil) == (eff(h.addl) == nil) &&
		(eff(b.uneval) == nil) == (eff(h.uneval) == nil) &&
		(eff(b.propNames) == nil) == (eff(h.propNames) == nil)
}

func (s *shared) eqObjectsLocal(b, h *node) bool { return eqObjectsShape(b, h) }

func isFalseNode(n *node) bool {
	if n == nil {
		return false
	}
	r := n.d.res(n)
	return r != nil && r.isFalse
}

func rawOf(n *node) *value {
	if n == nil {
		return nil
	}
	return n.raw
}

func strValue(s string) *value { return &value{kind: vStr, s: s} }

var (
	trueValue  = &value{kind: vBool, b: true}
	falseValue = &value{kind: vBool, b: false}
	// emptyObj is shared: refDone is set so nothing ever writes to it.
	emptyObj = &value{kind: vObj, refDone: true}
)

// virtualTrue is an accept-everything schema standing where a keyword is
// absent, so "absent → S" can be compared like "{} → S".
func virtualTrue(d *doc, ptr string) *node {
	n := &node{d: d, raw: emptyObj, ptrS: ptr, ptrOK: true, filled: true, keywords: new(keywords)}
	n.res, n.resState = n, resDone
	return n
}

func (c *walker) objects(b, h *node) {
	var removed, added []named
	i, j := 0, 0
	for i < len(b.props) || j < len(h.props) {
		switch {
		case j >= len(h.props) || (i < len(b.props) && b.props[i].name < h.props[j].name):
			removed = append(removed, b.props[i])
			i++
		case i >= len(b.props) || b.props[i].name > h.props[j].name:
			added = append(added, h.props[j])
			j++
		default:
			c.propCommon(b, h, b.props[i], h.props[j])
			i++
			j++
		}
		if c.stop() {
			return
		}
	}
	for _, p := range removed {
		c.propRemoved(b, h, p)
	}
	for _, p := range added {
		c.propAdded(b, h, p)
	}
	if !c.sandbox {
		c.renames(b, h, removed, added)
	}
	c.requiredOnly(b, h)
	c.additional(b, h)
	c.unevaluated(b, h)
	c.patternProps(b, h)
	c.propertyNames(b, h)
	c.bound(b, h, "minProperties", b.minProps, h.minProps, true, c.rule(rules.InputMinPropertiesIncreased, rules.OutputMinPropertiesIncreased), c.rule(rules.InputMinPropertiesDecreased, rules.OutputMinPropertiesDecreased))
	c.bound(b, h, "maxProperties", b.maxProps, h.maxProps, false, c.rule(rules.InputMaxPropertiesDecreased, rules.OutputMaxPropertiesDecreased), c.rule(rules.InputMaxPropertiesIncreased, rules.OutputMaxPropertiesIncreased))
	c.dependentRequired(b, h)
	c.dependentSchemas(b, h)
}

func (c *walker) propCommon(b, h *node, pb, ph named) {
	c.subSeg(pathSeg{".", pb.name}, pb.n, ph.n)
	rb, rh := inSorted(b.required, pb.name), inSorted(h.required, ph.name)
	switch {
	case !rb && rh:
		c.emitNP(c.rule(rules.InputPropertyBecameRequired, rules.OutputPropertyBecameRequired), pb.n.P(), ph.n.P(), falseValue, trueValue, "property %q became required", c.propPath(pb.name))
	case rb && !rh:
		c.emitNP(c.rule(rules.InputPropertyBecameOptional, rules.OutputPropertyBecameOptional), pb.n.P(), ph.n.P(), trueValue, falseValue, "property %q became optional", c.propPath(pb.name))
	}
}

type covKind int

const (
	covOpen    covKind = iota // any value accepted under the name
	covClosed                 // the name is rejected
	covSchema                 // values must satisfy every schema in list
	covUnknown                // cannot tell (a pattern Go cannot evaluate)
)

type coverage struct {
	kind covKind
	list []*node
	by   string // the keyword that decides, for messages
}

// coverage says what object schema n does with a property name it does not
// declare: patternProperties that match it, else additionalProperties,
// else unevaluatedProperties.
func (c *walker) coverage(n *node, name string) coverage {
	var list []*node
	for _, p := range n.patProps {
		re := c.sh.regex(p.name)
		if re == nil {
			return coverage{kind: covUnknown, by: "patternProperties " + p.name}
		}
		if re.MatchString(name) {
			list = append(list, p.n)
		}
	}
	if len(list) > 0 {
		return classify(list, "patternProperties")
	}
	if n.addl != nil {
		return classify([]*node{n.addl}, "additionalProperties")
	}
	if n.uneval != nil {
		if c.mayEvaluate(n, name, 0) {
			// A subschema evaluates the name with a schema of its own: what
			// the name accepts depends on which branch applies.
			return coverage{kind: covUnknown, by: "unevaluatedProperties with a subschema that evaluates the name"}
		}
		return classify([]*node{n.uneval}, "unevaluatedProperties")
	}
	return coverage{kind: covOpen, by: "no additionalProperties"}
}

// mayEvaluate reports whether an in-place subschema of n (allOf, anyOf,
// oneOf, if/then/else, dependentSchemas, $ref members) could evaluate the
// property name, so unevaluatedProperties would not apply to it.
func (c *walker) mayEvaluate(n *node, name string, depth int) bool {
	if depth > 8 {
		return true
	}
	var subs []*node
	subs = append(subs, n.allOf...)
	subs = append(subs, n.anyOf...)
	subs = append(subs, n.oneOf...)
	for _, x := range []*node{n.ifS, n.thenS, n.elseS} {
		if x != nil {
			subs = append(subs, x)
		}
	}
	for _, e := range n.depSchemas {
		subs = append(subs, e.n)
	}
	for _, s := range subs {
		r := s.d.res(s)
		if r == nil || r.opaque != "" {
			return true
		}
		if r.isFalse {
			continue
		}
		if findNamed(r.props, name) != nil || r.addl != nil || r.uneval != nil {
			return true
		}
		for _, p := range r.patProps {
			re := c.sh.regex(p.name)
			if re == nil || re.MatchString(name) {
				return true
			}
		}
		if c.mayEvaluate(r, name, depth+1) {
			return true
		}
	}
	return false
}

func classify(list []*node, by string) coverage {
	var out []*node
	for _, s := range list {
		if isFalseNode(s) {
			return coverage{kind: covClosed, by: by}
		}
		if !trueish(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return coverage{kind: covOpen, by: by}
	}
	return coverage{kind: covSchema, list: out, by: by}
}

func isDeprecated(n *node) bool {
	v, _ := annLookup(n, "deprecated")
	return v != nil && v.kind == vBool && v.b
}

func (c *walker) propRemoved(b, h *node, p named) {
	name := p.name
	bp, hp := p.n.P(), ptrJoin(h.P(), "properties", name)
	path := c.propPath(name)
	reqB := inSorted(b.required, name)
	dep := isDeprecated(p.n)
	cov := c.coverage(h, name)
	if c.dir == Input {
		switch {
		case dep:
			c.emitNP(c.rule(rules.InputDeprecatedPropertyRemoved, rules.OutputDeprecatedPropertyRemoved), bp, hp, p.n.raw, nil, "deprecated property %q removed", path)
		case cov.kind == covUnknown:
			c.emitNP(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), bp, hp, p.n.raw, nil, "property %q removed; cannot tell whether %s still accepts it", path, cov.by)
		case cov.kind == covOpen:
			c.emitNP(rules.InputPropertyRemovedOpenSchema, bp, hp, p.n.raw, nil, "property %q removed; the schema still accepts the name but its value is no longer described", path)
		case cov.kind == covClosed:
			c.emitNP(rules.InputPropertyRemovedClosedSchema, bp, hp, p.n.raw, nil, "property %q removed and %s rejects unknown names", path, cov.by)
		default:
			ok := true
			for _, s := range cov.list {
				if !c.subset(p.n, s) {
					ok = false
					break
				}
			}
			if ok {
				c.emitNP(rules.InputPropertyRemovedCovered, bp, hp, p.n.raw, nil, "property %q removed; %s still accepts every value it allowed", path, cov.by)
			} else {
				c.emitNP(rules.InputPropertyRemovedNotCovered, bp, hp, p.n.raw, nil, "property %q removed; %s rejects some values it allowed", path, cov.by)
			}
		}
		return
	}
	switch {
	case reqB:
		c.emitNP(rules.OutputRequiredPropertyRemoved, bp, hp, p.n.raw, nil, "required property %q removed", path)
	case dep:
		c.emitNP(c.rule(rules.InputDeprecatedPropertyRemoved, rules.OutputDeprecatedPropertyRemoved), bp, hp, p.n.raw, nil, "deprecated property %q removed", path)
	case cov.kind == covUnknown:
		c.emitNP(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), bp, hp, p.n.raw, nil, "property %q removed; cannot tell what %s allows under the name", path, cov.by)
	case cov.kind == covClosed:
		c.emitNP(rules.OutputOptionalPropertyRemovedClosedSchema, bp, hp, p.n.raw, nil, "optional property %q removed; %s forbids the name", path, cov.by)
	case cov.kind == covOpen:
		c.emitNP(rules.OutputOptionalPropertyRemovedOpenSchema, bp, hp, p.n.raw, nil, "optional property %q removed; the name is now unconstrained and may be returned with any value", path)
	default:
		ok := false
		for _, s := range cov.list {
			if c.subset(s, p.n) {
				ok = true
				break
			}
		}
		if ok {
			c.emitNP(rules.OutputOptionalPropertyRemovedClosedSchema, bp, hp, p.n.raw, nil, "optional property %q removed; %s allows only values it allowed", path, cov.by)
		} else {
			c.emitNP(rules.OutputOptionalPropertyRemovedOpenSchema, bp, hp, p.n.raw, nil, "optional property %q removed; %s allows values it did not", path, cov.by)
		}
	}
}

func (c *walker) propAdded(b, h *node, p named) {
	name := p.name
	bp, hp := ptrJoin(b.P(), "properties", name), p.n.P()
	path := c.propPath(name)
	reqH := inSorted(h.required, name)
	reqB := inSorted(b.required, name)
	cov := c.coverage(b, name)
	if c.dir == Input {
		if reqH && !reqB {
			if v, _ := annLookup(p.n, "default"); v != nil {
				c.emitNP(rules.InputRequiredPropertyWithDefaultAdded, bp, hp, nil, p.n.raw, "required property %q added (its default does not make omitting it valid)", path)
			} else {
				c.emitNP(rules.InputRequiredPropertyAdded, bp, hp, nil, p.n.raw, "required property %q added", path)
			}
			return
		}
		switch cov.kind {
		case covUnknown:
			c.emitNP(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), bp, hp, nil, p.n.raw, "property %q added; cannot tell what %s accepted under the name", path, cov.by)
		case covOpen:
			c.emitNP(rules.InputOptionalPropertyAdded, bp, hp, nil, p.n.raw, "optional property %q added (the schema already accepted the name with any value)", path)
		case covClosed:
			c.emitNP(rules.InputOptionalPropertyAdded, bp, hp, nil, p.n.raw, "optional property %q added", path)
		default:
			ok := false
			for _, s := range cov.list {
				if c.subset(s, p.n) {
					ok = true
					break
				}
			}
			if ok {
				c.emitNP(rules.InputOptionalPropertyAdded, bp, hp, nil, p.n.raw, "optional property %q added; it accepts every value %s allowed under the name", path, cov.by)
			} else {
				c.emitNP(c.rule(rules.InputAdditionalPropertiesSchemaNarrowed, rules.OutputAdditionalPropertiesSchemaNarrowed), bp, hp, nil, p.n.raw, "property %q added with a schema that rejects values %s accepted under the name", path, cov.by)
			}
		}
		return
	}
	switch cov.kind {
	case covUnknown:
		c.emitNP(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), bp, hp, nil, p.n.raw, "property %q added; cannot tell whether %s allowed it", path, cov.by)
	case covOpen:
		c.emitNP(rules.OutputPropertyAdded, bp, hp, nil, p.n.raw, "property %q added", path)
	case covClosed:
		c.emitNP(rules.OutputPropertyAddedToClosedSchema, bp, hp, nil, p.n.raw, "property %q added but base %s forbids unknown names", path, cov.by)
	default:
		ok := true
		for _, s := range cov.list {
			if !c.subset(p.n, s) {
				ok = false
				break
			}
		}
		if ok {
			c.emitNP(rules.OutputPropertyAdded, bp, hp, nil, p.n.raw, "property %q added; base %s already allowed its values", path, cov.by)
		} else {
			c.emitNP(rules.OutputPropertyAddedToClosedSchema, bp, hp, nil, p.n.raw, "property %q added with values base %s does not allow", path, cov.by)
		}
	}
}

func findNamed(l []named, name string) *node {
	i, ok := slices.BinarySearchFunc(l, name, func(e named, s string) int { return strings.Compare(e.name, s) })
	if !ok {
		return nil
	}
	return l[i].n
}

// requiredOnly handles names whose required status changed but which no
// property rule above already judged.
func (c *walker) requiredOnly(b, h *node) {
	if slices.Equal(b.required, h.required) {
		return
	}
	bp, hp := ptrJoin(b.P(), "required"), ptrJoin(h.P(), "required")
	for _, name := range h.required {
		if inSorted(b.required, name) {
			continue
		}
		if findNamed(h.props, name) != nil {
			continue // common (propCommon) or added (propAdded)
		}
		c.emitNP(c.rule(rules.InputPropertyBecameRequired, rules.OutputPropertyBecameRequired), bp, hp, falseValue, trueValue, "property %q became required", c.propPath(name))
	}
	for _, name := range b.required {
		if inSorted(h.required, name) {
			continue
		}
		if findNamed(b.props, name) != nil {
			continue // common (propCommon) or removed (propRemoved)
		}
		c.emitNP(c.rule(rules.InputPropertyBecameOptional, rules.OutputPropertyBecameOptional), bp, hp, trueValue, falseValue, "property %q became optional", c.propPath(name))
	}
}

func (c *walker) additional(b, h *node) {
	ba, ha := eff(b.addl), eff(h.addl)
	if ba == nil && ha == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "additionalProperties"), ptrJoin(h.P(), "additionalProperties")
	bf, hf := isFalseNode(ba), isFalseNode(ha)
	switch {
	case ba == nil && hf:
		c.emit(c.rule(rules.InputAdditionalPropertiesDisallowed, rules.OutputAdditionalPropertiesDisallowed), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties set to false: unknown keys are rejected")
	case ba == nil:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaNarrowed, rules.OutputAdditionalPropertiesSchemaNarrowed), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties constrained to a schema (any extra key was accepted)")
	case ha == nil && bf:
		c.emit(c.rule(rules.InputAdditionalPropertiesAllowed, rules.OutputAdditionalPropertiesAllowed), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties no longer false: unknown keys are accepted")
	case ha == nil:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaWidened, rules.OutputAdditionalPropertiesSchemaWidened), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties schema removed: extra keys may have any value")
	case bf && hf:
	case hf:
		c.emit(c.rule(rules.InputAdditionalPropertiesDisallowed, rules.OutputAdditionalPropertiesDisallowed), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties changed from a schema to false: unknown keys are rejected")
	case bf:
		c.emit(c.rule(rules.InputAdditionalPropertiesAllowed, rules.OutputAdditionalPropertiesAllowed), bp, hp, rawOf(b.addl), rawOf(h.addl), "additionalProperties changed from false to a schema: some unknown keys are accepted")
	default:
		c.sub(".*", ba, ha)
	}
}

func (c *walker) unevaluated(b, h *node) {
	bu, hu := eff(b.uneval), eff(h.uneval)
	if bu == nil && hu == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "unevaluatedProperties"), ptrJoin(h.P(), "unevaluatedProperties")
	bf, hf := isFalseNode(bu), isFalseNode(hu)
	switch {
	case bu == nil:
		c.emit(c.rule(rules.InputUnevaluatedPropertiesDisallowed, rules.OutputUnevaluatedPropertiesDisallowed), bp, hp, rawOf(b.uneval), rawOf(h.uneval), "unevaluatedProperties introduced: keys no subschema evaluates are constrained")
	case hu == nil:
		c.emit(c.rule(rules.InputUnevaluatedPropertiesAllowed, rules.OutputUnevaluatedPropertiesAllowed), bp, hp, rawOf(b.uneval), rawOf(h.uneval), "unevaluatedProperties removed: keys no subschema evaluates are accepted")
	case bf && hf:
	case hf:
		c.emit(c.rule(rules.InputUnevaluatedPropertiesDisallowed, rules.OutputUnevaluatedPropertiesDisallowed), bp, hp, rawOf(b.uneval), rawOf(h.uneval), "unevaluatedProperties changed from a schema to false")
	case bf:
		c.emit(c.rule(rules.InputUnevaluatedPropertiesAllowed, rules.OutputUnevaluatedPropertiesAllowed), bp, hp, rawOf(b.uneval), rawOf(h.uneval), "unevaluatedProperties changed from false to a schema")
	default:
		c.sub(".*", bu, hu)
	}
}

// fallback is what an object schema does with names no property or
// pattern matches.
func fallback(n *node) coverage {
	if n.addl != nil {
		return classify([]*node{n.addl}, "additionalProperties")
	}
	return coverage{kind: covOpen, by: "no additionalProperties"}
}

func (c *walker) patternProps(b, h *node) {
	i, j := 0, 0
	for i < len(b.patProps) || j < len(h.patProps) {
		switch {
		case j >= len(h.patProps) || (i < len(b.patProps) && b.patProps[i].name < h.patProps[j].name):
			c.patternRemoved(b, h, b.patProps[i])
			i++
		case i >= len(b.patProps) || b.patProps[i].name > h.patProps[j].name:
			c.patternAdded(b, h, h.patProps[j])
			j++
		default:
			c.sub(".<"+b.patProps[i].name+">", b.patProps[i].n, h.patProps[j].n)
			i++
			j++
		}
	}
}

// patternAdded: names matching the new pattern used to fall to base's
// additionalProperties; now the pattern's schema applies to them.
func (c *walker) patternAdded(b, h *node, p named) {
	bp, hp := ptrJoin(b.P(), "patternProperties", p.name), p.n.P()
	fb := fallback(b)
	switch fb.kind {
	case covClosed:
		c.emit(c.rule(rules.InputAdditionalPropertiesAllowed, rules.OutputAdditionalPropertiesAllowed), bp, hp, nil, p.n.raw, "patternProperties %q added: names matching it were rejected by additionalProperties false and are now accepted", p.name)
		return
	case covOpen:
		c.emit(c.rule(rules.InputPatternPropertyAdded, rules.OutputPatternPropertyAdded), bp, hp, nil, p.n.raw, "patternProperties %q added: values under matching names are constrained", p.name)
		return
	}
	s := fb.list[0]
	narrower, wider := c.subset(p.n, s), c.subset(s, p.n)
	switch {
	case narrower && wider:
		c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, nil, p.n.raw, "patternProperties %q added with the same schema additionalProperties gave its names", p.name)
	case narrower:
		c.emit(c.rule(rules.InputPatternPropertyAdded, rules.OutputPatternPropertyAdded), bp, hp, nil, p.n.raw, "patternProperties %q added: matching names accept fewer values than additionalProperties allowed", p.name)
	case wider:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaWidened, rules.OutputAdditionalPropertiesSchemaWidened), bp, hp, nil, p.n.raw, "patternProperties %q added: matching names accept more values than additionalProperties allowed", p.name)
	case c.dir == Input:
		c.emit(c.rule(rules.InputPatternPropertyAdded, rules.OutputPatternPropertyAdded), bp, hp, nil, p.n.raw, "patternProperties %q added: matching names now follow a different schema than additionalProperties", p.name)
	default:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaWidened, rules.OutputAdditionalPropertiesSchemaWidened), bp, hp, nil, p.n.raw, "patternProperties %q added: matching names now follow a different schema than additionalProperties", p.name)
	}
}

func (c *walker) patternRemoved(b, h *node, p named) {
	bp, hp := p.n.P(), ptrJoin(h.P(), "patternProperties", p.name)
	fh := fallback(h)
	switch fh.kind {
	case covClosed:
		c.emit(c.rule(rules.InputAdditionalPropertiesDisallowed, rules.OutputAdditionalPropertiesDisallowed), bp, hp, p.n.raw, nil, "patternProperties %q removed: matching names now fall under additionalProperties false", p.name)
		return
	case covOpen:
		c.emit(c.rule(rules.InputPatternPropertyRemoved, rules.OutputPatternPropertyRemoved), bp, hp, p.n.raw, nil, "patternProperties %q removed: values under matching names are no longer constrained", p.name)
		return
	}
	s := fh.list[0]
	wider, narrower := c.subset(p.n, s), c.subset(s, p.n)
	switch {
	case narrower && wider:
		c.emit(c.rule(rules.InputSchemaEquivalentRewrite, rules.OutputSchemaEquivalentRewrite), bp, hp, p.n.raw, nil, "patternProperties %q removed; additionalProperties gives its names the same schema", p.name)
	case wider:
		c.emit(c.rule(rules.InputPatternPropertyRemoved, rules.OutputPatternPropertyRemoved), bp, hp, p.n.raw, nil, "patternProperties %q removed: matching names fall back to a wider additionalProperties schema", p.name)
	case narrower:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaNarrowed, rules.OutputAdditionalPropertiesSchemaNarrowed), bp, hp, p.n.raw, nil, "patternProperties %q removed: matching names fall back to a narrower additionalProperties schema", p.name)
	case c.dir == Input:
		c.emit(c.rule(rules.InputAdditionalPropertiesSchemaNarrowed, rules.OutputAdditionalPropertiesSchemaNarrowed), bp, hp, p.n.raw, nil, "patternProperties %q removed: matching names now follow additionalProperties, a different schema", p.name)
	default:
		c.emit(c.rule(rules.InputPatternPropertyRemoved, rules.OutputPatternPropertyRemoved), bp, hp, p.n.raw, nil, "patternProperties %q removed: matching names now follow additionalProperties, a different schema", p.name)
	}
}

func (c *walker) propertyNames(b, h *node) {
	bn, hn := eff(b.propNames), eff(h.propNames)
	if bn == nil && hn == nil {
		return
	}
	bp, hp := ptrJoin(b.P(), "propertyNames"), ptrJoin(h.P(), "propertyNames")
	switch {
	case bn == nil:
		c.emit(c.rule(rules.InputPropertyNamesConstraintAdded, rules.OutputPropertyNamesConstraintAdded), bp, hp, nil, hn.raw, "propertyNames constraint added")
	case hn == nil:
		c.emit(c.rule(rules.InputPropertyNamesConstraintRemoved, rules.OutputPropertyNamesConstraintRemoved), bp, hp, bn.raw, nil, "propertyNames constraint removed")
	default:
		c.sub(" propertyNames", bn, hn)
	}
}

func (c *walker) dependentRequired(b, h *node) {
	if eqDepReq(b.depReq, h.depReq) {
		return
	}
	find := func(l []depReq, k string) *depReq {
		for i := range l {
			if l[i].name == k {
				return &l[i]
			}
		}
		return nil
	}
	keys := map[string]bool{}
	for _, e := range b.depReq {
		keys[e.name] = true
	}
	for _, e := range h.depReq {
		keys[e.name] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	for _, k := range sorted {
		be, he := find(b.depReq, k), find(h.depReq, k)
		bp, hp := ptrJoin(b.P(), b.kw("dependentRequired"), k), ptrJoin(h.P(), h.kw("dependentRequired"), k)
		var bn, hn []string
		var bv, hv *value
		if be != nil {
			bn, bv = be.names, be.raw
		}
		if he != nil {
			hn, hv = he.names, he.raw
		}
		var add, rem []string
		for _, x := range hn {
			if !inSorted(bn, x) {
				add = append(add, x)
			}
		}
		for _, x := range bn {
			if !inSorted(hn, x) {
				rem = append(rem, x)
			}
		}
		if len(add) > 0 {
			c.emitNP(c.rule(rules.InputDependentRequiredAdded, rules.OutputDependentRequiredAdded), bp, hp, bv, hv, "when %q is present, %s now also required", c.propPath(k), quoteList(add))
		}
		if len(rem) > 0 {
			c.emitNP(c.rule(rules.InputDependentRequiredRemoved, rules.OutputDependentRequiredRemoved), bp, hp, bv, hv, "when %q is present, %s no longer required", c.propPath(k), quoteList(rem))
		}
	}
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = `"` + s + `"`
	}
	verb := " is"
	if len(l) > 1 {
		verb = " are"
	}
	return strings.Join(q, ", ") + verb
}

func (c *walker) dependentSchemas(b, h *node) {
	bl, hl := effNamed(b.depSchemas), effNamed(h.depSchemas)
	i, j := 0, 0
	for i < len(bl) || j < len(hl) {
		switch {
		case j >= len(hl) || (i < len(bl) && bl[i].name < hl[j].name):
			p := bl[i]
			c.emitNP(c.rule(rules.InputDependentSchemaRemoved, rules.OutputDependentSchemaRemoved), p.n.P(), ptrJoin(h.P(), h.kw("dependentSchemas"), p.name), p.n.raw, nil, "dependentSchemas entry for %q removed", c.propPath(p.name))
			i++
		case i >= len(bl) || bl[i].name > hl[j].name:
			p := hl[j]
			c.emitNP(c.rule(rules.InputDependentSchemaAdded, rules.OutputDependentSchemaAdded), ptrJoin(b.P(), b.kw("dependentSchemas"), p.name), p.n.P(), nil, p.n.raw, "dependentSchemas entry for %q added", c.propPath(p.name))
			j++
		default:
			c.sub(" if-present("+bl[i].name+")", bl[i].n, hl[j].n)
			i++
			j++
		}
	}
}
