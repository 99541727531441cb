package github

import (
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// Output is one output of the action's step.
type Output struct{ Name, Value string }

// VerdictOutputs are the step's outputs that say what the report found,
// in the order they are set: the verdict (pass or fail: failed), the exit
// code, whether an unacknowledged breaking change was found, the counts,
// the suggested version bump and the manifest hashes (one "name=hash"
// line per server when there are several).
func VerdictOutputs(r *report.Report, code int, failed bool) []Output {
	s := r.Summary()
	verdict := "pass"
	if failed {
		verdict = "fail"
	}
	head, base := r.ManifestHashes()
	return []Output{
		{"verdict", verdict},
		{"exit-code", strconv.Itoa(code)},
		{"breaking", strconv.FormatBool(r.HasBreaking())},
		{"errors", strconv.Itoa(s.Error)},
		{"warnings", strconv.Itoa(s.Warning)},
		{"notes", strconv.Itoa(s.Note)},
		{"suggested-bump", s.SuggestedBump},
		{"manifest-hash", head},
		{"base-manifest-hash", base},
	}
}
