// Package snapshotfile does the work of the capture and snapshot commands
// once their flags are read: it builds the snapshots of captures and
// writes them, or (snapshot --check) compares them with the committed
// files. It says on the streams it is given what it wrote, what a capture
// noticed and how a file differs from the server, in the reader's terms:
// the path relative to the working directory when inside it, and the
// command that rewrites the file, which the caller passes in as Hints.
// Snapshot returns frontend.ExitFindings when a file does not match; the
// flags, the arguments that rewrite a file and the process's exit are the
// caller's.
package snapshotfile
