package check

import (
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A capture note the base's own capture shows too is info; one the head
// alone shows, or a finding about the surface, keeps its level.
func TestQuietSameAtBase(t *testing.T) {
	t.Parallel()
	server := finding.Subject{Kind: finding.KindServer}
	noise := func(n string) finding.Finding {
		return finding.New(rules.StdoutNotJsonrpc, server, "", "the server wrote "+n+" line(s) to stdout", nil, nil)
	}
	listFailed := finding.New(rules.ListRequestFailed, server, "/prompts", "prompts/list answered with an error", nil, nil)
	invalid := finding.New(rules.DescriptionMissing, finding.Subject{Kind: finding.KindTool, Name: "echo"}, "/description", "no description", nil, nil)
	for _, f := range []*finding.Finding{&listFailed, &invalid} {
		f.Level = rules.LevelWarning
	}
	head := []finding.Finding{noise("3"), listFailed, invalid}
	head[0].Level = rules.LevelError
	quietSameAtBase(head, &manifest.Manifest{Handshake: "initialize"}, []finding.Finding{noise("5"), invalid})

	if head[0].Level != rules.LevelInfo || !strings.Contains(head[0].Message, "the same at the base") {
		t.Errorf("stdout noise at both: %s %q", head[0].Level, head[0].Message)
	}
	if head[1].Level != rules.LevelWarning {
		t.Errorf("a list error of the head alone: %s", head[1].Level)
	}
	if head[2].Level != rules.LevelWarning {
		t.Errorf("a finding about the surface is not a capture note: %s", head[2].Level)
	}
}
