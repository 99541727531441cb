package cost

import "testing"

// Counting spreads over goroutines: the counts are those of counting one
// text at a time, whatever the order, and repeated texts are counted once.
func TestComputeConcurrent(t *testing.T) {
	m := surface(t, 200)
	got, err := Compute(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range got.Tools {
		txt, _ := ToolText(mustFind(t, m, x.Name))
		if n, _ := count(DefaultEncoding, txt); n != x.Tokens {
			t.Fatalf("%s: %d tokens in parallel, %d alone", x.Name, x.Tokens, n)
		}
	}
	c, _ := NewCounter(Options{})
	a, _ := c.Compute(m)
	b, _ := c.Compute(m) // every text seen
	if a.Total != got.Total || b.Total != got.Total || len(c.seen) != 201 {
		t.Errorf("totals %d %d %d, %d texts remembered", got.Total, a.Total, b.Total, len(c.seen))
	}
}
