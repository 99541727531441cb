// Package workflowtest reads back the GitHub workflows that init writes,
// for the tests of the code that generates them.
package workflowtest

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Step returns the uses: and the with: of the step of job that runs
// action (owner/name, at any ref). It fails the test when wf is not
// YAML or the job has no such step.
func Step(t testing.TB, wf, job, action string) (uses string, with map[string]string) {
	t.Helper()
	var doc struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(wf), &doc); err != nil {
		t.Fatalf("the workflow is not YAML: %v\n%s", err, wf)
	}
	for _, s := range doc.Jobs[job].Steps {
		if strings.HasPrefix(s.Uses, action+"@") {
			return s.Uses, s.With
		}
	}
	t.Fatalf("no %s step in job %s of the workflow:\n%s", action, job, wf)
	return "", nil
}
