// Package mergepatch applies JSON merge patches (RFC 7386) to documents
// kept as written, so that a test fixture can state only how a document
// differs from a default one and still be expanded to the exact text a
// reader expects.
//
// What is kept: every string and number as spelled in the document or the
// patch (an escape such as \u200b stays an escape), and the order of
// array elements. What is normalized: the output is pretty-printed with
// two spaces, each object's members sorted by name, as the snapshot file
// and encoding/json's indented output of a map are.
//
// One extension: the top-level members named in Keys hold arrays of
// objects, each identified by one of its members (a tool by its name, a
// resource by its URI). A patch may give such a member as an object keyed
// by that identity instead of as a whole array: each patch member then
// patches the element with that identity (null removes it), or adds a new
// element at the end, in the patch's order, with the identity member set.
// An array in the patch replaces the whole list, as in RFC 7386.
package mergepatch
