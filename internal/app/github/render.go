package github

import (
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

// Render renders a report in the formats the action writes and publishes
// (markdown, JSON, SARIF and the one-line "unchanged" comment) with the
// comment's options o, and the job summary with its own.
func Render(r *report.Report, o, summary report.Options) (*Publication, []byte, error) {
	out := &Publication{Report: r, Options: o, Unchanged: report.RenderUnchanged(r, o)}
	var err error
	if out.Markdown, err = report.RenderBytes("markdown", r, o); err != nil {
		return nil, nil, err
	}
	if out.JSON, err = report.RenderBytes("json", r, o); err != nil {
		return nil, nil, err
	}
	if out.SARIF, err = renderSARIF(r, o); err != nil {
		return nil, nil, err
	}
	sum, err := report.RenderBytes("markdown", r, summary)
	if err != nil {
		return nil, nil, err
	}
	return out, sum, nil
}

func renderSARIF(r *report.Report, o report.Options) ([]byte, error) {
	rs := report.Renderers{"sarif": sarif.Render}
	return rs.RenderBytes("sarif", r, o)
}
