// Package manifest reduces a capture to the canonical, hashable snapshot
// (mcp-surface.json) and reads it back.
//
// Canonical form (Canonicalize, CanonicalizeValue):
//   - object keys sorted recursively (by UTF-16 code units is not needed:
//     byte order of UTF-8 keys, which is also code point order);
//   - arrays whose elements are all primitives (string, number, boolean,
//     null) are sorted by their canonical encoding (required, enum, type…);
//     an item's (tool, prompt, resource, template) arrays are sorted only
//     where JSON Schema makes them sets (the values of required and type,
//     outside default, examples, const and _meta: see
//     canonjson.CanonicalizeOrdered), since elsewhere order is meaning (a
//     reversed default is another default; enum order is what the model
//     is shown);
//   - arrays containing an object or an array keep their order, and each
//     element is canonicalized (reordering anyOf/oneOf can change meaning);
//   - numbers in one decimal form, exact (no float rounding): 1.0 → 1,
//     1e2 → 100, 0.50 → 0.5, -0 → 0, 1e400 stays 1e+400;
//   - strings re-encoded with the minimal escapes (quote, backslash and
//     control characters), without HTML escaping and with U+2028 and
//     U+2029 written as themselves; no insignificant whitespace;
//   - nothing nested deeper than 512 levels.
//
// The schema comparison's before and after values and the JSON report
// use the same form, so a finding's values are the same bytes whichever
// package produced them.
//
// Items are sorted by identity (tool and prompt name, resource URI,
// template uriTemplate); identity is unique, and a capture or a snapshot
// that repeats one is refused (fail closed).
//
// Fingerprints, per item (see fingerprint.go for the exact rules):
//   - full: the whole item as served, canonicalized;
//   - contract: what a client's calls depend on;
//   - prose: the model-visible descriptions and titles.
//
// and one manifest hash over the whole surface (everything in the snapshot
// except the fingerprints block). What is not surface is not in the
// snapshot at all: list-result envelopes (nextCursor, result-level _meta,
// cache hints such as ttl), JSON-RPC ids, timings.
package manifest
