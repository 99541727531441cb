package main

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newServer(newNotebook()).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestSurface(t *testing.T) {
	cs := connect(t)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var withOutput int
	for _, tool := range tools.Tools {
		if tool.OutputSchema != nil {
			withOutput++
		}
		if tool.Annotations == nil || tool.Description == "" {
			t.Errorf("tool %s lacks annotations or description", tool.Name)
		}
	}
	if len(tools.Tools) != 5 || withOutput != 3 {
		t.Errorf("%d tools, %d with outputSchema; want 5 and 3", len(tools.Tools), withOutput)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 2 {
		t.Errorf("prompts: %v, %v", prompts, err)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil || len(resources.Resources) != 3 {
		t.Fatalf("resources: %v, %v", resources, err)
	}
	for _, r := range resources.Resources {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		c := res.Contents[0]
		if c.MIMEType != r.MIMEType || (c.Text == "" && len(c.Blob) == 0) {
			t.Errorf("read %s: %+v", r.URI, c)
		}
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 {
		t.Errorf("templates: %v, %v", templates, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://notes/n1"}); err != nil {
		t.Errorf("read templated note: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_notes", Arguments: map[string]string{"tag": "work"}}); err != nil {
		t.Errorf("get prompt: %v", err)
	}
}

func TestTools(t *testing.T) {
	cs := connect(t)
	ctx := context.Background()
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}

	res := call("add_note", map[string]any{"title": "Dentist", "body": "Tuesday 10:00", "tags": []string{"home"}})
	if res.IsError || res.StructuredContent == nil {
		t.Fatalf("add_note: %+v", res)
	}
	id := res.StructuredContent.(map[string]any)["id"].(string)

	res = call("search_notes", map[string]any{"query": "", "tag": "home"})
	if got := res.StructuredContent.(map[string]any)["total"]; got != float64(2) {
		t.Errorf("search total = %v, want 2", got)
	}
	// Out-of-range arguments are rejected by the input schema.
	if res := call("search_notes", map[string]any{"query": "x", "limit": 500}); !res.IsError {
		t.Error("limit 500 accepted")
	}
	if res := call("search_notes", map[string]any{"query": "x", "sort": "random"}); !res.IsError {
		t.Error("sort=random accepted")
	}

	call("update_note", map[string]any{"id": id, "title": "Dentist appointment"})
	res = call("get_note", map[string]any{"id": id})
	if got := res.StructuredContent.(map[string]any)["title"]; got != "Dentist appointment" {
		t.Errorf("title after update = %v", got)
	}
	call("delete_note", map[string]any{"id": id})
	if res := call("get_note", map[string]any{"id": id}); !res.IsError {
		t.Error("get_note of a deleted note succeeded")
	}
}
