package report_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/cost"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

func costTables() (base, head *cost.Table) {
	base = &cost.Table{Encoding: cost.O200kBase, Total: 18480, Instructions: 480, InstructionsShare: 480.0 / 18480,
		Tools: []cost.Tool{{Name: "projects_read", Tokens: 9000}, {Name: "projects_write", Tokens: 9000}}}
	for i := range base.Tools {
		base.Tools[i].Share = float64(base.Tools[i].Tokens) / 18480
	}
	head = &cost.Table{Encoding: cost.O200kBase, Total: 19700, Instructions: 400, InstructionsShare: 400.0 / 19700,
		Tools: []cost.Tool{{Name: "projects_write", Tokens: 10300}, {Name: "projects_read", Tokens: 9000}, {Name: "<b>hi</b>|`x`", Tokens: 0}}}
	for i := range head.Tools {
		head.Tools[i].Share = float64(head.Tools[i].Tokens) / 19700
	}
	return base, head
}

// The cost table's renderings and the comment line are golden files;
// a hostile name is escaped in each.
func TestCostGolden(t *testing.T) {
	base, head := costTables()
	for _, f := range report.CostFormats {
		var buf bytes.Buffer
		if err := report.RenderCost(&buf, f, head); err != nil {
			t.Fatal(err)
		}
		golden(t, "cost."+map[string]string{"text": "txt", "json": "json", "markdown": "md"}[f], buf.Bytes())
	}
	lines := report.CostLine(base, head) + "\n" +
		report.CostLine(nil, head) + "\n" +
		report.CostLine(head, head) + "\n" +
		report.CostLine(head, base) + "\n" +
		report.CostLine(nil, &cost.Table{Encoding: cost.O200kBase, Tools: []cost.Tool{}}) + "\n"
	golden(t, "cost-line.md", []byte(lines))
	if err := report.RenderCost(&bytes.Buffer{}, "sarif", head); !errors.Is(err, report.ErrUnknownFormat) {
		t.Errorf("sarif: %v", err)
	}
}
