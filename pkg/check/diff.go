package check

import (
	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// Diff compares two snapshots under the policy and diff options of
// Options.Config (at Options.Now) and reports the comparison: one section,
// change findings apart from the lint findings the diff may add
// (protocol-feature-version-mismatch, config-acknowledgement-expired);
// the labels name the two sides.
func Diff(base, head *manifest.Manifest, baseLabel, headLabel string, o Options) *Result {
	res := diff.Diff(base, head, o.diffOptions())
	sec := report.Section{
		Command:       "diff",
		Base:          &report.Side{Label: baseLabel, ManifestHash: res.BaseManifestHash, Revision: base.ProtocolVersion},
		Head:          &report.Side{Label: headLabel, ManifestHash: res.HeadManifestHash, Revision: head.ProtocolVersion},
		Subjects:      report.SubjectsOf(head),
		WorstSeverity: res.WorstSeverity,
		SuggestedBump: res.SuggestedBump,
	}
	sec.Findings = append(sec.Findings, res.Findings...)
	return &Result{
		Report:   &report.Report{Version: o.Version, Servers: []report.Section{sec}},
		Servers:  []*Outcome{{Head: head, Base: base, BaseLabel: baseLabel, Diff: res, Section: sec}},
		Findings: res.Findings,
	}
}
