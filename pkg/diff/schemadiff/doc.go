// Package schemadiff compares two JSON Schemas of one tool (its inputSchema
// or its outputSchema) and classifies every difference under one of the
// input-* or output-* rules of the rule table. pkg/diff matches tools
// and calls Compare for each schema present on both sides; whole-schema
// additions, removals and $schema changes are its business, not this
// package's.
//
// # Directions
//
// A change is judged by who produces the data the schema describes:
//
//   - Input (tool arguments, sent by clients) must stay backward compatible:
//     every value valid against base stays valid against head,
//     L(base) ⊆ L(head). Narrowing breaks, widening is minor.
//   - Output (structuredContent, sent by servers) must stay forward
//     compatible: every value valid against head was valid against base,
//     L(head) ⊆ L(base). Widening breaks, narrowing is minor.
//
// Most rules are named after the syntactic change (min-length-increased,
// enum-value-added) and exist in both directions with opposite severities;
// where the rule table names them differently (properties, patterns, defaults)
// the rule is chosen per direction. Severities, tags and help live in the
// rule table (pkg/rules, catalog/schema*.md); this package
// only decides which rule applies.
//
// # Normalisation
//
// Both schemas are read into a normalised form before comparing, so
// rewrites that accept the same values compare equal: local $refs ("#",
// JSON pointers, #/$defs and #/definitions, $anchor) are followed, pure
// $ref and single-branch allOf/anyOf/oneOf wrappers are looked through,
// draft-07 spellings become 2020-12 ones (array items → prefixItems,
// additionalItems → items, dependencies → dependentRequired and
// dependentSchemas, boolean exclusiveMinimum/Maximum), type ["x"] is "x",
// the three null encodings (a "null" type, a {type: null} branch of
// anyOf/oneOf, OpenAPI's nullable: true) fold into one, required, enum and
// type are sets, enum [x] is const x, numbers compare by value, and a
// union of plain types is a type set. Tautologies, keywords that accept
// everything their context allows, are dropped in one step (normalize.go):
// minLength/minItems/minProperties 0, generator bounds of exactly ±(2^53−1)
// on integers and ±Number.MAX_VALUE on numbers (every other bound compares
// exactly, by its decimal digits), a pattern every string
// matches, a type list naming every type, propertyNames {type: string},
// keywords of a type the node's type excludes, and not {not X} (read as
// X); additionalProperties true, items {} and the like compare as absent.
// A union inside a single-branch wrapper ({anyOf: [{oneOf: [A, B]}]}) is
// lifted out, so it pairs with the same union written in place, and an
// anyOf branch that is an anyOf, or a oneOf over provably disjoint
// branches, is its branches written in place. Where a union meets a schema
// that is not one, a union of value lists is the enum of their values
// (anyOf [{const: a}, {const: b}] is enum [a, b]) and a union of objects
// that differ only in the values one property lists is one object listing
// them all (for oneOf: values disjoint, property required); a union that
// is, whole, one branch of an anyOf on the other side only gained (or lost)
// the anyOf's other branches.
// Documentation keywords (description, title, examples, default,
// deprecated, readOnly/writeOnly, x-mcp-header, $comment) are compared on
// their own. A raw difference that leaves the normalised form unchanged is
// reported once, as *-schema-equivalent-rewrite, at the highest place where
// nothing else changed.
//
// The comparison recurses through properties, patternProperties,
// additionalProperties, unevaluatedProperties, propertyNames,
// dependentSchemas, items, prefixItems, contains, then/else (when if is
// unchanged) and composition branches. anyOf/oneOf/allOf branches are
// paired first by equality, then by a maximum matching of pairs that are
// compatible in the direction, then by type, before anything is reported
// as added or removed; a schema that is not a union is compared with a
// union as a union of one branch (a type set as one branch per type). An
// absent anyOf/oneOf constrains nothing: adding one where there was none
// narrows (input-composition-added) unless one branch provably accepts
// every old value and, for oneOf, no other branch can match it too; when
// only that overlap is unproven the change is risky. The proofs behind
// these judgements (subset, coverage, branch matching) treat the strict
// profile's findings as unproven too. anyOf and oneOf over branches that
// are provably pairwise disjoint (no common type within the types of the
// node holding them, disjoint enum/const sets, a required discriminator
// with different values, a property one branch requires and the other
// forbids, ranges or lengths that do not meet) accept the same values, so
// switching between them is no change, and a oneOf branch disjoint from
// the others only widens.
//
// A type change is reported once: the keywords of a type only one side
// accepts (bounds, lengths, properties, items, enum values of that type)
// came with it and are not compared on their own.
// Compared pairs are memoised, so recursive schemas terminate; where a pair
// reaches itself the comparison assumes it equal (coinduction) and reports
// its changes once, at the first place it was reached.
//
// # Fail closed
//
// A difference the rules cannot prove safe is reported, never dropped and
// never reported as info: an unknown or vendor keyword, $dynamicRef, a
// keyword in an unsupported form, an unresolvable or external $ref
// (*-ref-unresolvable), a changed not or if, a replaced pattern whose
// inclusion is unproven, overlapping oneOf branches, nesting beyond
// Options.MaxDepth, or a comparison that runs out of Options.Budget.
// Two independent checks back the rules up: every keyword family compares
// its normalised keywords, and a whole subschema pair is compared by a
// structural equality that knows nothing about rules; a difference either
// check sees and no rule reported becomes *-schema-undecidable.
//
// # Reading the result
//
// Each Change names its rule, a JSON pointer into each schema as written
// (through $refs; where the thing is absent on one side, the place it
// would be), the canonical JSON of the values before and after, and a
// message without the tool name. Results are sorted and deterministic.
//
// Compare parses lazily and keeps nothing of its inputs: unchanged
// subtrees, which are the same bytes in two canonical snapshots, are only
// scanned once, so comparing two 50-property schemas costs tens of
// microseconds.
package schemadiff
