package frontend

import (
	"math"
	"os"
	"runtime/debug"
)

// BoundCaptureMemory asks the garbage collector to keep this process's memory
// near three times the byte budget of a capture (64 MiB at least), and
// returns what puts the previous limit back. A capture holds what the
// server sent once and its snapshot once; without a limit the collector
// lets the heap grow to twice what is live, which for a large server is
// several times the budget. It is a soft limit: a surface that needs more
// gets it, at the cost of more collections. A limit set by GOMEMLIMIT is
// left alone.
func BoundCaptureMemory(getenv func(string) string, maxBytes int64) func() {
	if getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	if maxBytes > math.MaxInt64/4 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(max(3*maxBytes, 64<<20))
	return func() { debug.SetMemoryLimit(prev) }
}

// BoundDiffMemory asks the garbage collector to keep a diff's memory near
// 1.5 times the two snapshot files' size, when they are larger than 64
// MiB together (large), and returns what puts the previous limit back. A
// diff holds both snapshots' items (a little more than half of a
// pretty-printed file) and, while it reads
// the second, that file: about 1.1 times the two files at most. Without
// a limit the collector lets the heap grow to twice what is live. It is
// a soft limit: a diff that needs more gets it, at the cost of more
// collections. A limit set by GOMEMLIMIT is left alone, and so is the
// default when a snapshot is not a regular file (a git REF:PATH, a FIFO),
// whose size is not known before it is read.
func BoundDiffMemory(getenv func(string) string, paths ...string) (restore func(), large bool) {
	var total int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > math.MaxInt64/8 {
			return func() {}, false
		}
		total += fi.Size()
	}
	large = total > 64<<20
	if !large || getenv("GOMEMLIMIT") != "" {
		return func() {}, large
	}
	prev := debug.SetMemoryLimit(total + total/2)
	return func() { debug.SetMemoryLimit(prev) }, large
}
