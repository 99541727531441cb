// Package outfile writes the files a command produces: snapshots, reports,
// raw frames, the action's result files.
//
// A regular file (or a path that does not exist yet) is replaced whole: the
// data goes to a temporary file in the same directory, is synced, then
// renamed over the target, so a reader never sees half a file and an
// interrupted run leaves the old one intact. Anything else (a device such as
// /dev/null, a FIFO, a terminal, /dev/stdout and the other descriptor links
// under /proc) is written in place: renaming over a device would replace it
// with a regular file for every program on the machine.
//
// Check lets a command refuse an unwritable output before the work that
// produces it (a capture, say) starts. Every error names the path the user
// gave, never the temporary file.
package outfile
