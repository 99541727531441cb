// Package witness proves schema changes by example. Given the two raw
// schemas of one tool's inputSchema (or outputSchema), a direction and one
// change pkg/diff/schemadiff classified, it searches for a witness: a whole
// instance at the schema root (the arguments object, or structuredContent)
// that the compatible side accepts and the other rejects. For input the
// base must accept it and head reject it (a call that worked and now
// fails); for output head must accept it and base reject it (a result
// clients were not promised).
//
// Generation. The instance is the accepting root's minimal valid value
// with a distinguishing value at the location the change's pointer maps
// to (/properties/a/items/properties/b is a[0].b; /anyOf/1 takes that
// branch; local $refs and $defs are followed, so a change inside a $defs
// entry is placed where an instance reaches it). Candidates for the
// distinguishing value come from both sides' subschemas there: the
// minimal value, values of each type, const and enum members, bounds and
// their neighbours, strings at the old lengths and strings the accepting
// patterns match and a rejecting one does not, objects missing a property
// or with an extra one, arrays at the old lengths or with a repeated item,
// values of each composition branch and of two oneOf branches at once.
//
// Judgement. Each candidate is checked by the real validator
// (santhosh-tekuri/jsonschema) against both raw schemas, each compiled
// in the dialect its $schema declares (Options.Dialect when it declares
// none), formats as annotations, no external reference loaded (a schema
// that needs one does not compile, and gets no witness). The rejection
// must come from the change: some leaf error on the rejecting side lies at
// or under the change's pointer there (or, for a changed property, at the
// object keywords that decide its presence when the error names that
// property: a missing required name, an additional one, a rejected
// property name; for an overlap, at the oneOf branch that changed), so
// that a second, unrelated change cannot prove the wrong finding. Given
// the pair's other changes, a leaf inside one of them (not an enclosing
// one) is never this change's: pkg/diff passes them when a witness would
// raise a risky finding. A witness whose every rejection is the change's
// is preferred, and the values around the distinguishing one are built to
// satisfy both sides where they can, so that a sibling only one side
// allows does not share the rejection. The witness is written in the
// canonical form with arrays in their order (an instance's array is a
// tuple, not a set).
//
// Patterns. JSON Schema patterns are ECMA-262 and unanchored; the
// validator here runs RE2 on a rewrite of each pattern that gives ".",
// "\s" and "\uXXXX" their ECMA meaning. A pattern the two engines could
// read differently (lookaround, backreferences, RE2-only syntax, letter
// escapes) is not evaluated: a validation that consults it, or that
// matches a string outside the Basic Multilingual Plane, is not trusted
// and never yields a witness. PatternDifference searches the product of
// two patterns' automata breadth first for the shortest string one
// matches and the other does not; an exhausted search proves inclusion.
//
// Cost. Each Pair compiles its sides once, on first use. Find runs at most
// Options.Budget validations (default 2000); every walk over a schema is
// bounded in depth and steps, the pattern search in explored states.
// Search says whether a search that found nothing tried every candidate or
// gave up at one of those bounds (Result.GaveUp): only the first is
// evidence. A change is reached along its own pointer when it can be (time
// linear in the pointer, however wide the schema), so a change at one of
// 50,000 properties is proven by a call that sends that property (and the
// required ones) alone. A side with more than a few thousand subschemas is
// compiled per instance with its large properties maps cut to the names
// the instance uses (see wide.go): the validator's compiler takes time
// quadratic in the subschemas, and the members an instance does not name
// never decide its validation. The
// result depends on nothing but the input: maps are visited in sorted
// order and no randomness is used, so the same pair gives the same bytes.
package witness
