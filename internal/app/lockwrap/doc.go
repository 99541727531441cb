// Package lockwrap puts the guard into a repository's client
// configurations and takes it out again (mcp-surface lock --wrap and
// --unwrap).
//
// Wrapping rewrites each stdio entry {"command": C, "args": [A...]} to
// {"command": "mcp-surface", "args": ["guard", "--lock", LOCK, "--server",
// "CONFIG:NAME", "--", C, A...]}, every other member as it was; unwrapping
// restores C and A. The file is edited in place with jsonedit: the guard's
// words go in front of the entry's own args, so its layout, its comments
// and every other entry stay as written. An entry that already runs under
// the guard (or, for --unwrap, does not) and a remote server are left
// alone, and said so.
//
// Nothing is written unless every file can be edited safely: each edited
// file must read back (clientconfig) as the same servers, a wrapped entry
// must hold exactly the guard's command line, and unwrapping what was
// wrapped must give the original file byte for byte. Otherwise the run
// refuses, naming the file, the entry and the fix, and writes nothing.
// Each file is written whole (outfile).
package lockwrap
