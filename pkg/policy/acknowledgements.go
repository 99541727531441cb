package policy

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcp-surface/mcp-surface/internal/base/textscan"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// oneLine makes server text printable on one line, bounded.
func oneLine(s string, n int) string {
	s = strings.ReplaceAll(textscan.Visible(s, textscan.CodePoints), "\n", `\n`)
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// ackSubjectKey is the acknowledgement key of a subject kind (the inverse
// of the keys pkg/config reads, the short key where two name one kind).
var ackSubjectKey = map[string]string{
	finding.KindTool: "tool", finding.KindPrompt: "prompt", finding.KindResource: "resource",
	finding.KindResourceTemplate: "template", finding.KindSkill: "skill", finding.KindGroup: "group",
}

// WriteAcknowledgements prints the unacknowledged findings (info ones only
// with showInfo) as acknowledged: entries to paste into .mcp-surface.yaml,
// each with its level and message as a comment and a reason to fill in.
func WriteAcknowledgements(w io.Writer, fs []finding.Finding, showInfo bool) error {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	for _, f := range fs {
		if f.Acknowledged != "" || (f.Level == rules.LevelInfo && !showInfo) {
			continue
		}
		entry := &yaml.Node{Kind: yaml.MappingNode, HeadComment: fmt.Sprintf("%s: %s", f.Level, oneLine(f.Message, 200))}
		add := func(k string, v *yaml.Node) { entry.Content = append(entry.Content, str(k), v) }
		add("rule", str(f.Rule))
		if key, ok := ackSubjectKey[f.Subject.Kind]; ok {
			add(key, str(f.Subject.Name))
		} else if f.Subject.Kind == finding.KindServer {
			add("server", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
		if f.Pointer != "" {
			add("pointer", str(f.Pointer))
		}
		add("fingerprint", str(f.Fingerprint))
		add("reason", &yaml.Node{Kind: yaml.ScalarNode, Value: "TODO"})
		list.Content = append(list.Content, entry)
	}
	fmt.Fprintln(w, "# Paste into .mcp-surface.yaml and replace each TODO with why the change is accepted;")
	fmt.Fprintln(w, "# add `expires: YYYY-MM-DD` to make an acknowledgement temporary.")
	if len(list.Content) == 0 {
		fmt.Fprintln(w, "acknowledged: []")
		return nil
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("acknowledged"), list}}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}
