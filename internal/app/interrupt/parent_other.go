//go:build !linux

package interrupt

// parentGone watches the parent on Linux only (pidfds); elsewhere a
// program whose parent died runs on to its own end (its timeouts) and
// stops its servers then.
func parentGone() <-chan struct{} { return nil }
