package check

import (
	"slices"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func TestWithProbes(t *testing.T) {
	t.Parallel()
	s := Server{Probes: []capture.Probe{{ID: "a"}}, Require: []string{"tools/call"}, Secrets: []string{"x"}}
	got, err := s.WithProbes([]string{"prompts/get"}, []capture.Probe{{ID: "b"}}, []string{"y"})
	if err != nil || len(got.Probes) != 2 || got.Probes[1].ID != "b" ||
		!slices.Equal(got.Require, []string{"prompts/get", "tools/call"}) || !slices.Equal(got.Secrets, []string{"x", "y"}) {
		t.Errorf("WithProbes = %+v, %v", got, err)
	}
	if _, err := s.WithProbes(nil, []capture.Probe{{ID: "a"}}, nil); err == nil || err.Error() != `probe id "a" is declared twice` {
		t.Errorf("a duplicate: %v", err)
	}
}
