package sarif_test

import (
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

// Build returns the log as go-sarif's model, for a program that adds its
// own runs or results before it writes the file.
func ExampleBuild() {
	removed := finding.New(rules.ToolRemoved, finding.Subject{Kind: finding.KindTool, Name: "get_weather"}, "", `tool "get_weather" was removed`, nil, nil)
	r := &report.Report{Version: "1.0.0", Servers: []report.Section{{Command: "diff", Snapshot: "mcp-surface.json", Findings: []finding.Finding{removed}}}}
	log, err := sarif.Build(r, sarif.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	run := log.Runs[0]
	fmt.Println(run.Tool.Driver.Name, len(run.Results), *run.Results[0].RuleID, *run.Results[0].Level)
	// Output: mcp-surface 1 tool-removed error
}
