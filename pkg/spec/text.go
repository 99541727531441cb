package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Model-visible text is checked for three things a reviewer may not see
// but a model acts on: invisible characters, terminal escapes, and
// instructions aimed at the model. What counts as each is
// internal/base/textscan's, shared with the diff and the renderers.

// text checks one model-visible string. what names it in messages ("tool
// read_file description").
func (k *checker) text(subj finding.Subject, ptr, what, s string) {
	if !k.scan.MayFind(s) {
		return
	}
	var hidden []string
	var shown []textscan.Rune
	nHidden, ansi := 0, false
	for _, h := range textscan.HiddenRunes(s) {
		if textscan.IsEscape(h.R) {
			ansi = true
			continue
		}
		if nHidden < 3 {
			hidden = append(hidden, fmt.Sprintf("%s at byte %d", textscan.Label(h.R), h.At))
		}
		nHidden++
		shown = append(shown, h)
	}
	if nHidden > 0 {
		more := ""
		if nHidden > len(hidden) {
			more = fmt.Sprintf(", and %d more", nHidden-len(hidden))
		}
		spelled := ""
		if tags := textscan.TagText(shown, 80); tags != "" {
			spelled = fmt.Sprintf("; the tag characters spell %q", tags)
		}
		k.add(rules.TextHiddenCharacters, subj, ptr,
			fmt.Sprintf("%s contains %d invisible character(s) the model reads but a reviewer does not see: %s%s%s", what, nHidden, strings.Join(hidden, ", "), more, spelled))
	}
	if ansi {
		k.add(rules.TextAnsiEscape, subj, ptr,
			fmt.Sprintf("%s contains ANSI terminal escape sequences, which can hide or rewrite text in a terminal", what))
	}
	// Precise patterns only: this reports text wherever it is, not only
	// when a change adds it.
	if ms := k.scan.Find(s, textscan.Injection|textscan.Sensitive, true, 3); len(ms) > 0 {
		q := make([]string, 0, 3)
		for _, m := range ms[:min(3, len(ms))] {
			q = append(q, strconv.Quote(oneLine(m.Text)))
		}
		k.add(rules.TextInjectionMarker, subj, ptr,
			fmt.Sprintf("%s contains text aimed at the model: %s", what, strings.Join(q, ", ")))
	}
}

// serverText checks the model-visible members of serverInfo.
func (k *checker) serverText(v any, ptr string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if name, ok := m["name"].(string); ok {
		k.serverName = name
	}
	for _, key := range []string{"name", "title", "description"} {
		if s, ok := m[key].(string); ok {
			k.text(server, ptr+"/"+key, "serverInfo."+key, s)
		}
	}
}

// itemText checks every model-visible string of an item: its name, title
// and description, a tool's annotation title and every title and
// description inside its schemas, a prompt's argument descriptions.
func (k *checker) itemText(it *item) {
	obj := it.obj()
	for _, key := range []string{"name", "title", "description"} {
		if s, ok := obj[key].(string); ok && k.scan.MayFind(s) {
			k.text(it.subj, "/"+key, it.label()+" "+key, s)
		}
	}
	switch it.sec.kind {
	case finding.KindTool:
		if a, ok := obj["annotations"].(map[string]any); ok {
			if s, ok := a["title"].(string); ok {
				k.text(it.subj, "/annotations/title", it.label()+" annotations.title", s)
			}
		}
		for _, field := range []string{"inputSchema", "outputSchema"} {
			k.schemaText(it, field, obj[field])
		}
	case finding.KindPrompt:
		if args, ok := obj["arguments"].([]any); ok {
			for i, a := range args {
				am, ok := a.(map[string]any)
				if !ok {
					continue
				}
				for _, key := range []string{"name", "title", "description"} {
					if s, ok := am[key].(string); ok {
						at := []string{"arguments", strconv.Itoa(i), key}
						if k.scan.MayFind(s) {
							k.text(it.subj, pointerOf(at), it.label()+" "+pathOf(at), s)
						}
					}
				}
			}
		}
	}
}

// schemaText checks the titles and descriptions at any depth of a tool's
// schema. Where the schema nests deeper than the walk goes, the text below
// is unread: that is reported, never passed as clean.
func (k *checker) schemaText(it *item, field string, schema any) {
	if schema == nil {
		return
	}
	cut := textscan.WalkSchema(schema, func(p []string, s string) {
		if k.scan.MayFind(s) {
			full := append([]string{field}, p...)
			k.text(it.subj, pointerOf(full), it.label()+" "+pathOf(full), s)
		}
	})
	if cut != nil {
		full := append([]string{field}, cut.Path...)
		k.add(rules.TextInjectionMarker, it.subj, pointerOf(full),
			fmt.Sprintf("%s nests deeper than %d levels in %d place(s), the first at this pointer: the text below was not scanned for hidden characters or instructions aimed at the model", it.label()+" "+field, textscan.MaxDepth, cut.Count))
	}
}
