// Package canonjson is the project's one canonical JSON: the scanner every
// reader of raw JSON walks with, the one number form, the one string
// escaper and the one nesting limit. The snapshot, the schema comparison,
// the lint and the report all render values through it, so a finding's
// before and after values (which feed its fingerprint) are the same bytes
// whichever package produced them.
//
// Canonical form:
//   - object keys sorted by the bytes of their UTF-8 text (which is also
//     code point order); a repeated key keeps its last value, as
//     encoding/json does;
//   - arrays whose elements are all primitives (string, number, boolean,
//     null) sorted by their canonical encoding; arrays holding an object or
//     an array keep their order (CanonicalizeOrdered, for a snapshot's
//     items, sorts only the sets of JSON Schema: required and type);
//   - numbers in one exact decimal form (no float rounding): 1.0 → 1,
//     1e2 → 100, 0.50 → 0.5, -0 → 0, 1e400 → 1e+400;
//   - strings with the minimal escapes (quote, backslash, control
//     characters) and no HTML escaping; U+2028 and U+2029 are written as
//     themselves, and renderers that print JSON make them visible; invalid
//     UTF-8 becomes U+FFFD byte by byte, as encoding/json decodes it;
//   - no insignificant whitespace.
//
// Nothing nests deeper than MaxDepth: deeper input is refused with
// ErrTooDeep rather than risking the stack.
package canonjson
