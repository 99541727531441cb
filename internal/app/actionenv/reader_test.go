package actionenv

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestInputsDefaultsAndErrors(t *testing.T) {
	env := map[string]string{"INPUT_N": "99", "INPUT_B": "maybe", "INPUT_MODE": "full"}
	e := New(func(k string) string { return env[k] }, io.Discard)
	r := e.Inputs([]InputSpec{
		{Name: "n", Default: "5"}, {Name: "b", Default: "false"}, {Name: "d", Default: "30s"},
		{Name: "s", Default: "x"}, {Name: "token", Default: "${{ github.token }}"}, {Name: "mode", Default: "full"},
	})
	if got := r.String("s"); got != "x" {
		t.Errorf("default: %q", got)
	}
	if got := r.String("token"); got != "" {
		t.Errorf("an expression default is the runner's: %q", got)
	}
	if got := r.Duration("d"); got != 30*time.Second {
		t.Errorf("duration default: %v", got)
	}
	if got := r.Choice("mode", "full", "analyze"); got != "full" {
		t.Errorf("choice: %q", got)
	}
	if r.Err() != nil {
		t.Fatalf("no error yet: %v", r.Err())
	}
	r.IntBetween("n", 1, 50)
	r.Bool("b")
	err := r.Err()
	if err == nil || !strings.Contains(err.Error(), "between 1 and 50") || !strings.Contains(err.Error(), "maybe") {
		t.Errorf("both errors, in order: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("an undeclared input did not panic")
		}
	}()
	r.String("undeclared")
}

func TestInputsPositiveDuration(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
		err   string
	}{
		{"", 0, ""},
		{"500ms", 500 * time.Millisecond, ""},
		{"0", 0, "leave it empty"},
		{"soon", 0, "duration"},
	} {
		e := New(func(k string) string { return map[string]string{"INPUT_GRACE": tc.value}[k] }, io.Discard)
		r := e.Inputs([]InputSpec{{Name: "grace"}})
		got := r.PositiveDuration("grace", "leave it empty")
		err := r.Err()
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: %v, %v", tc.value, got, err)
		}
	}
}
