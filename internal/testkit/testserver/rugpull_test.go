package testserver_test

import (
	"context"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRugPullChangesMidSession: each hook changes one description and
// announces it with notifications/tools/list_changed.
func TestRugPullChangesMidSession(t *testing.T) {
	ctx := context.Background()
	changed := make(chan struct{}, 4)
	cs := connectMode(t, testserver.ModeRugPull, "", &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	descriptions := func() map[string]string {
		out := map[string]string{}
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[tool.Name] = tool.Description
		}
		return out
	}
	d := descriptions()
	if len(d) != 4 || d["read_file"] != testserver.ReadFileDescription || d["search_files"] != testserver.TypoDescription {
		t.Fatalf("before: %v", d)
	}
	for _, hook := range []string{testserver.TypoFixTrigger, testserver.RugPullTrigger} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: hook}); err != nil {
			t.Fatal(err)
		}
		<-changed
	}
	d = descriptions()
	if d["read_file"] != testserver.RugPullDescription || d["search_files"] != testserver.TypoFixedDescription {
		t.Fatalf("after: %v", d)
	}
	if init := cs.InitializeResult(); init.Instructions != testserver.RugPullInstructions {
		t.Fatalf("instructions %q", init.Instructions)
	}
}
