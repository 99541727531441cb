// Package snapshotfile writes the snapshot files of captures and checks
// committed ones against a server: the work of the capture and snapshot
// commands once their flags are read. It says what it wrote, what a
// capture noticed and how a snapshot differs on the streams it is given,
// in the reader's terms (the path as given, the command that rewrites
// the file); everything else, from flags to exit codes, is the caller's.
package snapshotfile
