// Command server is the example MCP server bundled with mcp-surface: a small
// in-memory notebook built with the official Go SDK. It is what the README
// captures:
//
//	mcp-surface capture -- go run ./examples/server
//
// It advertises 5 tools (3 with an output schema), 2 prompts, 3 static
// resources (one of them binary) and 1 resource template.
//
// By default it speaks MCP over stdio and writes nothing to stdout but
// protocol messages (logs go to stderr). With -http ADDR it serves streamable
// HTTP instead:
//
//	go run ./examples/server -http 127.0.0.1:8080
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("notes-server: ") // the log package writes to stderr

	server := newServer(newNotebook())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *httpAddr == "" {
		if err := server.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
			log.Fatal(err)
		}
		return
	}

	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	httpServer := &http.Server{Addr: *httpAddr, Handler: handler}
	go func() {
		<-ctx.Done()
		_ = httpServer.Close()
	}()
	log.Printf("serving MCP over streamable HTTP at http://%s", *httpAddr)
	if err := httpServer.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// newServer builds the MCP server and registers everything it advertises.
func newServer(nb *notebook) *mcp.Server {
	server := mcp.NewServer(
		&mcp.Implementation{Name: "notes-server", Title: "Notes", Version: "0.1.0"},
		&mcp.ServerOptions{
			Instructions: "An in-memory notebook. Search before you add, to avoid duplicates.",
		},
	)
	addTools(server, nb)
	addPrompts(server)
	addResources(server, nb)
	return server
}

// ---- Tools ----
//
// Input schemas are written out as JSON to show enums, bounds and defaults;
// the SDK validates arguments against them (and applies defaults) before a
// handler runs. Output schemas are inferred from the Go result types.

type SearchArgs struct {
	Query string `json:"query"`
	Tag   string `json:"tag,omitempty"`
	Sort  string `json:"sort,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

type NoteSummary struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags,omitempty"`
}

type SearchResult struct {
	Total int           `json:"total" jsonschema:"number of matching notes, before limit"`
	Notes []NoteSummary `json:"notes" jsonschema:"the matching notes, at most limit of them"`
}

type IDArgs struct {
	ID string `json:"id"`
}

type AddArgs struct {
	Title  string   `json:"title"`
	Body   string   `json:"body"`
	Tags   []string `json:"tags,omitempty"`
	Pinned bool     `json:"pinned,omitempty"`
}

type AddResult struct {
	ID        string `json:"id" jsonschema:"identifier of the new note"`
	CreatedAt string `json:"created_at" jsonschema:"creation time, RFC 3339"`
}

type UpdateArgs struct {
	ID     string    `json:"id"`
	Title  *string   `json:"title,omitempty"`
	Body   *string   `json:"body,omitempty"`
	Tags   *[]string `json:"tags,omitempty"`
	Pinned *bool     `json:"pinned,omitempty"`
}

func addTools(server *mcp.Server, nb *notebook) {
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search_notes",
		Title:       "Search notes",
		Description: "Find notes whose title or body contains the query.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"query": {"type": "string", "description": "Text to look for; empty matches every note."},
				"tag":   {"type": "string", "description": "Only notes with this tag."},
				"sort":  {"type": "string", "enum": ["newest", "oldest", "title"], "default": "newest"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}
			},
			"required": ["query"],
			"additionalProperties": false
		}`),
	}, func(_ context.Context, _ *mcp.CallToolRequest, args SearchArgs) (*mcp.CallToolResult, SearchResult, error) {
		notes := nb.search(args.Query, args.Tag)
		switch args.Sort {
		case "newest":
			slices.Reverse(notes)
		case "title":
			slices.SortFunc(notes, func(a, b Note) int { return strings.Compare(a.Title, b.Title) })
		}
		res := SearchResult{Total: len(notes), Notes: []NoteSummary{}}
		for _, n := range notes[:min(len(notes), args.Limit)] {
			res.Notes = append(res.Notes, NoteSummary{ID: n.ID, Title: n.Title, Tags: n.Tags})
		}
		return nil, res, nil
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:        "get_note",
		Title:       "Get note",
		Description: "Read one note in full.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"id": {"type": "string", "pattern": "^n[0-9]+$", "description": "Note id, e.g. n1."}},
			"required": ["id"]
		}`),
	}, func(_ context.Context, _ *mcp.CallToolRequest, args IDArgs) (*mcp.CallToolResult, Note, error) {
		n, ok := nb.get(args.ID)
		if !ok {
			return nil, Note{}, fmt.Errorf("no note %q", args.ID)
		}
		return nil, n, nil
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:        "add_note",
		Title:       "Add note",
		Description: "Create a note.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"title":  {"type": "string", "minLength": 1, "maxLength": 120},
				"body":   {"type": "string", "maxLength": 10000},
				"tags":   {"type": "array", "items": {"type": "string"}, "maxItems": 10, "uniqueItems": true},
				"pinned": {"type": "boolean", "default": false}
			},
			"required": ["title", "body"]
		}`),
	}, func(_ context.Context, _ *mcp.CallToolRequest, args AddArgs) (*mcp.CallToolResult, AddResult, error) {
		n := nb.add(args.Title, args.Body, args.Tags, args.Pinned, time.Now().UTC())
		return nil, AddResult{ID: n.ID, CreatedAt: n.CreatedAt.Format(time.RFC3339)}, nil
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:        "update_note",
		Description: "Change some fields of a note; fields left out are kept.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"id":     {"type": "string", "pattern": "^n[0-9]+$"},
				"title":  {"type": "string", "minLength": 1, "maxLength": 120},
				"body":   {"type": "string", "maxLength": 10000},
				"tags":   {"type": "array", "items": {"type": "string"}, "maxItems": 10},
				"pinned": {"type": "boolean"}
			},
			"required": ["id"]
		}`),
	}, func(_ context.Context, _ *mcp.CallToolRequest, args UpdateArgs) (*mcp.CallToolResult, any, error) {
		n, ok := nb.update(args.ID, func(n *Note) {
			if args.Title != nil {
				n.Title = *args.Title
			}
			if args.Body != nil {
				n.Body = *args.Body
			}
			if args.Tags != nil {
				n.Tags = *args.Tags
			}
			if args.Pinned != nil {
				n.Pinned = *args.Pinned
			}
		})
		if !ok {
			return nil, nil, fmt.Errorf("no note %q", args.ID)
		}
		return text("updated " + n.ID), nil, nil
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:        "delete_note",
		Title:       "Delete note",
		Description: "Delete a note for good.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"id": {"type": "string", "pattern": "^n[0-9]+$"}},
			"required": ["id"]
		}`),
	}, func(_ context.Context, _ *mcp.CallToolRequest, args IDArgs) (*mcp.CallToolResult, any, error) {
		if !nb.remove(args.ID) {
			return text("no note " + args.ID + "; nothing to do"), nil, nil
		}
		return text("deleted " + args.ID), nil, nil
	})
}

func ptr[T any](v T) *T { return &v }

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// ---- Prompts ----

func addPrompts(server *mcp.Server) {
	server.AddPrompt(&mcp.Prompt{
		Name:        "summarize_notes",
		Title:       "Summarize notes",
		Description: "Summarize every note carrying a tag.",
		Arguments: []*mcp.PromptArgument{
			{Name: "tag", Description: "The tag to summarize.", Required: true},
			{Name: "style", Description: "bullets (default) or paragraph."},
		},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		style := req.Params.Arguments["style"]
		if style == "" {
			style = "bullets"
		}
		return userPrompt(fmt.Sprintf(
			"Use search_notes with tag %q, read each note with get_note, and summarize them as %s.",
			req.Params.Arguments["tag"], style)), nil
	})

	server.AddPrompt(&mcp.Prompt{
		Name:        "draft_email",
		Title:       "Draft an email from a note",
		Description: "Turn a note into an email draft.",
		Arguments: []*mcp.PromptArgument{
			{Name: "note_id", Description: "The note to start from.", Required: true},
			{Name: "recipient", Description: "Who the email is for."},
			{Name: "tone", Description: "formal or friendly."},
		},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		a := req.Params.Arguments
		return userPrompt(fmt.Sprintf(
			"Read note %s with get_note and draft an email about it to %s, in a %s tone.",
			a["note_id"], or(a["recipient"], "the team"), or(a["tone"], "friendly"))), nil
	})
}

func userPrompt(s string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: s}}}}
}

func or(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// ---- Resources ----

func addResources(server *mcp.Server, nb *notebook) {
	server.AddResource(&mcp.Resource{
		URI:         "notes://index",
		Name:        "index",
		Title:       "Index of notes",
		Description: "Every note's id, title and tags, as Markdown.",
		MIMEType:    "text/markdown",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		var b strings.Builder
		b.WriteString("# Notes\n\n")
		for _, n := range nb.search("", "") {
			fmt.Fprintf(&b, "- %s: %s %v\n", n.ID, n.Title, n.Tags)
		}
		return contents(req.Params.URI, "text/markdown", b.String(), nil), nil
	})

	server.AddResource(&mcp.Resource{
		URI:         "notes://stats",
		Name:        "stats",
		Description: "Counts of notes and tags, as JSON.",
		MIMEType:    "application/json",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		tags := map[string]int{}
		notes := nb.search("", "")
		for _, n := range notes {
			for _, t := range n.Tags {
				tags[t]++
			}
		}
		data, err := json.Marshal(map[string]any{"notes": len(notes), "tags": tags})
		if err != nil {
			return nil, err
		}
		return contents(req.Params.URI, "application/json", string(data), nil), nil
	})

	logo := logoPNG()
	server.AddResource(&mcp.Resource{
		URI:      "notes://logo.png",
		Name:     "logo",
		Title:    "Notebook logo",
		MIMEType: "image/png",
		Size:     int64(len(logo)),
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return contents(req.Params.URI, "image/png", "", logo), nil
	})

	server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "notes://notes/{id}",
		Name:        "note",
		Title:       "A note",
		Description: "One note as Markdown.",
		MIMEType:    "text/markdown",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		id := strings.TrimPrefix(req.Params.URI, "notes://notes/")
		n, ok := nb.get(id)
		if !ok {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		md := fmt.Sprintf("# %s\n\n%s\n\nTags: %s\n", n.Title, n.Body, strings.Join(n.Tags, ", "))
		return contents(req.Params.URI, "text/markdown", md, nil), nil
	})
}

func contents(uri, mimeType, text string, blob []byte) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: mimeType, Text: text, Blob: blob},
	}}
}

// logoPNG draws a 16x16 yellow "sticky note" with a folded corner.
func logoPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			c := color.RGBA{R: 250, G: 215, B: 60, A: 255}
			if x+y >= 26 { // folded corner
				c = color.RGBA{R: 200, G: 170, B: 40, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return buf.Bytes()
}
