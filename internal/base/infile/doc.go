// Package infile reads the files a command is given (snapshots,
// configuration) with a bound on their size and a context that can stop
// the wait: a FIFO blocks in open until a writer comes and in read until it
// writes, and /dev/zero never ends, and neither may hold the tool past a
// signal or grow its memory without bound. Get reads a download with the
// same bound on its size.
package infile
