package schemadiff

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

func eqOptStr(a, b optStr) bool {
	if a.v == nil || b.v == nil {
		return a.v == b.v
	}
	return a.v.s == b.v.s
}

func eqStringsLocal(b, h *node) bool {
	return eqNum(b.minLength, h.minLength) && eqNum(b.maxLength, h.maxLength) &&
		eqOptStr(b.pattern, h.pattern) && eqOptStr(b.format, h.format) &&
		eqOptStr(b.contentEncoding, h.contentEncoding) && eqOptStr(b.contentMediaType, h.contentMediaType)
}

// eqStrings also covers contentSchema, which the string family judges
// without recursing.
func (s *shared) eqStrings(b, h *node) bool {
	return eqStringsLocal(b, h) && s.eqOpt(b.contentSchema, h.contentSchema)
}

func strVal(o optStr) *value {
	return o.v
}

func (c *walker) strings(b, h *node) {
	c.bound(b, h, "minLength", b.minLength, h.minLength, true, c.rule(rules.InputMinLengthIncreased, rules.OutputMinLengthIncreased), c.rule(rules.InputMinLengthDecreased, rules.OutputMinLengthDecreased))
	c.bound(b, h, "maxLength", b.maxLength, h.maxLength, false, c.rule(rules.InputMaxLengthDecreased, rules.OutputMaxLengthDecreased), c.rule(rules.InputMaxLengthIncreased, rules.OutputMaxLengthIncreased))
	c.pattern(b, h)
	c.format(b, h)
	if !eqOptStr(b.contentEncoding, h.contentEncoding) {
		bp, hp := ptrJoin(b.P(), "contentEncoding"), ptrJoin(h.P(), "contentEncoding")
		c.emit(c.rule(rules.InputContentEncodingChanged, rules.OutputContentEncodingChanged), bp, hp, strVal(b.contentEncoding), strVal(h.contentEncoding),
			"contentEncoding changed from %s to %s", optShow(b.contentEncoding), optShow(h.contentEncoding))
	}
	if !eqOptStr(b.contentMediaType, h.contentMediaType) {
		bp, hp := ptrJoin(b.P(), "contentMediaType"), ptrJoin(h.P(), "contentMediaType")
		c.emit(c.rule(rules.InputContentMediaTypeChanged, rules.OutputContentMediaTypeChanged), bp, hp, strVal(b.contentMediaType), strVal(h.contentMediaType),
			"contentMediaType changed from %s to %s", optShow(b.contentMediaType), optShow(h.contentMediaType))
	}
	if !c.sh.eqOpt(b.contentSchema, h.contentSchema) {
		bp, hp := ptrJoin(b.P(), "contentSchema"), ptrJoin(h.P(), "contentSchema")
		var bv, hv *value
		if b.contentSchema != nil {
			bv = b.contentSchema.raw
		}
		if h.contentSchema != nil {
			hv = h.contentSchema.raw
		}
		if c.dir == Input {
			c.emit(rules.InputContentSchemaChanged, bp, hp, bv, hv, "contentSchema changed (describes the decoded content)")
		} else {
			c.undecidable(bp, hp, bv, hv, "contentSchema changed; it describes the decoded content and is not compared")
		}
	}
}

func optShow(o optStr) string {
	if o.v == nil {
		return "(absent)"
	}
	return strconv.Quote(o.v.s)
}

func (c *walker) format(b, h *node) {
	if eqOptStr(b.format, h.format) {
		return
	}
	bp, hp := ptrJoin(b.P(), "format"), ptrJoin(h.P(), "format")
	switch {
	case b.format.v == nil:
		c.emit(c.rule(rules.InputFormatAdded, rules.OutputFormatAdded), bp, hp, nil, h.format.v, "format %q added", h.format.v.s)
	case h.format.v == nil:
		c.emit(c.rule(rules.InputFormatRemoved, rules.OutputFormatRemoved), bp, hp, b.format.v, nil, "format %q removed", b.format.v.s)
	default:
		c.emit(c.rule(rules.InputFormatChanged, rules.OutputFormatChanged), bp, hp, b.format.v, h.format.v, "format changed from %q to %q", b.format.v.s, h.format.v.s)
	}
}

type relation int

const (
	relUnknown relation = iota
	relWider
	relNarrower
)

func (c *walker) pattern(b, h *node) {
	if eqOptStr(b.pattern, h.pattern) {
		return
	}
	bp, hp := ptrJoin(b.P(), "pattern"), ptrJoin(h.P(), "pattern")
	bv, hv := strVal(b.pattern), strVal(h.pattern)
	switch {
	case b.pattern.v == nil:
		if universalPattern(h.pattern.v.s) {
			return // a pattern every string matches adds nothing
		}
		c.emit(c.rule(rules.InputPatternAdded, rules.OutputPatternAdded), bp, hp, nil, hv, "pattern %q added", h.pattern.v.s)
		return
	case h.pattern.v == nil:
		if universalPattern(b.pattern.v.s) {
			return
		}
		c.emit(c.rule(rules.InputPatternRemoved, rules.OutputPatternRemoved), bp, hp, bv, nil, "pattern %q removed", b.pattern.v.s)
		return
	}
	switch patternRelation(b.pattern.v.s, h.pattern.v.s) {
	case relWider:
		if c.dir == Input {
			c.emit(rules.InputPatternRelaxed, bp, hp, bv, hv, "pattern relaxed from %q to %q", b.pattern.v.s, h.pattern.v.s)
		} else {
			c.emit(c.rule(rules.InputPatternRemoved, rules.OutputPatternRemoved), bp, hp, bv, hv, "pattern relaxed from %q to %q: strings the base pattern rejected may be returned", b.pattern.v.s, h.pattern.v.s)
		}
		return
	case relNarrower:
		c.emit(c.rule(rules.InputPatternAdded, rules.OutputPatternAdded), bp, hp, bv, hv, "pattern narrowed from %q to %q", b.pattern.v.s, h.pattern.v.s)
		return
	}
	if c.dir == Input {
		if w, ok := c.patternWitness(b, b.pattern.v.s, h.pattern.v.s); ok {
			c.emit(c.rule(rules.InputPatternAdded, rules.OutputPatternAdded), bp, hp, bv, hv, "pattern changed from %q to %q: base value %q no longer matches", b.pattern.v.s, h.pattern.v.s, w)
			return
		}
	}
	c.emit(c.rule(rules.InputPatternChanged, rules.OutputPatternChanged), bp, hp, bv, hv, "pattern changed from %q to %q; inclusion could not be proven", b.pattern.v.s, h.pattern.v.s)
}

// universalPattern: patterns every string matches (unanchored search).
func universalPattern(p string) bool {
	switch p {
	case "", ".*", "^.*", ".*$", "(.*)", "^(.*)", `[\s\S]*`, `^[\s\S]*`, `[\s\S]*$`, `^[\s\S]*$`,
		`[\S\s]*`, `^[\S\s]*$`, `[\d\D]*`, `^[\d\D]*$`, `[\w\W]*`, `^[\w\W]*$`:
		return true
	}
	return false
}

// anchors splits a pattern into its core and its leading ^ / trailing $.
func anchors(p string) (core string, start, end bool) {
	core = p
	if strings.HasPrefix(core, "^") {
		start = true
		core = core[1:]
	}
	if strings.HasSuffix(core, "$") {
		bs := 0
		for i := len(core) - 2; i >= 0 && core[i] == '\\'; i-- {
			bs++
		}
		if bs%2 == 0 {
			end = true
			core = core[:len(core)-1]
		}
	}
	return
}

// patternRelation proves the cheap cases: a universal pattern, or the same
// pattern with anchors dropped or added (removing an assertion can only
// accept more).
func patternRelation(b, h string) relation {
	bu, hu := universalPattern(b), universalPattern(h)
	switch {
	case hu && !bu:
		return relWider
	case bu && !hu:
		return relNarrower
	}
	bc, bs, be := anchors(b)
	hc, hs, he := anchors(h)
	if bc != hc {
		return relUnknown
	}
	bSub := (!hs || bs) && (!he || be) // head anchors ⊆ base anchors
	hSub := (!bs || hs) && (!be || he)
	switch {
	case bSub && !hSub:
		return relWider
	case hSub && !bSub:
		return relNarrower
	}
	return relUnknown
}

// patternWitness looks for a string the base documents as valid (enum,
// const, default, examples) that matches the base pattern but not the head
// one. Only patterns both engines agree on (those Go's RE2 compiles) are
// tried.
func (c *walker) patternWitness(b *node, bpat, hpat string) (string, bool) {
	rb, rh := c.sh.regex(bpat), c.sh.regex(hpat)
	if rb == nil || rh == nil {
		return "", false
	}
	var cands []string
	add := func(v *value) {
		if v == nil {
			return
		}
		switch v.kind {
		case vStr:
			cands = append(cands, v.s)
		case vArr:
			for _, e := range v.elems() {
				if e.kind == vStr {
					cands = append(cands, e.s)
				}
			}
		}
	}
	for _, v := range b.valVals {
		add(v)
	}
	for _, k := range []string{"default", "examples", "example"} {
		add(b.annGet(k))
	}
	for _, w := range cands {
		if rb.MatchString(w) && !rh.MatchString(w) {
			return w, true
		}
	}
	return "", false
}

// regex compiles an ECMA-262 pattern with Go's engine when the syntax is
// shared; nil when it is not (lookaround, backreferences, \u escapes...).
func (s *shared) regex(p string) *regexp.Regexp {
	if s.regexps == nil {
		s.regexps = map[string]*regexp.Regexp{}
	}
	if r, ok := s.regexps[p]; ok {
		return r
	}
	var r *regexp.Regexp
	if !strings.Contains(p, `\u`) && !strings.Contains(p, `\c`) && !strings.Contains(p, `(?`) {
		r, _ = regexp.Compile(p)
	}
	s.regexps[p] = r
	return r
}
