// Package lazyre compiles a package's regular expressions when they are
// first used instead of when the program starts.
//
// Every mcp-surface command links every package, and the Go runtime runs
// each package's variable initializers before main: a regexp.MustCompile
// at package level is paid by `mcp-surface --version` and by a capture
// that never matches it. Some of ours compile to large programs (a
// bounded repetition such as {0,126} is unrolled), so together they were
// a visible part of the start-up time.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call and returns
// that same *regexp.Regexp on every call, from any goroutine. An invalid
// expr panics on the first call, as regexp.MustCompile does; expressions
// are constants in the code, so the tests that run the code find it.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
