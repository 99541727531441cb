package spec

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// This file checks what probes obtained beyond the published schema: the
// content blocks of results (fields their type needs that the schema
// cannot express, or that a revision without the block type does not
// check), resource contents against what the listing declared, and
// whether errors came back the way the protocol prescribes.

// ValidateProbes is Validate restricted to the results of the capture's
// probes (c.Probes): the findings a probe's answer caused, and none about
// the lists. The lists are still read, to know what each probe called.
func ValidateProbes(c *capture.Capture, s *Schemas) ([]finding.Finding, error) {
	k, err := newChecker(c.ProtocolVersion, s, LintOptions{})
	if err != nil {
		return nil, err
	}
	k.registerPages(c.Pages)
	toolsRead := len(c.PagesOf(capture.MethodToolsList)) > 0
	seen := map[int]bool{}
	for _, r := range c.Probes {
		if r.Exchange < 0 || r.Exchange >= len(c.Exchanges) || seen[r.Exchange] {
			continue
		}
		seen[r.Exchange] = true
		k.probe(c.Exchanges[r.Exchange], toolsRead)
	}
	return k.finish(), nil
}

// registerPages registers the items of every page without validating
// them (ValidateProbes).
func (k *checker) registerPages(pages []capture.Page) {
	for _, p := range pages {
		sec := sectionOf(p.Method)
		if sec == nil {
			continue
		}
		v, err := decodeJSON(p.Result)
		if err != nil {
			continue
		}
		m, _ := v.(map[string]any)
		arr, _ := m[sec.key].([]any)
		first := k.countOf(sec)
		for j, x := range arr {
			k.addItem(newItem(sec, first+j, p.Index, x))
		}
	}
}

// protocolErrorCodes are the JSON-RPC error codes that say something about
// the request or the session rather than about what the tool did: a
// tools/call answered with one of them is not a tool's own failure.
var protocolErrorCodes = map[int64]bool{
	-32700: true, // parse error
	-32600: true, // invalid request
	-32601: true, // method not found (tool calls not supported)
	-32602: true, // invalid params (unknown tool, invalid arguments)
	-32800: true, // request cancelled
	-32020: true, // header mismatch (2026-07-28)
	-32021: true, // missing required client capability (2026-07-28)
	-32022: true, // unsupported protocol version (2026-07-28)
	-32042: true, // URL elicitation required (2025-11-25)
}

// errorChannel checks that a tools/call answer used the channel the
// protocol prescribes. Every revision's CallToolResult says that errors
// originating from the tool SHOULD be reported in the result with isError
// set, not as a JSON-RPC error, and that errors in finding the tool SHOULD
// be JSON-RPC errors (2026-07-28's InvalidParamsError names -32602 for an
// unknown tool). Invalid arguments are accepted either way: only
// 2026-07-28 names them, under -32602, while the isError channel lets the
// model correct itself; neither is a MUST.
func (k *checker) errorChannel(x capture.Exchange, subj finding.Subject, toolsRead bool) {
	if x.Method != capture.MethodToolsCall || subj.Kind != finding.KindTool || !toolsRead {
		return
	}
	_, listed := k.byTool[subj.Name]
	label := "tools/call of " + subjectLabel(subj)
	switch {
	case x.Error != nil && listed && !protocolErrorCodes[x.Error.Code]:
		k.add(rules.ToolCallFailureAsRpcError, subj, "",
			fmt.Sprintf("%s: the listed tool answered with JSON-RPC error %d instead of a result with isError: true, so the model never sees why the call failed", label, x.Error.Code))
	case x.Error == nil && len(x.Result) > 0 && !listed:
		k.add(rules.ToolCallUnknownToolNotRpcError, subj, "",
			label+": the server does not list this tool, yet answered with a result instead of a JSON-RPC error; an error in finding the tool is a protocol error (-32602 Invalid params)")
	}
}

// contents checks the content blocks of a decoded probe result and, for
// resources/read, its contents against the listing. Problems the
// published schema already reported at the same place (from index start
// of k.out on) are not repeated.
func (k *checker) contents(method string, subj finding.Subject, label string, v any, start int) {
	res, _ := v.(map[string]any)
	if res == nil {
		return
	}
	reported := func(ptr string) bool {
		for _, f := range k.out[start:] {
			if f.Subject == subj && (f.Pointer == ptr || strings.HasPrefix(ptr, f.Pointer+"/")) {
				return true
			}
		}
		return false
	}
	add := func(rule, ptr, msg string) {
		if !reported(ptr) {
			k.add(rule, subj, ptr, label+": "+msg)
		}
	}
	switch method {
	case capture.MethodToolsCall:
		blocks, _ := res["content"].([]any)
		for i, b := range blocks {
			k.contentBlock(b, fmt.Sprintf("/content/%d", i), add)
		}
	case capture.MethodPromptsGet:
		msgs, _ := res["messages"].([]any)
		for i, m := range msgs {
			mm, _ := m.(map[string]any)
			switch c := mm["content"].(type) {
			case map[string]any:
				k.contentBlock(c, fmt.Sprintf("/messages/%d/content", i), add)
			case []any:
				for j, b := range c {
					k.contentBlock(b, fmt.Sprintf("/messages/%d/content/%d", i, j), add)
				}
			}
		}
	case capture.MethodResourcesRead:
		cs, _ := res["contents"].([]any)
		for i, c := range cs {
			ptr := fmt.Sprintf("/contents/%d", i)
			cm, _ := c.(map[string]any)
			if cm == nil {
				continue
			}
			resourceContents(cm, ptr, add)
			k.listedMIMEType(subj, label, cm, ptr, reported)
		}
	}
}

// contentBlock checks one content block for the fields its type needs.
func (k *checker) contentBlock(b any, ptr string, add func(rule, ptr, msg string)) {
	m, _ := b.(map[string]any)
	if m == nil {
		return
	}
	typ, _ := m["type"].(string)
	switch typ {
	case "image", "audio":
		mime, ok := m["mimeType"]
		s, isStr := mime.(string)
		switch {
		case !ok:
			add(rules.ContentBlockInvalid, ptr+"/mimeType", fmt.Sprintf("%s content has no mimeType; a client cannot tell how to render the data", typ))
		case !isStr || !mediaType().MatchString(s):
			add(rules.ContentBlockInvalid, ptr+"/mimeType", fmt.Sprintf("%s content has mimeType %s, which is not a MIME type (type/subtype)", typ, display(mime)))
		}
		data, ok := m["data"]
		ds, isStr := data.(string)
		switch {
		case !ok:
			add(rules.ContentBlockInvalid, ptr+"/data", typ+" content has no data")
		case !isStr || !validBase64(ds):
			add(rules.ContentBlockInvalid, ptr+"/data", typ+" content's data is not base64")
		}
	case "resource_link":
		if s, _ := m["uri"].(string); strings.TrimSpace(s) == "" {
			add(rules.ContentBlockInvalid, ptr+"/uri", "resource_link content has no uri; a client cannot follow it")
		}
		if mt, ok := m["mimeType"]; ok {
			if s, isStr := mt.(string); !isStr || !mediaType().MatchString(s) {
				add(rules.ContentBlockInvalid, ptr+"/mimeType", fmt.Sprintf("resource_link content has mimeType %s, which is not a MIME type (type/subtype)", display(mt)))
			}
		}
	case "resource":
		r, _ := m["resource"].(map[string]any)
		if r == nil {
			add(rules.ContentBlockInvalid, ptr+"/resource", "embedded resource content has no resource object")
			return
		}
		resourceContents(r, ptr+"/resource", add)
	}
}

// resourceContents checks one TextResourceContents or BlobResourceContents.
func resourceContents(m map[string]any, ptr string, add func(rule, ptr, msg string)) {
	if s, _ := m["uri"].(string); strings.TrimSpace(s) == "" {
		add(rules.ContentBlockInvalid, ptr+"/uri", "resource contents have no uri")
	}
	_, hasText := m["text"]
	blob, hasBlob := m["blob"]
	switch {
	case hasText && hasBlob:
		add(rules.ContentBlockInvalid, ptr, "resource contents carry both text and blob; they are either text or binary")
	case !hasText && !hasBlob:
		add(rules.ContentBlockInvalid, ptr, "resource contents carry neither text nor blob")
	case hasBlob:
		if s, ok := blob.(string); !ok || !validBase64(s) {
			add(rules.ContentBlockInvalid, ptr+"/blob", "resource contents' blob is not base64")
		}
	}
	if mt, ok := m["mimeType"]; ok {
		if s, isStr := mt.(string); !isStr || !mediaType().MatchString(s) {
			add(rules.ContentBlockInvalid, ptr+"/mimeType", fmt.Sprintf("resource contents have mimeType %s, which is not a MIME type (type/subtype)", display(mt)))
		}
	}
}

// listedMIMEType compares the MIME type of contents read from a listed
// resource with the one the listing declared.
func (k *checker) listedMIMEType(subj finding.Subject, label string, cm map[string]any, ptr string, reported func(string) bool) {
	uri, _ := cm["uri"].(string)
	it := k.resource(uri)
	if it == nil {
		return
	}
	declared, _ := it.obj()["mimeType"].(string)
	if declared == "" {
		return
	}
	got, has := cm["mimeType"].(string)
	s := finding.Subject{Kind: finding.KindResource, Name: uri}
	p := ptr + "/mimeType"
	if reported(p) {
		return
	}
	lbl := label
	if s != subj {
		lbl = fmt.Sprintf("%s (contents of resource %s)", label, uri)
	}
	switch {
	case !has:
		k.add(rules.ResourceContentsMimeTypeMismatch, s, p,
			fmt.Sprintf("%s: the contents have no mimeType, but resources/list declares %s for this resource", lbl, display(declared)))
	case !sameMediaType(got, declared):
		k.add(rules.ResourceContentsMimeTypeMismatch, s, p,
			fmt.Sprintf("%s: the contents have mimeType %s, but resources/list declares %s for this resource", lbl, display(got), display(declared)))
	}
}

// resource finds a listed resource by URI.
func (k *checker) resource(uri string) *item {
	if uri == "" {
		return nil
	}
	for _, sec := range itemLists {
		if sec.kind != finding.KindResource {
			continue
		}
		for _, it := range k.bySec[sec] {
			if it.subj.Name == uri {
				return it
			}
		}
	}
	return nil
}

// mediaType is type "/" subtype with RFC 6838 name characters, optionally
// followed by parameters.
var mediaType = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$`)

// sameMediaType compares the type/subtype of two MIME types, ignoring
// case and parameters.
func sameMediaType(a, b string) bool {
	base := func(s string) string {
		s, _, _ = strings.Cut(s, ";")
		return strings.ToLower(strings.TrimSpace(s))
	}
	return base(a) == base(b)
}

// validBase64 reports whether s is standard base64, padded or not.
func validBase64(s string) bool {
	n := len(s)
	for n > 0 && s[n-1] == '=' && len(s)-n < 2 {
		n--
	}
	if n%4 == 1 {
		return false
	}
	if len(s) != n && len(s)%4 != 0 {
		return false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}
