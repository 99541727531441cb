package schemadiff

import (
	"bytes"
	cmpkg "cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Direction says which way a schema must stay compatible.
type Direction int

const (
	// Input is data clients send (tool arguments): BACKWARD, every value
	// valid against base must stay valid against head.
	Input Direction = iota
	// Output is data servers return (structuredContent): FORWARD, every
	// value valid against head must have been valid against base.
	Output
)

func (d Direction) String() string {
	if d == Output {
		return "output"
	}
	return "input"
}

// Change is one classified difference inside a schema.
type Change struct {
	// Rule is an input-* or output-* rule ID from the rule table.
	Rule string
	// BasePointer is a JSON Pointer into the base schema ("" = root), at the
	// raw location as written; when the thing is absent in base, the place
	// it would be.
	BasePointer string
	// HeadPointer is the same for the head schema.
	HeadPointer string
	// Before is the canonical JSON of the relevant base value, nil if absent.
	Before json.RawMessage
	// After is the canonical JSON of the relevant head value, nil if absent.
	After json.RawMessage
	// Message is one human line, without the tool name.
	Message string
}

// Options tune Compare. The zero value is ready to use.
type Options struct {
	// MaxDepth bounds how deep the comparison recurses; deeper differences
	// are reported as *-schema-undecidable. Default 64.
	MaxDepth int
	// Dialect is assumed when a schema has no $schema: "2020-12" (default)
	// or "draft-07".
	Dialect string
	// Budget bounds the number of subschema pairs examined (including the
	// proofs branch matching needs); when it runs out the rest is reported
	// as *-schema-undecidable. Default 200000.
	Budget int

	// forceWalk turns off the raw-equality shortcuts (tests: the walk on
	// equal schemas must find nothing).
	forceWalk bool
}

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = 64
	}
	if o.Dialect == "" {
		o.Dialect = "2020-12"
	}
	if o.Budget <= 0 {
		o.Budget = 200000
	}
	return o
}

// Compare classifies every difference between two JSON Schemas in the given
// direction. Equal schemas give nil. The result is sorted by pointer, then
// rule, and is the same for the same input, whatever the key order.
//
// Invalid JSON on either side is reported as one *-schema-undecidable at
// the root; an empty input is treated as the empty schema {}.
func Compare(base, head json.RawMessage, dir Direction, opts Options) []Change {
	if bytes.Equal(base, head) && !opts.forceWalk {
		return nil
	}
	opts = opts.withDefaults()
	bd := newDoc(base, opts.Dialect)
	hd := newDoc(head, opts.Dialect)
	sh := &shared{opts: opts, budget: opts.Budget}
	c := newCmp(dir, sh, false)
	if bd.err != nil || hd.err != nil {
		if bytes.Equal(base, head) {
			return nil
		}
		var msg []string
		if bd.err != nil {
			msg = append(msg, "base schema is not valid JSON: "+bd.err.Error())
		}
		if hd.err != nil {
			msg = append(msg, "head schema is not valid JSON: "+hd.err.Error())
		}
		c.emitRaw(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), "", "", nil, nil, strings.Join(msg, "; "))
		return c.out
	}
	if rawEqual(bd.root, hd.root) && bd.legacy == hd.legacy && !opts.forceWalk {
		return nil
	}
	br, hr := bd.rootNode(), hd.rootNode()
	c.compare(br, hr)
	// The root of the diff can itself be a rewrite candidate.
	for _, cd := range c.cands {
		c.emitRewrite(cd)
	}
	c.cands = nil
	if len(c.out) == 0 && !sh.eq(br, hr) {
		c.emitRaw(c.rule(rules.InputSchemaUndecidable, rules.OutputSchemaUndecidable), "", "", nil, nil,
			"the schemas differ in a way no rule explains")
	}
	return finish(c.out)
}

// finish sorts and removes exact duplicates (the same subschema pair can be
// reached through several $refs).
func finish(out []Change) []Change {
	slices.SortFunc(out, func(a, b Change) int {
		return cmpkg.Or(
			strings.Compare(a.HeadPointer, b.HeadPointer),
			strings.Compare(a.BasePointer, b.BasePointer),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
			bytes.Compare(a.Before, b.Before),
			bytes.Compare(a.After, b.After),
		)
	})
	return slices.CompactFunc(out, func(a, b Change) bool {
		return a.Rule == b.Rule && a.BasePointer == b.BasePointer && a.HeadPointer == b.HeadPointer &&
			bytes.Equal(a.Before, b.Before) && bytes.Equal(a.After, b.After)
	})
}

// unsafeRule reports whether a rule's default severity is risky or worse.
// Proofs (branch matching, coverage) only accept a pair when the nested
// comparison found nothing unsafe.
func unsafeRule(id string) bool {
	r, ok := rules.Lookup(id)
	if !ok {
		return true
	}
	return r.Severity.Rank() >= rules.SeverityRisky.Rank()
}

// unprovenRule reports whether a rule breaks a proof: unsafe, or a change
// the default profile calls minor although it changes the set of values
// (the "strict" tag: an optional property given a schema on an open
// object). A proof that one schema's values are a subset of another's
// must not lean on that convention.
func unprovenRule(id string) bool {
	if unsafeRule(id) {
		return true
	}
	r, _ := rules.Lookup(id)
	return r.HasTag("strict")
}
