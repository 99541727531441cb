package testserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// The surface of the "full" mode (and of "shuffled-N", which is the same
// surface registered in a different order with shuffled schema keys). It
// models a small project tracker with CI/CD and observability tools. The
// definitions are data so that a reader (or a test) can see exactly what is
// advertised.

// toolDef describes one tool of the full surface.
type toolDef struct {
	name   string
	title  string
	desc   string
	input  string // JSON Schema of the arguments
	output string // JSON Schema of structuredContent, or ""
	sample string // structuredContent returned by a call when output != ""
	ann    *mcp.ToolAnnotations
	meta   mcp.Meta
	icons  []mcp.Icon
}

func ptr[T any](v T) *T { return &v }

// readOnly is the annotation set of a tool that only reads.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: ptr(false)}
}

var fullTools = []toolDef{
	{
		name:  "search_issues",
		title: "Search issues",
		desc:  "Full-text search over issues in the tracker. Returns at most `limit` matches, newest first.",
		input: `{
			"type": "object",
			"properties": {
				"query": {"type": "string", "minLength": 1, "description": "Search terms; supports quoted phrases."},
				"state": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
				"labels": {"type": "array", "items": {"type": "string"}, "description": "Only issues carrying all these labels."},
				"limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
			},
			"required": ["query"],
			"additionalProperties": false
		}`,
		output: `{
			"type": "object",
			"properties": {
				"total": {"type": "integer", "minimum": 0},
				"issues": {
					"type": "array",
					"items": {
						"type": "object",
						"properties": {
							"id": {"type": "integer"},
							"title": {"type": "string"},
							"state": {"type": "string", "enum": ["open", "closed"]}
						},
						"required": ["id", "title", "state"]
					}
				}
			},
			"required": ["total", "issues"]
		}`,
		sample: `{"total": 1, "issues": [{"id": 42, "title": "Login page times out", "state": "open"}]}`,
		ann:    readOnly("Search issues"),
	},
	{
		name:  "get_issue",
		title: "Get issue",
		desc:  "Fetch one issue with its body and assignee.",
		input: `{
			"type": "object",
			"properties": {"id": {"type": "integer", "minimum": 1, "description": "Issue number."}},
			"required": ["id"]
		}`,
		output: `{
			"type": "object",
			"properties": {
				"id": {"type": "integer"},
				"title": {"type": "string"},
				"state": {"type": "string", "enum": ["open", "closed"]},
				"body": {"type": "string"},
				"assignee": {"type": ["string", "null"]}
			},
			"required": ["id", "title", "state"]
		}`,
		sample: `{"id": 42, "title": "Login page times out", "state": "open", "body": "Steps to reproduce: ...", "assignee": null}`,
		ann:    readOnly("Get issue"),
		meta:   mcp.Meta{"com.example/category": "issues"},
	},
	{
		name:  "create_issue",
		title: "Create issue",
		desc:  "Open a new issue.",
		input: `{
			"type": "object",
			"properties": {
				"title": {"type": "string", "minLength": 3, "maxLength": 200},
				"body": {"type": "string", "description": "Markdown body."},
				"labels": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 20},
				"priority": {"type": "string", "enum": ["low", "medium", "high", "urgent"], "default": "medium"},
				"assignee": {"type": "string", "pattern": "^[a-z0-9-]{1,39}$"}
			},
			"required": ["title"]
		}`,
		output: `{
			"type": "object",
			"properties": {
				"id": {"type": "integer"},
				"url": {"type": "string", "format": "uri"}
			},
			"required": ["id", "url"]
		}`,
		sample: `{"id": 43, "url": "https://tracker.example.com/issues/43"}`,
		ann:    &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		meta:   mcp.Meta{"com.example/category": "issues", "com.example/rateLimit": map[string]any{"perMinute": 30}},
	},
	{
		name: "update_issue",
		desc: "Change fields of an existing issue. Only the given fields are modified.",
		input: `{
			"type": "object",
			"$defs": {
				"state": {"type": "string", "enum": ["open", "closed"]}
			},
			"properties": {
				"id": {"type": "integer", "minimum": 1},
				"fields": {
					"type": "object",
					"properties": {
						"title": {"type": "string", "maxLength": 200},
						"body": {"type": "string"},
						"state": {"$ref": "#/$defs/state"},
						"milestone": {"type": "object", "properties": {"name": {"type": "string"}, "due": {"type": "string", "format": "date"}}, "required": ["name"]}
					},
					"minProperties": 1,
					"additionalProperties": false
				}
			},
			"required": ["id", "fields"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	},
	{
		name:  "close_issue",
		title: "Close issue",
		desc:  "Close an issue with a reason.",
		input: `{
			"type": "object",
			"properties": {
				"id": {"type": "integer", "minimum": 1},
				"reason": {"type": "string", "enum": ["completed", "not_planned", "duplicate"], "default": "completed"},
				"duplicate_of": {"type": "integer", "minimum": 1, "description": "Required when reason is duplicate."}
			},
			"required": ["id"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true},
	},
	{
		name:  "delete_issue",
		title: "Delete issue",
		desc:  "Permanently delete an issue and its comments. This cannot be undone.",
		input: `{
			"type": "object",
			"properties": {
				"id": {"type": "integer", "minimum": 1},
				"confirm": {"type": "boolean", "const": true, "description": "Must be true."}
			},
			"required": ["id", "confirm"]
		}`,
		ann:  &mcp.ToolAnnotations{Title: "Delete issue", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		meta: mcp.Meta{"com.example/dangerous": true},
	},
	{
		name: "add_comment",
		desc: "Add a comment to an issue.",
		input: `{
			"type": "object",
			"properties": {
				"issue_id": {"type": "integer", "minimum": 1},
				"body": {"type": "string", "minLength": 1, "maxLength": 65536}
			},
			"required": ["issue_id", "body"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false)},
	},
	{
		name:  "list_comments",
		title: "List comments",
		desc:  "List the comments of an issue, oldest first.",
		input: `{
			"type": "object",
			"properties": {
				"issue_id": {"type": "integer", "minimum": 1},
				"cursor": {"type": "string", "description": "Opaque cursor from a previous call."},
				"page_size": {"type": "integer", "minimum": 1, "maximum": 50, "default": 25}
			},
			"required": ["issue_id"]
		}`,
		ann: readOnly(""),
	},
	{
		name: "assign_issue",
		desc: "Replace the assignees of an issue.",
		input: `{
			"type": "object",
			"properties": {
				"issue_id": {"type": "integer", "minimum": 1},
				"assignees": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 10, "uniqueItems": true}
			},
			"required": ["issue_id", "assignees"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true},
	},
	{
		name: "add_label",
		desc: "Attach a label to an issue, creating the label if needed.",
		input: `{
			"type": "object",
			"properties": {
				"issue_id": {"type": "integer", "minimum": 1},
				"label": {"type": "string", "minLength": 1, "maxLength": 50},
				"color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$", "default": "#cccccc"}
			},
			"required": ["issue_id", "label"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true},
	},
	{
		name:  "list_projects",
		title: "List projects",
		desc:  "List every project visible to the caller.",
		input: `{"type": "object", "properties": {}}`,
		output: `{
			"type": "object",
			"properties": {
				"projects": {
					"type": "array",
					"items": {
						"type": "object",
						"properties": {
							"name": {"type": "string"},
							"visibility": {"type": "string", "enum": ["public", "internal", "private"]},
							"archived": {"type": "boolean"}
						},
						"required": ["name", "visibility"]
					}
				}
			},
			"required": ["projects"]
		}`,
		sample: `{"projects": [{"name": "web", "visibility": "public", "archived": false}, {"name": "billing", "visibility": "private", "archived": false}]}`,
		ann:    readOnly("List projects"),
		icons:  []mcp.Icon{{Source: "https://tracker.example.com/icons/projects.svg", MIMEType: "image/svg+xml"}},
	},
	{
		name: "create_project",
		desc: "Create a project with optional settings.",
		input: `{
			"type": "object",
			"properties": {
				"name": {"type": "string", "pattern": "^[a-z][a-z0-9-]{2,38}$"},
				"visibility": {"type": "string", "enum": ["public", "internal", "private"], "default": "private"},
				"settings": {
					"type": "object",
					"properties": {
						"default_branch": {"type": "string", "default": "main"},
						"allow_forking": {"type": "boolean", "default": false},
						"required_approvals": {"type": "integer", "minimum": 0, "maximum": 10}
					}
				}
			},
			"required": ["name"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	},
	{
		name: "archive_project",
		desc: "Archive a project: it becomes read-only for everybody.",
		input: `{
			"type": "object",
			"properties": {"name": {"type": "string"}},
			"required": ["name"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	},
	{
		name:  "run_pipeline",
		title: "Run pipeline",
		desc:  "Start a CI pipeline for a ref, with optional variables.",
		input: `{
			"type": "object",
			"properties": {
				"project": {"type": "string"},
				"ref": {"type": "string", "default": "main"},
				"variables": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Extra environment variables for the jobs."}
			},
			"required": ["project"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	},
	{
		name:  "get_pipeline_status",
		title: "Get pipeline status",
		desc:  "Report the status of a pipeline and of its jobs.",
		input: `{
			"type": "object",
			"properties": {
				"project": {"type": "string"},
				"pipeline_id": {"type": "integer", "minimum": 1}
			},
			"required": ["project", "pipeline_id"]
		}`,
		output: `{
			"type": "object",
			"properties": {
				"status": {"type": "string", "enum": ["pending", "running", "success", "failed", "canceled"]},
				"duration_seconds": {"type": "number", "minimum": 0},
				"jobs": {
					"type": "array",
					"items": {
						"type": "object",
						"properties": {"name": {"type": "string"}, "status": {"type": "string"}},
						"required": ["name", "status"]
					}
				}
			},
			"required": ["status"]
		}`,
		sample: `{"status": "success", "duration_seconds": 312.5, "jobs": [{"name": "test", "status": "success"}, {"name": "build", "status": "success"}]}`,
		ann:    readOnly("Get pipeline status"),
	},
	{
		name: "cancel_pipeline",
		desc: "Cancel a running pipeline.",
		input: `{
			"type": "object",
			"properties": {
				"project": {"type": "string"},
				"pipeline_id": {"type": "integer", "minimum": 1}
			},
			"required": ["project", "pipeline_id"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true},
	},
	{
		name: "list_deployments",
		desc: "List recent deployments to an environment.",
		input: `{
			"type": "object",
			"properties": {
				"environment": {"type": "string", "enum": ["dev", "staging", "production"]},
				"since": {"type": "string", "format": "date-time"},
				"limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
			},
			"required": ["environment"]
		}`,
		ann: readOnly(""),
	},
	{
		name:  "deploy",
		title: "Deploy",
		desc:  "Deploy a version of a project to an environment.",
		input: `{
			"type": "object",
			"properties": {
				"project": {"type": "string"},
				"environment": {"type": "string", "enum": ["dev", "staging", "production"]},
				"version": {"type": "string", "pattern": "^v?[0-9]+\\.[0-9]+\\.[0-9]+$"},
				"dry_run": {"type": "boolean", "default": false}
			},
			"required": ["project", "environment", "version"]
		}`,
		ann:  &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
		meta: mcp.Meta{"com.example/requiresApproval": true},
	},
	{
		name: "rollback",
		desc: "Roll an environment back to the previous successful deployment.",
		input: `{
			"type": "object",
			"properties": {
				"project": {"type": "string"},
				"environment": {"type": "string", "enum": ["dev", "staging", "production"]},
				"steps": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1}
			},
			"required": ["project", "environment"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	},
	{
		name:  "query_metrics",
		title: "Query metrics",
		desc:  "Query a time series over a time range.",
		input: `{
			"type": "object",
			"properties": {
				"metric": {"type": "string", "examples": ["http_requests_total", "cpu_seconds"]},
				"range": {
					"type": "object",
					"properties": {
						"from": {"type": "string", "format": "date-time"},
						"to": {"type": "string", "format": "date-time"}
					},
					"required": ["from", "to"]
				},
				"step_seconds": {"type": "integer", "minimum": 10, "maximum": 3600, "default": 60},
				"aggregation": {"type": "string", "enum": ["avg", "sum", "min", "max", "p95"], "default": "avg"}
			},
			"required": ["metric", "range"]
		}`,
		output: `{
			"type": "object",
			"properties": {
				"metric": {"type": "string"},
				"points": {
					"type": "array",
					"items": {
						"type": "object",
						"properties": {"t": {"type": "string", "format": "date-time"}, "v": {"type": "number"}},
						"required": ["t", "v"]
					}
				}
			},
			"required": ["metric", "points"]
		}`,
		sample: `{"metric": "cpu_seconds", "points": [{"t": "2025-01-01T00:00:00Z", "v": 0.25}, {"t": "2025-01-01T00:01:00Z", "v": 0.5}]}`,
		ann:    readOnly("Query metrics"),
	},
	{
		name: "get_logs",
		desc: "Read the most recent log lines of a service.",
		input: `{
			"type": "object",
			"properties": {
				"service": {"type": "string"},
				"level": {"type": "string", "enum": ["debug", "info", "warn", "error"], "default": "info"},
				"tail": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 100},
				"grep": {"type": "string", "description": "Regular expression the lines must match."}
			},
			"required": ["service"]
		}`,
		ann: readOnly("Read logs"),
	},
	{
		name:  "set_feature_flag",
		title: "Set feature flag",
		desc:  "Turn a feature flag on or off, optionally for a percentage of users.",
		input: `{
			"type": "object",
			"properties": {
				"flag": {"type": "string"},
				"enabled": {"type": "boolean"},
				"rollout_percent": {"type": "number", "minimum": 0, "maximum": 100, "default": 100}
			},
			"required": ["flag", "enabled"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	},
	{
		name: "send_notification",
		desc: "Send a message to people over email, chat or the pager.",
		input: `{
			"type": "object",
			"properties": {
				"channel": {"type": "string", "enum": ["email", "slack", "pager"]},
				"recipients": {"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 1},
				"message": {"type": "string", "maxLength": 4000},
				"severity": {"type": "string", "enum": ["info", "warning", "critical"], "default": "info"}
			},
			"required": ["channel", "recipients", "message"]
		}`,
		ann: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	},
	{
		name: "summarize_text",
		desc: "Summarize a text in a given style.",
		input: `{
			"type": "object",
			"properties": {
				"text": {"type": "string"},
				"max_words": {"type": "integer", "minimum": 10, "maximum": 500, "default": 100},
				"style": {"type": "string", "enum": ["bullet", "paragraph", "tldr"]}
			},
			"required": ["text"]
		}`,
		output: `{
			"type": "object",
			"properties": {"summary": {"type": "string"}, "words": {"type": "integer"}},
			"required": ["summary"]
		}`,
		sample: `{"summary": "All good.", "words": 2}`,
	},
	{
		name:  "ping",
		title: "Ping",
		desc:  "Check that the tracker is reachable.",
		input: `{"type": "object"}`,
		ann:   &mcp.ToolAnnotations{ReadOnlyHint: true},
	},
}

// toolsOnlyNames is the subset of fullTools served by the tools-only mode.
var toolsOnlyNames = []string{"search_issues", "get_issue", "create_issue", "close_issue", "ping"}

var fullPrompts = []*mcp.Prompt{
	{
		Name:        "summarize_issue",
		Title:       "Summarize an issue",
		Description: "Summarize an issue and its discussion for a status update.",
		Arguments: []*mcp.PromptArgument{
			{Name: "issue_id", Description: "Issue number.", Required: true},
			{Name: "tone", Description: "formal or casual (default formal).", Required: false},
		},
	},
	{
		Name:        "triage",
		Description: "Triage recently opened issues.",
		Arguments: []*mcp.PromptArgument{
			{Name: "labels", Description: "Comma-separated labels to focus on."},
			{Name: "since", Title: "Since", Description: "ISO date; defaults to one week ago."},
		},
	},
	{
		Name:        "release_notes",
		Title:       "Release notes",
		Description: "Draft release notes between two tags.",
		Arguments: []*mcp.PromptArgument{
			{Name: "from_tag", Required: true},
			{Name: "to_tag", Required: true},
			{Name: "audience", Description: "users or developers."},
		},
	},
	{
		Name:        "code_review",
		Title:       "Code review",
		Description: "Review a diff for bugs, style and missing tests.",
		Arguments: []*mcp.PromptArgument{
			{Name: "diff", Title: "Diff", Description: "Unified diff.", Required: true},
			{Name: "focus", Description: "security, performance or readability."},
		},
	},
	{
		Name:        "incident_postmortem",
		Description: "Write a blameless postmortem for an incident.",
		Arguments: []*mcp.PromptArgument{
			{Name: "incident_id", Required: true},
			{Name: "include_timeline", Description: "yes or no."},
		},
		Meta: mcp.Meta{"com.example/category": "operations"},
	},
	{
		Name:        "standup",
		Title:       "Daily standup",
		Description: "Prepare the daily standup summary from yesterday's activity.",
	},
}

// resourceDef is a static resource and its content.
type resourceDef struct {
	res  *mcp.Resource
	text string // text content, or
	blob []byte // binary content
}

// pngPixel is a valid 1x1 transparent PNG.
var pngPixel = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
	0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
	0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49,
	0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
}

var fullResources = []resourceDef{
	{
		res:  &mcp.Resource{URI: "test://docs/readme", Name: "readme", Title: "README", Description: "How to use the tracker.", MIMEType: "text/markdown"},
		text: "# Tracker\n\nUse the tools to search and manage issues.\n",
	},
	{
		res:  &mcp.Resource{URI: "test://docs/changelog", Name: "changelog", Description: "Release history.", MIMEType: "text/markdown"},
		text: "## 1.0.0\n\n- First release.\n",
	},
	{
		res:  &mcp.Resource{URI: "test://config/settings.json", Name: "settings", Title: "Tracker settings", MIMEType: "application/json"},
		text: `{"default_project": "web", "timezone": "UTC"}`,
	},
	{
		res:  &mcp.Resource{URI: "test://data/users.csv", Name: "users", Description: "Everybody with an account.", MIMEType: "text/csv"},
		text: "login,name\nada,Ada Lovelace\ngrace,Grace Hopper\n",
	},
	{
		res:  &mcp.Resource{URI: "test://images/logo.png", Name: "logo", Title: "Logo", MIMEType: "image/png", Size: int64(len(pngPixel))},
		blob: pngPixel,
	},
	{
		res:  &mcp.Resource{URI: "test://data/archive.bin", Name: "archive", Description: "Opaque export of the database.", MIMEType: "application/octet-stream", Size: 8},
		blob: []byte{0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03},
	},
	{
		res: &mcp.Resource{
			URI: "test://logs/latest.log", Name: "latest-log", MIMEType: "text/plain",
			Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: 0.25},
		},
		text: "2025-01-01T00:00:00Z info started\n",
	},
	{
		res: &mcp.Resource{
			URI: "https://status.example.com/api/summary.json", Name: "status", Title: "Service status", MIMEType: "application/json",
			Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, LastModified: "2025-01-01T00:00:00Z"},
			Meta:        mcp.Meta{"com.example/cacheSeconds": 60},
		},
		text: `{"status": "operational"}`,
	},
}

var fullTemplates = []*mcp.ResourceTemplate{
	{URITemplate: "test://issues/{id}", Name: "issue", Title: "Issue", Description: "An issue as JSON.", MIMEType: "application/json"},
	{URITemplate: "test://projects/{project}/files/{+path}", Name: "project-file", Description: "A file in a project's default branch.", MIMEType: "text/plain"},
	{URITemplate: "test://users/{login}/avatar", Name: "avatar", MIMEType: "image/png"},
	{URITemplate: "test://search{?q,limit}", Name: "search", Description: "Search results as JSON.", MIMEType: "application/json"},
	{
		URITemplate: "test://metrics/{metric}/{range}", Name: "metric-series", Title: "Metric series", MIMEType: "text/csv",
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}},
	},
}

const fullInstructions = "This server models a project tracker with CI/CD and observability. " +
	"Use search_issues before get_issue; deploy and rollback change production."
