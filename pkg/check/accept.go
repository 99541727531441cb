package check

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/policy"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// captureNotes are the rules of what a capture noticed about the session
// rather than about the surface: the server's habits, the same whatever a
// pull request changes, unless the pull request changed them.
var captureNotes = []string{
	rules.HandshakeFallback,
	rules.StdoutNotJsonrpc,
	rules.SdkRejectedResult,
	rules.ListRequestFailed,
}

// quietSameAtBase lowers to info the head's capture notes that the base
// shows too: they are not about the pull request, and the comment is for
// what is. atBase are the findings of the base's own capture (nil when the
// base is a snapshot); the handshake fallback is judged from the base
// snapshot's handshake as well, as a snapshot keeps no other capture note.
// Acknowledged findings and info ones are left alone.
func quietSameAtBase(head []finding.Finding, base *manifest.Manifest, atBase []finding.Finding) {
	seen := map[string]bool{}
	for _, f := range atBase {
		if slices.Contains(captureNotes, f.Rule) {
			seen[f.Fingerprint] = true
		}
	}
	for i := range head {
		f := &head[i]
		if !slices.Contains(captureNotes, f.Rule) || f.Acknowledged != "" || f.Level == rules.LevelInfo {
			continue
		}
		same := seen[f.Fingerprint]
		if f.Rule == rules.HandshakeFallback && base != nil && base.Handshake != "server/discover" {
			// The base settled on initialize as well: the session did the
			// same at both.
			same = true
		}
		if same {
			f.Level = rules.LevelInfo
			f.Message += " (the same at the base: not about this change)"
		}
	}
}

// acceptBreaking acknowledges every unacknowledged breaking change with
// reason, so that it no longer fails the check but stays in the report;
// it returns how many it acknowledged.
func acceptBreaking(fs []finding.Finding, reason string) ([]finding.Finding, int) {
	out := slices.Clone(fs)
	n := 0
	for i := range out {
		if out[i].Acknowledged == "" && out[i].Severity == rules.SeverityBreaking {
			out[i].Acknowledged = reason
			n++
		}
	}
	return out, n
}

// Accepted is the number of breaking changes Options.AcceptBreaking
// acknowledged, over every server.
func (r *Result) Accepted() int {
	n := 0
	for _, o := range r.Servers {
		n += o.Accepted
	}
	return n
}

// Acknowledgements are the acknowledged: entries that would turn the
// check green at failOn: one for every unacknowledged finding at or above
// it, ready to paste into .mcp-surface.yaml (each reason a TODO to fill
// in). With several servers each server's entries come under a comment
// that names it. Empty when nothing fails at failOn.
func (r *Result) Acknowledgements(failOn rules.Level) []byte {
	if failOn == "" {
		return nil
	}
	var b bytes.Buffer
	named := len(r.Servers) > 1
	var all []finding.Finding
	for _, o := range r.Servers {
		fs := failing(o, failOn)
		if len(fs) == 0 {
			continue
		}
		if named {
			for i := range fs {
				// The entry's comment names the server it is for; the
				// entry itself matches the finding wherever it is.
				fs[i].Message = "server " + o.Server.Name + ": " + fs[i].Message
			}
		}
		all = append(all, fs...)
	}
	if len(all) == 0 {
		return nil
	}
	if err := policy.WriteAcknowledgements(&b, all, true); err != nil {
		return nil
	}
	return b.Bytes()
}

// AcknowledgementsByServer is Acknowledgements one server at a time, by
// server name, each with at most max entries (<= 0: all) and then a
// comment that says how many more there are: what a report shows beside
// each server's section.
func (r *Result) AcknowledgementsByServer(failOn rules.Level, max int) map[string]string {
	if failOn == "" {
		return nil
	}
	out := map[string]string{}
	for _, o := range r.Servers {
		fs := failing(o, failOn)
		if len(fs) == 0 {
			continue
		}
		more := 0
		if max > 0 && len(fs) > max {
			fs, more = fs[:max], len(fs)-max
		}
		var b bytes.Buffer
		if err := policy.WriteAcknowledgements(&b, fs, true); err != nil {
			continue
		}
		if more > 0 {
			fmt.Fprintf(&b, "# %d more: the job summary and the log of the run list every entry\n", more)
		}
		out[o.Section.Server] = b.String()
	}
	return out
}

// failing are the server's unacknowledged findings at or above failOn,
// tools first: when a list of them is cut, what a reviewer came for stays.
func failing(o *Outcome, failOn rules.Level) []finding.Finding {
	var fs []finding.Finding
	for _, f := range o.Section.Findings {
		// A stale snapshot is fixed by refreshing it, not acknowledged.
		if f.Acknowledged == "" && f.Level.Rank() >= failOn.Rank() && f.Rule != rules.SnapshotOutOfDate {
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(a, b finding.Finding) int {
		return finding.KindRank(a.Subject.Kind) - finding.KindRank(b.Subject.Kind)
	})
	return fs
}
