package action

import "testing"

// A push compares with the previous commit and has no pull request to
// comment on; another event compares with base-ref, which must exist.
func TestPushAndOtherEvents(t *testing.T) {
	t.Parallel()
	s := newScenario(t)
	r := s.repo
	dispatch := []byte(`{"inputs": {}, "ref": "refs/heads/main", "repository": {"full_name": "acme/weather-mcp"}}`)
	runTable(t, "push", s, []run{{
		name: "push compares with the previous commit",
		do: func(t *testing.T, s *scenario) runResult {
			return newStep(t, s.api, r.workspace(t, r.c1), "push", pushEvent(r.c0, r.c1), r.c1, "refs/heads/main", built()).run()
		},
	}, {
		name: "base-ref on workflow_dispatch",
		do: func(t *testing.T, s *scenario) runResult {
			s.api, s.ws = nil, r.workspace(s.t, r.c1)
			return newStep(t, nil, s.ws, "workflow_dispatch", dispatch, r.c1, "refs/heads/main", built("base-ref", "main")).run()
		},
	}, {
		name: "unknown base-ref",
		do: func(t *testing.T, s *scenario) runResult {
			return newStep(t, nil, s.ws, "workflow_dispatch", dispatch, r.c1, "refs/heads/main", built("base-ref", "no-such-branch")).run()
		},
	}})
}
