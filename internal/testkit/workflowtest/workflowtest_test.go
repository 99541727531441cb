package workflowtest

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const wf = `on: pull_request
jobs:
  other:
    steps:
      - uses: acme/act@v2
        with: {a: other}
  surface:
    steps:
      - uses: actions/checkout@v4
      - uses: acme/act@v1
        with: {a: "1", b: two}
`

// The step is found by its action in the job named.
func TestStep(t *testing.T) {
	uses, with := Step(t, wf, "surface", "acme/act")
	if uses != "acme/act@v1" {
		t.Errorf("uses %s, want acme/act@v1", uses)
	}
	if d := cmp.Diff(map[string]string{"a": "1", "b": "two"}, with); d != "" {
		t.Errorf("with (-want +got):\n%s", d)
	}
}

// fatalTB records a Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	fatal string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// A workflow that is not YAML, or has no such step, fails the test.
func TestStepFails(t *testing.T) {
	for _, tc := range []struct{ wf, action, want string }{
		{"jobs: [", "acme/act", "the workflow is not YAML: "},
		{wf, "acme/other", "no acme/other step in job surface of the workflow:\n"},
		{wf, "acme/ac", "no acme/ac step in job surface of the workflow:\n"},
	} {
		f := &fatalTB{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			Step(f, tc.wf, "surface", tc.action)
		}()
		<-done
		if len(f.fatal) < len(tc.want) || f.fatal[:len(tc.want)] != tc.want {
			t.Errorf("%s: failed with %q, want it to start with %q", tc.action, f.fatal, tc.want)
		}
	}
}
