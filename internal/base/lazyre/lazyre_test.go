package lazyre

import "testing"

func TestNew(t *testing.T) {
	re := New(`^a+$`)
	if !re().MatchString("aaa") || re().MatchString("b") {
		t.Fatal("the expression does not match as written")
	}
	if first, again := re(), re(); first != again {
		t.Fatal("every call must return the one compiled expression")
	}
}

// An invalid expression panics when it is first used, not when it is
// declared.
func TestNewInvalid(t *testing.T) {
	re := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid expression did not panic on use")
		}
	}()
	re()
}
