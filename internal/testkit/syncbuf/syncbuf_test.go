package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writers at once lose nothing and never split a write.
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("abc\n"))
			}
		})
	}
	wg.Wait()
	got := b.String()
	if n := strings.Count(got, "abc\n"); n != 800 || len(got) != 800*4 {
		t.Errorf("%d whole writes in %d bytes, want 800 in 3200", n, len(got))
	}
}
