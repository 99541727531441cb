package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Extensions a capture reads. A server declares an extension in
// capabilities.extensions (2026-07-28 schema, ServerCapabilities.extensions:
// keys are extension identifiers, values settings objects); the capture
// declares the ones it reads in its own client capabilities, so that a
// server that scopes primitives to groups shows the view a client that
// reads groups sees.
const (
	// ExtSkills is the Skills extension (SEP-2640, the
	// modelcontextprotocol/ext-skills specification): skills/list (paginated)
	// and skills/get, each skill a SKILL.md URI, its frontmatter as JSON and
	// a manifest of its files ({uri, digest "sha256:<hex>", size}, or
	// "dynamic").
	ExtSkills = "io.modelcontextprotocol/skills"
	// ExtGroups is the progressive-disclosure working group's draft SEP
	// "Progressive Disclosure via Groups": groups/list (paginated),
	// groups/get returning {instructions?, contents{tools, prompts,
	// resources, groups}}; scoped primitives are absent from */list for a
	// client that declared the extension.
	ExtGroups = "io.modelcontextprotocol/groups"
	// ExtToolbox is the vendor variant of groups shipped by
	// googleapis/mcp-toolbox (extensions/2026-07-28/groups): groups/list
	// (not paginated, [{name, description}]), groups/get {name} returning
	// {name, tools, prompts, ttlMs, cacheScope} with no nesting.
	ExtToolbox = "com.google.cloud/toolbox.v1"
)

// Extension methods.
const (
	MethodSkillsList = "skills/list"
	MethodGroupsList = "groups/list"
	MethodGroupsGet  = "groups/get"
)

// KnownExtensions are the extensions a capture reads, sorted.
var KnownExtensions = []string{ExtToolbox, ExtGroups, ExtSkills}

// DiagExtensionUncaptured is the diagnostic of an extension the server
// declares and the capture does not know: it is recorded as declared (id
// and settings) and not read.
const DiagExtensionUncaptured = "unread-extension"

// Bounds of a group walk (groups/get, recursively through
// contents.groups). The draft SEP asks clients to stop on a cycle and
// servers to keep hierarchies shallow.
const (
	MaxGroupDepth = 8
	MaxGroups     = 1000
	// LimitGroupDepth and LimitGroupCount are what a LimitError names.
	LimitGroupDepth = "group depth"
	LimitGroupCount = "group count"
)

// ExtensionCapture is what a capture read of the extensions the server
// declared.
type ExtensionCapture struct {
	// ClientDeclared are the extensions the capture declared in its client
	// capabilities: the view the capture holds (sorted). Empty for the
	// view of a client that reads no extension.
	ClientDeclared []string `json:"clientDeclared,omitempty"`
	// Uncaptured are extensions the server declares that the capture does
	// not know, sorted: declared, never read.
	Uncaptured []string `json:"uncaptured,omitempty"`
	// SkillTexts are the SKILL.md files read (resources/read of each
	// listed skill's uri), in listing order.
	SkillTexts []SkillText `json:"skillTexts,omitempty"`
	// Groups are the groups/get answers, in the order they were fetched.
	Groups []GroupGet `json:"groups,omitempty"`
	// Flat, when asked for (Options.FlatView), are the list pages a
	// client that declares no extension receives (tools/list, prompts/list,
	// resources/list, resources/templates/list), read in a session of
	// their own.
	Flat []Page `json:"flat,omitempty"`
}

// SkillText is one SKILL.md as read.
type SkillText struct {
	URI string `json:"uri"`
	// Result is the raw resources/read result.
	Result json.RawMessage `json:"result"`
	Frame  int             `json:"frame"`
}

// GroupGet is one groups/get answer.
type GroupGet struct {
	// Extension is ExtGroups or ExtToolbox.
	Extension string `json:"extension"`
	Name      string `json:"name"`
	// Parent is the group whose contents.groups named it ("" for a group
	// of groups/list); Depth is 0 for those.
	Parent string          `json:"parent,omitempty"`
	Depth  int             `json:"depth"`
	Result json.RawMessage `json:"result"`
	Frame  int             `json:"frame"`
}

// GroupsListMethod is the list method of a groups variant, for Pages:
// both variants answer groups/list, so the toolbox variant's pages are
// recorded under a method of their own.
func GroupsListMethod(ext string) string {
	if ext == ExtToolbox {
		return MethodGroupsList + "#" + ExtToolbox
	}
	return MethodGroupsList
}

// extParams are the params of an extension request: a cursor, a name or
// a uri.
type extParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
	Name   string `json:"name,omitempty"`
}

// extResult takes any result object: what is kept is the frame's raw
// bytes, never the decoded value.
type extResult struct {
	mcp.ResultBase
}

// registerExtensions declares the known extensions in the client's
// capabilities and registers their methods for sending.
func registerExtensions(c *mcp.Client, caps *mcp.ClientCapabilities) error {
	for _, id := range KnownExtensions {
		caps.AddExtension(id, map[string]any{})
	}
	for _, m := range []string{MethodSkillsList, MethodGroupsList, MethodGroupsGet} {
		if err := mcp.AddSendingCustomMethod[*extParams, *extResult](c, m); err != nil {
			return err
		}
	}
	return nil
}

// declaredExtensions returns the server's capabilities.extensions.
func declaredExtensions(handshake json.RawMessage) map[string]json.RawMessage {
	var r struct {
		Capabilities struct {
			Extensions map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(handshake, &r)
	return r.Capabilities.Extensions
}

// readExtensions reads every known extension the server declares, and
// records the others as uncaptured.
func (c *Capture) readExtensions(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits) error {
	declared := declaredExtensions(c.HandshakeResult)
	if c.Extensions == nil {
		c.Extensions = &ExtensionCapture{}
	}
	c.Extensions.ClientDeclared = slices.Clone(KnownExtensions)
	ids := make([]string, 0, len(declared))
	for id := range declared {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if !slices.Contains(KnownExtensions, id) {
			c.Extensions.Uncaptured = append(c.Extensions.Uncaptured, id)
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagExtensionUncaptured, Method: id,
				Message: fmt.Sprintf("the server declares the extension %q, which mcp-surface does not know: it is recorded as declared (with its settings) and what it serves is not captured", truncate(id, 200))})
		}
	}
	if _, ok := declared[ExtSkills]; ok {
		if err := c.readList(ctx, cs, rec, sess, lim, MethodSkillsList); err != nil {
			return err
		}
		if !c.listFailed(MethodSkillsList) {
			if err := c.readSkillTexts(ctx, cs, rec, sess, lim); err != nil {
				return err
			}
		}
	}
	for _, ext := range []string{ExtGroups, ExtToolbox} {
		if _, ok := declared[ext]; !ok {
			continue
		}
		if err := c.readList(ctx, cs, rec, sess, lim, GroupsListMethod(ext)); err != nil {
			return err
		}
		if c.listFailed(GroupsListMethod(ext)) {
			continue
		}
		if err := c.walkGroups(ctx, cs, rec, sess, lim, ext); err != nil {
			return err
		}
	}
	return nil
}

// listFailed reports whether a list answered with an error.
func (c *Capture) listFailed(method string) bool {
	return slices.ContainsFunc(c.Diagnostics, func(d Diagnostic) bool { return d.Code == DiagListError && d.Method == method })
}

// wireMethod is the JSON-RPC method a Pages method is sent as.
func wireMethod(method string) string {
	if method == GroupsListMethod(ExtToolbox) {
		return MethodGroupsList
	}
	return method
}

// extListPage asks for one page of an extension's list.
func extListPage(ctx context.Context, cs *mcp.ClientSession, method, cursor string) error {
	_, err := mcp.CallCustomMethod[*extParams, *extResult](ctx, cs, wireMethod(method), &extParams{Cursor: cursor})
	return err
}

// readSkillTexts reads the SKILL.md of every listed skill (the text the
// model reads when the skill is loaded; the other files of a skill are
// recorded by their digests only). The recorder's byte bound covers them.
func (c *Capture) readSkillTexts(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits) error {
	for p, s := range listedItems[addressed](c, MethodSkillsList, "skills") {
		if s.URI == "" {
			continue
		}
		ex, err := c.request(ctx, rec, sess, lim, MethodResourcesRead, func(rctx context.Context) error {
			_, err := cs.ReadResource(rctx, &mcp.ReadResourceParams{URI: s.URI})
			return err
		})
		if err != nil {
			return err
		}
		if ex.Error != nil {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagListError, Method: MethodSkillsList,
				Message: fmt.Sprintf("%s page %d answered with error %d: reading the SKILL.md of %s: %s", MethodSkillsList, p.Index+1, ex.Error.Code, truncate(s.URI, 200), ex.Error.Message),
				Frame:   ex.ResponseFrame, RPCCode: ex.Error.Code, Page: p.Index + 1})
			return nil
		}
		c.Extensions.SkillTexts = append(c.Extensions.SkillTexts, SkillText{URI: s.URI, Result: ex.Result, Frame: ex.ResponseFrame})
	}
	return nil
}

// request sends one request through call and returns its recorded
// exchange; a request with no answer is an error naming the method.
func (c *Capture) request(ctx context.Context, rec *recorder, sess *session, lim Limits, method string, call func(context.Context) error) (Exchange, error) {
	before := rec.len()
	rctx, cancel := context.WithTimeout(ctx, lim.RequestTimeout)
	sdkErr := call(rctx)
	cancel()
	ex, ok := lastExchange(rec.snapshot()[before:], method)
	if !ok || ex.ResponseFrame < 0 {
		if sdkErr == nil {
			sdkErr = fmt.Errorf("no %s request was sent", method)
		}
		return ex, blame(ctx, rctx, sdkErr, rec, sess, method, &LimitError{
			Limit: LimitRequestTimeout, Value: lim.RequestTimeout.String(), Detail: "no answer to " + method})
	}
	return ex, nil
}

// walkGroups fetches every group with groups/get, breadth first from the
// groups of groups/list through contents.groups, each group once (a
// cycle stops there), bounded by MaxGroupDepth and MaxGroups. A failed
// groups/get fails the groups list: what the group scopes is unknown.
func (c *Capture) walkGroups(ctx context.Context, cs *mcp.ClientSession, rec *recorder, sess *session, lim Limits, ext string) error {
	type todo struct {
		name, parent string
		depth        int
	}
	var queue []todo
	seen := map[string]bool{}
	for _, g := range listedItems[named](c, GroupsListMethod(ext), "groups") {
		if !seen[g.Name] {
			seen[g.Name] = true
			queue = append(queue, todo{name: g.Name})
		}
	}
	for i := 0; i < len(queue); i++ {
		t := queue[i]
		if i >= MaxGroups {
			return &LimitError{Limit: LimitGroupCount, Value: fmt.Sprint(MaxGroups), Method: MethodGroupsGet,
				Detail: fmt.Sprintf("the server offers more than %d groups", MaxGroups)}
		}
		if t.depth >= MaxGroupDepth {
			return &LimitError{Limit: LimitGroupDepth, Value: fmt.Sprint(MaxGroupDepth), Method: MethodGroupsGet,
				Detail: fmt.Sprintf("group %q is nested more than %d deep", truncate(t.name, 80), MaxGroupDepth)}
		}
		ex, err := c.request(ctx, rec, sess, lim, MethodGroupsGet, func(rctx context.Context) error {
			_, err := mcp.CallCustomMethod[*extParams, *extResult](rctx, cs, MethodGroupsGet, &extParams{Name: t.name})
			return err
		})
		if err != nil {
			return err
		}
		if ex.Error != nil {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{Code: DiagListError, Method: MethodGroupsGet,
				Message: fmt.Sprintf("%s of group %q answered with error %d: %s", MethodGroupsGet, truncate(t.name, 80), ex.Error.Code, ex.Error.Message),
				Frame:   ex.ResponseFrame, RPCCode: ex.Error.Code, Page: 1})
			return nil
		}
		c.Extensions.Groups = append(c.Extensions.Groups, GroupGet{Extension: ext, Name: t.name, Parent: t.parent, Depth: t.depth, Result: ex.Result, Frame: ex.ResponseFrame})
		var r struct {
			Contents struct {
				Groups []struct {
					Name string `json:"name"`
				} `json:"groups"`
			} `json:"contents"`
		}
		_ = json.Unmarshal(ex.Result, &r)
		for _, g := range r.Contents.Groups {
			if !seen[g.Name] {
				seen[g.Name] = true
				queue = append(queue, todo{name: g.Name, parent: t.name, depth: t.depth + 1})
			}
		}
	}
	return nil
}

// runWithFlatView captures as Run does, then reads the lists once more in
// a session that declares no extension: the view of a client that does
// not know groups, which the draft SEP's graceful degradation says a
// server SHOULD flatten into tools/list. That capture's pages become
// Extensions.Flat; its failure is the capture's.
func runWithFlatView(ctx context.Context, t Target, opts Options) (*Capture, error) {
	opts.FlatView = false
	c, err := Run(ctx, t, opts)
	if err != nil {
		return c, err
	}
	c.Wait()
	flat := opts
	flat.NoExtensions, flat.Probes, flat.TrialRevisions, flat.DeferShutdown = true, nil, nil, false
	fc, err := Run(ctx, t, flat)
	if err != nil {
		return c, fmt.Errorf("the view without extensions (--flat-view): %w", err)
	}
	if fs := fc.ListFailures(); len(fs) > 0 {
		return c, fmt.Errorf("the view without extensions (--flat-view): %w", &IncompleteError{Failures: fs})
	}
	if c.Extensions == nil {
		c.Extensions = &ExtensionCapture{}
	}
	c.Extensions.Flat = fc.Pages
	if c.Extensions.Flat == nil {
		c.Extensions.Flat = []Page{}
	}
	return c, nil
}
