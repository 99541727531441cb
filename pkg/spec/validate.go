package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// ErrSchemaMissing is returned (wrapped) when the schema of the negotiated
// revision is not in the set given to Validate: the caller must load it,
// nothing is skipped silently.
var ErrSchemaMissing = errors.New("schema not loaded")

// itemList describes one list of the surface: its kind of item, from
// manifest.ItemKinds, and the published schema's definitions of an item
// and of a page.
type itemList struct {
	method  string // list method
	key     string // items key in the list result and the snapshot
	kind    string // finding subject kind
	idKey   string // identity member of an item
	def     string // schema definition of an item
	listDef string // schema definition of a page
	noun    string // for messages
}

// itemDefs names the schema definitions of each subject kind's item and
// page.
var itemDefs = map[string][2]string{
	finding.KindTool:             {"Tool", "ListToolsResult"},
	finding.KindPrompt:           {"Prompt", "ListPromptsResult"},
	finding.KindResource:         {"Resource", "ListResourcesResult"},
	finding.KindResourceTemplate: {"ResourceTemplate", "ListResourceTemplatesResult"},
}

// itemLists are in the order a capture reads the lists.
var itemLists = func() []*itemList {
	var out []*itemList
	for _, m := range capture.ListMethods {
		k, _ := manifest.KindOfMethod(m)
		d := itemDefs[k.Subject]
		out = append(out, &itemList{k.Method, k.List, k.Subject, k.Identity, d[0], d[1], k.Noun})
	}
	return out
}()

func sectionOf(method string) *itemList {
	for _, s := range itemLists {
		if s.method == method {
			return s
		}
	}
	return nil
}

// probeDefs maps the probe methods whose results are validated onto the
// definition of their result.
var probeDefs = map[string]string{
	"tools/call":          "CallToolResult",
	"prompts/get":         "GetPromptResult",
	"resources/read":      "ReadResourceResult",
	"completion/complete": "CompleteResult",
}

// item is one element of a list, wherever it was read from.
type item struct {
	sec   *itemList
	index int // position in the whole list, over all pages
	page  int // page index (-1 for a snapshot)
	value any // decoded JSON
	subj  finding.Subject
}

func (it *item) obj() map[string]any {
	m, _ := it.value.(map[string]any)
	return m
}

// label is how messages name the item: "tool read_file".
func (it *item) label() string { return it.sec.noun + " " + it.subj.Name }

// identity returns the item's identity, or "" when it has none.
func identity(sec *itemList, v any) string {
	m, _ := v.(map[string]any)
	s, _ := m[sec.idKey].(string)
	return s
}

func newItem(sec *itemList, index, page int, v any) *item {
	name := identity(sec, v)
	if name == "" {
		name = "#" + strconv.Itoa(index)
	}
	return &item{sec: sec, index: index, page: page, value: v, subj: finding.Subject{Kind: sec.kind, Name: name}}
}

// checker accumulates the findings of one validation.
type checker struct {
	rev    Revision
	known  bool    // rev is a published revision
	schema *Schema // nil when !known
	all    *Schemas
	out    []finding.Finding
	items  []*item
	bySec  map[*itemList][]*item
	// byTool finds a tool item by name, for probe results.
	byTool map[string]*item
	// toolSchemas caches compiled tool schemas by dialect and content.
	toolSchemas map[string]*toolSchema
	// jobs are the distinct tool-schema checks (see schemacheck.go).
	jobs     map[string]*schemaJob            // full compiles, by content
	nodeJobs map[string]map[string]*schemaJob // node checks, by dialect and normal form
	jobOrder []*schemaJob
	// revisions is what the comparison of revisions needs (features.go).
	revisions revisionComparison
	// scan holds the text patterns, built-in and configured.
	scan *textscan.Scanner
	// clients are the profiles of LintOptions.Clients; serverName is the
	// serverInfo.name a prefixing client puts before tool names.
	clients    []clients.Profile
	serverName string
}

func (k *checker) add(rule string, subj finding.Subject, pointer, msg string) {
	f := finding.New(rule, subj, pointer, msg, nil, nil)
	f.Revision = k.rev.Name
	k.out = append(k.out, f)
}

var server = finding.Subject{Kind: finding.KindServer}

func newChecker(version string, s *Schemas, lo LintOptions) (*checker, error) {
	c := &checker{scan: lo.scanner(), clients: lo.Clients, all: s, bySec: map[*itemList][]*item{}, byTool: map[string]*item{}, toolSchemas: map[string]*toolSchema{}, jobs: map[string]*schemaJob{}, nodeJobs: map[string]map[string]*schemaJob{}}
	rev, ok := LookupRevision(version)
	c.rev, c.known = rev, ok
	if !ok {
		c.rev = Revision{Name: version}
		return c, nil
	}
	sch, err := s.Lookup(version)
	if err != nil {
		return nil, fmt.Errorf("validating against MCP %s: %w", version, err)
	}
	c.schema = sch
	return c, nil
}

// validate checks everything a capture recorded against the published
// schema of the revision the session negotiated (c.ProtocolVersion), and
// lints the surface. s must hold (or, made by Open, load) that revision's
// schema. Fields that belong to another revision are found by comparing
// the schemas (protocol-feature-version-mismatch), so the other revisions
// are needed too when a member is not defined by the negotiated one; one
// that s cannot provide is named in a finding, never skipped silently.
//
// A server that negotiated a revision that is not published gets a
// negotiated-version-unknown finding; its results are still linted. The
// error is only for the negotiated revision's schema missing
// (ErrSchemaMissing, or the error of loading it).
//
// Findings are sorted (finding.Sort) and carry the negotiated revision.
// The lint uses the built-in text patterns; ValidateWith takes configured
// ones.
func validate(c *capture.Capture, s *Schemas) ([]finding.Finding, error) {
	return ValidateWith(c, s, LintOptions{})
}

// ValidateWith is Validate with lint options (the text patterns of
// .mcp-surface.yaml).
func ValidateWith(c *capture.Capture, s *Schemas, lo LintOptions) ([]finding.Finding, error) {
	k, err := newChecker(c.ProtocolVersion, s, lo)
	if err != nil {
		return nil, err
	}
	k.envelopes(c.Frames)
	k.rawJSON(c.Frames)
	k.diagnostics(c)
	if !k.known {
		k.add(rules.NegotiatedVersionUnknown, server, "/protocolVersion",
			fmt.Sprintf("the server settled on protocol version %q, which is not a published MCP revision (known: %s)", c.ProtocolVersion, strings.Join(RevisionNames(), ", ")))
	}
	k.handshake(c)
	k.pages(c.Pages)
	toolsRead := len(c.PagesOf(capture.MethodToolsList)) > 0
	for _, x := range c.Exchanges {
		k.probe(x, toolsRead)
	}
	k.checkItems()
	k.clientProfiles()
	k.extensionsOfCapture(c)
	return k.finish(), nil
}

// ValidateManifest checks a snapshot: each item against the Tool, Prompt,
// Resource or ResourceTemplate definition of the snapshot's revision,
// capabilities against ServerCapabilities, serverInfo against
// Implementation, plus the checks of tool schemas and the lint that
// Validate runs. A snapshot keeps no pages or frames, so envelope and
// list-level checks do not apply.
func ValidateManifest(m *manifest.Manifest, s *Schemas) ([]finding.Finding, error) {
	return ValidateManifestWith(m, s, LintOptions{})
}

// ValidateManifestWith is ValidateManifest with lint options (the text
// patterns of .mcp-surface.yaml).
func ValidateManifestWith(m *manifest.Manifest, s *Schemas, lo LintOptions) ([]finding.Finding, error) {
	k, err := newChecker(m.ProtocolVersion, s, lo)
	if err != nil {
		return nil, err
	}
	if !k.known {
		k.add(rules.NegotiatedVersionUnknown, server, "/protocolVersion",
			fmt.Sprintf("the snapshot's protocol version %q is not a published MCP revision (known: %s)", m.ProtocolVersion, strings.Join(RevisionNames(), ", ")))
	}
	for _, part := range []struct {
		key, def string
		raw      json.RawMessage
	}{{"serverInfo", "Implementation", m.ServerInfo}, {"capabilities", "ServerCapabilities", m.Capabilities}} {
		if len(part.raw) == 0 {
			continue
		}
		v, err := decodeJSON(part.raw)
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", part.key, err)
		}
		if k.known {
			k.validateValue(part.def, v, func(loc []string) (finding.Subject, string, string) {
				return server, jsonptr.New(part.key).Append(loc...).String(), "snapshot " + part.key
			})
			k.features(v, part.def, func(loc []string) (finding.Subject, string, string) {
				return server, jsonptr.New(part.key).Append(loc...).String(), "snapshot " + part.key
			})
		}
		if part.key == "serverInfo" {
			k.serverText(v, "/serverInfo")
		}
	}
	if len(m.Instructions) > 0 {
		v, err := decodeJSON(m.Instructions)
		if err != nil {
			return nil, fmt.Errorf("snapshot instructions: %w", err)
		}
		if s, ok := v.(string); ok {
			k.text(server, "/instructions", "server instructions", s)
		} else if k.known {
			k.add(rules.SchemaViolation, server, "/instructions",
				fmt.Sprintf("snapshot instructions: is %s, but the %s schema requires a string", jsonType(v), k.rev.Name))
		}
	}
	for _, sec := range itemLists {
		for i, it := range m.Items(sec.key) {
			v, err := decodeJSON(it.Raw)
			if err != nil {
				return nil, fmt.Errorf("snapshot %s %s: %w", sec.noun, it.ID, err)
			}
			x := newItem(sec, i, -1, v)
			k.addItem(x)
			if k.known {
				k.validateValue(sec.def, v, func(loc []string) (finding.Subject, string, string) {
					return x.subj, pointerOf(loc), x.label()
				})
				k.features(v, sec.def, func(loc []string) (finding.Subject, string, string) {
					return x.subj, pointerOf(loc), x.label()
				})
			}
		}
	}
	k.checkItems()
	k.clientProfiles()
	k.extensions(m)
	return k.finish(), nil
}

// finish merges findings that share a fingerprint (the same problem at the
// same place, seen on several pages or in several results): the first
// keeps its message and says how many more there were. Then it sorts.
func (k *checker) finish() []finding.Finding {
	k.undecidedFeatures()
	index := map[string]int{}
	extra := map[string]int{}
	out := k.out[:0]
	for _, f := range k.out {
		if _, ok := index[f.Fingerprint]; ok {
			extra[f.Fingerprint]++
			continue
		}
		index[f.Fingerprint] = len(out)
		out = append(out, f)
	}
	for fp, n := range extra {
		if n == 1 {
			out[index[fp]].Message += " (and 1 more like it)"
		} else {
			out[index[fp]].Message += fmt.Sprintf(" (and %d more like it)", n)
		}
	}
	finding.Sort(out)
	return out
}

// resultDefinition is the definition a result is validated against: the
// method's, or InputRequiredResult when a 2026-07-28 server asks for
// more input instead of answering.
func (k *checker) resultDefinition(def string, v any) string {
	if m, ok := v.(map[string]any); ok && m["resultType"] == "input_required" && k.schema.HasDefinition("InputRequiredResult") {
		return "InputRequiredResult"
	}
	return def
}

// locator maps a location inside a validated value onto the subject, the
// pointer within it and how messages name the subject.
type locator func(loc []string) (subj finding.Subject, pointer, label string)

func (k *checker) handshake(c *capture.Capture) {
	if len(c.HandshakeResult) == 0 {
		return
	}
	method := c.Handshake
	if method == "" {
		method = capture.HandshakeInitialize
	}
	label := method + " result"
	v, err := decodeJSON(c.HandshakeResult)
	if err != nil {
		k.add(rules.SchemaViolation, server, "", fmt.Sprintf("%s: %v", label, err))
		return
	}
	loc := func(l []string) (finding.Subject, string, string) { return server, pointerOf(l), label }
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["instructions"].(string); ok {
			k.text(server, "/instructions", "server instructions", s)
		}
		k.serverText(m["serverInfo"], "/serverInfo")
	}
	if !k.known {
		return
	}
	def := k.rev.HandshakeDefinition(method)
	if !k.schema.HasDefinition(def) {
		k.add(rules.SchemaViolation, server, "",
			fmt.Sprintf("%s: the %s revision has no %s handshake (its schema defines no %s); a server that settles on %s must use %s",
				label, k.rev.Name, method, def, k.rev.Name, k.rev.Handshake))
		return
	}
	k.validateValue(def, v, loc)
	k.features(v, def, loc)
}

// pages validates every page of every list. Pages are decoded and
// validated on all processors; items are registered in order in between,
// so that positions and findings do not depend on scheduling.
func (k *checker) pages(pages []capture.Page) {
	type work struct {
		sec   *itemList
		label string
		v     any
		err   error
		first int
		out   []finding.Finding
	}
	ws := make([]work, len(pages))
	parallel(len(pages), func(i int) {
		p := pages[i]
		if ws[i].sec = sectionOf(p.Method); ws[i].sec != nil {
			ws[i].label = fmt.Sprintf("%s page %d", p.Method, p.Index)
			ws[i].v, ws[i].err = decodeJSON(p.Result)
		}
	})
	for i := range ws {
		w := &ws[i]
		if w.sec == nil || w.err != nil {
			continue
		}
		w.first = k.countOf(w.sec)
		if m, ok := w.v.(map[string]any); ok {
			if arr, ok := m[w.sec.key].([]any); ok {
				for j, x := range arr {
					k.addItem(newItem(w.sec, w.first+j, pages[i].Index, x))
				}
			}
		}
	}
	parallel(len(ws), func(i int) {
		w := &ws[i]
		if w.sec == nil {
			return
		}
		c := k.child()
		if w.err != nil {
			c.add(rules.SchemaViolation, server, "/"+w.sec.key, fmt.Sprintf("%s: %v", w.label, w.err))
		} else if k.known {
			c.page(w.sec, w.label, w.v, w.first)
		}
		w.out = c.out
	})
	for _, w := range ws {
		k.out = append(k.out, w.out...)
	}
}

// page validates one decoded page whose items start at position first.
func (k *checker) page(sec *itemList, label string, v any, first int) {
	loc := func(l []string) (finding.Subject, string, string) {
		if len(l) >= 2 && l[0] == sec.key {
			if i, err := strconv.Atoi(l[1]); err == nil && first+i < len(k.bySec[sec]) {
				it := k.bySec[sec][first+i]
				return it.subj, pointerOf(l[2:]), it.label()
			}
		}
		return server, pointerOf(l), label
	}
	def := k.resultDefinition(sec.listDef, v)
	k.validateValue(def, v, loc)
	k.features(v, def, loc)
}

// child returns a checker that shares k's read-only state and collects
// its own findings, for work done in parallel.
func (k *checker) child() *checker {
	c := *k
	c.out = nil
	return &c
}

// parallel calls fn(0..n-1) on all processors and waits.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// countOf is how many items of a itemList were read so far.
func (k *checker) countOf(sec *itemList) int { return len(k.bySec[sec]) }

func (k *checker) addItem(it *item) {
	k.items = append(k.items, it)
	k.bySec[it.sec] = append(k.bySec[it.sec], it)
	if it.sec.kind == finding.KindTool {
		if _, dup := k.byTool[it.subj.Name]; !dup {
			k.byTool[it.subj.Name] = it
		}
	}
}

// probe checks the answer to one probe call (tools/call, prompts/get,
// resources/read, completion/complete): the result against the
// revision's schema, structured content against the tool's outputSchema,
// content blocks and resource contents (probe.go), and whether an error
// came back the way the protocol prescribes. toolsRead says whether the
// tools list was read, so that a tool's absence from it means something.
func (k *checker) probe(x capture.Exchange, toolsRead bool) {
	def, ok := probeDefs[x.Method]
	if !ok || (len(x.Result) == 0 && x.Error == nil) {
		return
	}
	subj, label := k.probeSubject(x)
	k.errorChannel(x, subj, toolsRead)
	if len(x.Result) == 0 || x.Error != nil {
		return
	}
	v, err := decodeJSON(x.Result)
	if err != nil {
		k.add(rules.SchemaViolation, subj, "", fmt.Sprintf("%s: %v", label, err))
		return
	}
	start := len(k.out)
	if k.known {
		loc := func(l []string) (finding.Subject, string, string) { return subj, pointerOf(l), label }
		def = k.resultDefinition(def, v)
		k.validateValue(def, v, loc)
		if def == "InputRequiredResult" {
			return
		}
		if x.Method == "tools/call" {
			k.structuredContent(subj, v)
		}
	}
	k.contents(x.Method, subj, label, v, start)
}

// probeSubject names the item a probe was about.
func (k *checker) probeSubject(x capture.Exchange) (finding.Subject, string) {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		Ref  struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
	}
	_ = json.Unmarshal(x.Params, &p)
	var subj finding.Subject
	switch x.Method {
	case "tools/call":
		subj = finding.Subject{Kind: finding.KindTool, Name: p.Name}
	case "prompts/get":
		subj = finding.Subject{Kind: finding.KindPrompt, Name: p.Name}
	case "resources/read":
		subj = finding.Subject{Kind: finding.KindResource, Name: p.URI}
	case "completion/complete":
		if p.Ref.Type == "ref/resource" {
			subj = finding.Subject{Kind: finding.KindResourceTemplate, Name: p.Ref.URI}
		} else {
			subj = finding.Subject{Kind: finding.KindPrompt, Name: p.Ref.Name}
		}
	}
	if subj.Name == "" {
		return server, x.Method + " result"
	}
	return subj, fmt.Sprintf("%s result for %s", x.Method, subjectLabel(subj))
}

// checkItems runs the per-item checks shared by captures and snapshots.
func (k *checker) checkItems() {
	k.duplicates()
	type pending struct {
		field  string
		schema any
		check  *schemaCheck
	}
	checks := make([][]pending, len(k.items))
	for i, it := range k.items {
		obj := it.obj()
		if obj == nil || it.sec.kind != finding.KindTool {
			continue
		}
		for _, field := range []string{"inputSchema", "outputSchema"} {
			// A schema that is not an object is reported by the
			// published schema (tool-*-schema-not-object).
			if v, ok := obj[field].(map[string]any); ok {
				checks[i] = append(checks[i], pending{field, v, k.prepareSchema(v)})
			}
		}
	}
	var all []*schemaCheck
	for _, cs := range checks {
		for _, c := range cs {
			all = append(all, c.check)
		}
	}
	k.runChecks(all)
	outs := make([][]finding.Finding, len(k.items))
	parallel(len(k.items), func(i int) {
		it := k.items[i]
		if it.obj() == nil {
			return
		}
		c := k.child()
		for _, p := range checks[i] {
			c.reportToolSchema(it, p.field, p.check)
			c.requiredUndefined(it, p.field, p.schema)
		}
		if it.sec.kind == finding.KindTool {
			c.toolName(it)
		}
		c.description(it)
		c.itemText(it)
		outs[i] = c.out
	})
	for _, o := range outs {
		k.out = append(k.out, o...)
	}
}

// pointerOf turns validator location tokens into a JSON Pointer.
func pointerOf(tokens []string) string {
	return jsonptr.New(tokens...).String()
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "an integer"
		}
		return "a number"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
