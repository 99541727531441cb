// Package jsonedit reads and edits JSON documents as people write them:
// with comments (// and /* */) and trailing commas, as VS Code, Cursor and
// Gemini CLI accept in their settings, and in the layout their authors
// chose.
//
// Plain turns such a document into plain JSON of the same length, with
// every comment and trailing comma blanked, so that an offset or a line
// number found in the plain bytes points into the file as written.
//
// A Doc is one document whose top-level value is an object. Get reads a
// member by its path of keys; Set replaces a member's value or adds the
// member (and any missing object on its path). An edit rewrites only the
// bytes of the value it replaces, or inserts the new member after the
// object's last one at that member's indentation: every other byte (order,
// comments, blank lines, the file's indentation, a final newline) stays
// as it was. A value that was written on one line is written on one line
// again; a new member of an object written on several lines gets its own
// line, indented as the file is, and ends with a comma when the member
// before it did (a file that writes trailing commas).
//
// InsertElements and DeleteElements put values into an array and take
// them out again, its other elements and the comments between them as
// written; Delete takes a member out. Each of them undoes its
// counterpart byte for byte (Delete undoes Set's added member), so that
// an edit can be reverted and the revert checked against the original.
package jsonedit
