package lock

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Class ranks a finding for the team that consumes a server: what could
// turn its agents against it first, then what breaks them, then the rest.
type Class int

// The classes, the most urgent first.
const (
	// ClassDanger: text or hints that can steer the agents (tool
	// poisoning, shadowing, a false safety claim) or a loosened guard on
	// a parameter that reaches the file system, the network or a shell.
	ClassDanger Class = iota
	// ClassBreak: a change that breaks the calls the agents make.
	ClassBreak
	// ClassChange: any other change worth a look.
	ClassChange
	// ClassAuthor: a finding only the server's author can act on (a
	// version that was not bumped, a small change of context cost):
	// never shown to a consumer.
	ClassAuthor
)

// dangerRules are the findings that are a security signal for a consumer
// whatever the parameter, by how directly they show an attack (a text
// naming credentials first): the order within ClassDanger.
var dangerRules = map[string]int{
	rules.PackageIntegrityChanged:               1,
	rules.TextSensitiveReferenceAdded:           1,
	rules.TextInjectionMarkerAdded:              2,
	rules.TextHiddenCharactersAdded:             3,
	rules.TextCrossToolReferenceAdded:           4,
	rules.TextEncodedPayloadAdded:               5,
	rules.TextInjectionMarker:                   2,
	rules.TextHiddenCharacters:                  3,
	rules.TextAnsiEscape:                        3,
	rules.ToolAddedConfusableName:               6,
	rules.ToolAnnotationReadOnlyHintAdded:       7,
	rules.ToolAnnotationDestructiveHintDisabled: 7,
	rules.ToolAnnotationOpenWorldHintDisabled:   7,
}

// loosenedRules loosen a parameter's input constraint: a danger when the
// parameter names a path, URL, command or query.
var loosenedRules = map[string]bool{
	rules.InputPatternRemoved:     true,
	rules.InputPatternRelaxed:     true,
	rules.InputEnumRemoved:        true,
	rules.InputEnumValueAdded:     true,
	rules.InputMaxLengthIncreased: true,
	rules.InputFormatRemoved:      true,
}

// authorRules are for the server's author, not for its consumers.
var authorRules = map[string]bool{
	rules.ServerVersionNotBumped:      true,
	rules.ServerMajorVersionNotBumped: true,
	rules.ContextCostChanged:          true,
}

// riskyParam matches a parameter name that reaches a path, a URL, a
// command or a query.
var riskyParam = regexp.MustCompile(`(?i)(path|file|dir|folder|url|uri|href|host|endpoint|command|cmd|exec|script|shell|query|sql|glob|pattern)`)

// ClassOf is a finding's class for a consumer.
func ClassOf(f *finding.Finding) Class {
	switch {
	case dangerRules[f.Rule] > 0:
		return ClassDanger
	case loosenedRules[f.Rule] && riskyParam.MatchString(paramOf(f.Pointer)):
		return ClassDanger
	case authorRules[f.Rule]:
		return ClassAuthor
	case f.Severity == rules.SeverityBreaking || f.Level == rules.LevelError:
		return ClassBreak
	}
	return ClassChange
}

// paramOf is the name of the innermost property a pointer is under
// ("/inputSchema/properties/path/pattern" → "path").
func paramOf(ptr string) string {
	segs := strings.Split(ptr, "/")
	for i := len(segs) - 2; i >= 0; i-- {
		if segs[i] == "properties" {
			return strings.NewReplacer("~1", "/", "~0", "~").Replace(segs[i+1])
		}
	}
	return ""
}

// Ranked are the findings of a server a consumer reads, in the order to
// read them: danger first, then breaks, then the rest; within a class
// tools first (then prompts, resources, templates, the server), the worst
// level first, then by name. Author-only and info findings are left out,
// and a finding is listed once (same rule, item and place). For a server
// the lock lacks, only what the agents will read counts: its text, its
// tools and its cost, not every capability "added" from nothing.
func Ranked(o *Outcome) []finding.Finding {
	var out []finding.Finding
	seen := map[string]int{}
	for _, f := range o.Section.Findings {
		if report.CategoryOf(f.Rule) != report.CategoryChange && !packageRules[f.Rule] {
			continue
		}
		if f.Level == rules.LevelInfo || ClassOf(&f) == ClassAuthor {
			continue
		}
		if o.Status == StatusUnlocked && f.Subject.Kind == finding.KindServer && !strings.HasPrefix(f.Rule, "context-cost") &&
			!slices.Contains(f.Tags, "llm") && ClassOf(&f) != ClassDanger {
			continue
		}
		key := f.Rule + "\x00" + f.Subject.Kind + "\x00" + f.Subject.Name + "\x00" + f.Pointer
		if i, ok := seen[key]; ok {
			if f.Level.Rank() > out[i].Level.Rank() {
				out[i] = f
			}
			continue
		}
		seen[key] = len(out)
		out = append(out, f)
	}
	slices.SortStableFunc(out, func(x, y finding.Finding) int {
		return cmp.Or(cmp.Compare(ClassOf(&x), ClassOf(&y)),
			cmp.Compare(finding.KindRank(x.Subject.Kind), finding.KindRank(y.Subject.Kind)),
			y.Level.Rank()-x.Level.Rank(),
			cmp.Compare(dangerRank(x.Rule), dangerRank(y.Rule)),
			strings.Compare(x.Subject.Name, y.Subject.Name),
			strings.Compare(x.Pointer, y.Pointer),
			strings.Compare(x.Rule, y.Rule))
	})
	return out
}

// Worst is the most urgent finding of the outcomes that fail, and the
// outcome it belongs to; ok is false when none has one.
func Worst(outs []*Outcome) (o *Outcome, f finding.Finding, ok bool) {
	for _, x := range outs {
		if !x.Fails() {
			continue
		}
		fs := Ranked(x)
		if len(fs) == 0 {
			continue
		}
		if !ok || ClassOf(&fs[0]) < ClassOf(&f) {
			o, f, ok = x, fs[0], true
		}
	}
	return o, f, ok
}

// Headline is one line naming the worst a check found, server text
// included as written: escape it for where it is printed. "" when no
// server fails.
//
//	possible tool poisoning in .mcp.json › files › read_file: mentions "~/.ssh/id_rsa"
func Headline(outs []*Outcome) string {
	failing := 0
	for _, o := range outs {
		if o.Fails() {
			failing++
		}
	}
	if failing == 0 {
		return ""
	}
	o, f, ok := Worst(outs)
	if !ok {
		return fmt.Sprintf("%d of %d server(s) changed", failing, len(outs))
	}
	where := o.Key()
	if f.Subject.Kind != finding.KindServer && f.Subject.Name != "" {
		where += " › " + f.Subject.Name
	}
	switch ClassOf(&f) {
	case ClassDanger:
		return danger(&f) + " in " + where + ": " + gist(o, &f)
	case ClassBreak:
		return "breaking change in " + where + ": " + f.Message
	}
	return fmt.Sprintf("%d of %d server(s) changed; first: %s: %s", failing, len(outs), where, f.Message)
}

// dangerWords name the threat of each danger rule.
var dangerWords = map[string]string{
	rules.PackageIntegrityChanged:               "the registry serves other bytes",
	rules.TextCrossToolReferenceAdded:           "possible tool shadowing",
	rules.ToolAddedConfusableName:               "a look-alike tool name",
	rules.ToolAnnotationReadOnlyHintAdded:       "a tool now claims to be safer",
	rules.ToolAnnotationDestructiveHintDisabled: "a tool now claims to be safer",
	rules.ToolAnnotationOpenWorldHintDisabled:   "a tool now claims to be safer",
}

// danger names the threat of a danger finding: for text, tool poisoning
// in a tool and prompt injection elsewhere.
func danger(f *finding.Finding) string {
	if w, ok := dangerWords[f.Rule]; ok {
		return w
	}
	if dangerRules[f.Rule] > 0 {
		if f.Subject.Kind == finding.KindTool {
			return "possible tool poisoning"
		}
		return "possible prompt injection"
	}
	return "a guard was loosened"
}

// gist is what a danger finding found, short: "mentions X" for a
// sensitive reference (X the whole word of the served text the reference
// is in: "~/.ssh/id_rsa", not "~/.ssh"), the first span the rule caught
// for an injection marker, the message otherwise.
func gist(o *Outcome, f *finding.Finding) string {
	if f.Rule == rules.PackageIntegrityChanged {
		return strings.TrimPrefix(f.Message, "the registry serves other bytes for ")
	}
	var spans []string
	_ = json.Unmarshal(f.After, &spans)
	if len(spans) == 0 {
		return f.Message
	}
	text := servedText(o, f)
	switch f.Rule {
	case rules.TextSensitiveReferenceAdded:
		best := ""
		for _, sp := range spans {
			for _, field := range strings.Fields(sp) {
				if w := wordAround(text, field); len(w) > len(best) {
					best = w
				}
			}
		}
		if best == "" {
			best = spans[0]
		}
		return "mentions " + best
	case rules.TextInjectionMarkerAdded:
		return "instructs the model: " + spans[0]
	}
	return f.Message
}

// servedText is the string at a finding's pointer in the live item, ""
// when there is none.
func servedText(o *Outcome, f *finding.Finding) string {
	list, ok := map[string]string{finding.KindTool: manifest.ListTools, finding.KindPrompt: manifest.ListPrompts,
		finding.KindResource: manifest.ListResources, finding.KindResourceTemplate: manifest.ListResourceTemplates}[f.Subject.Kind]
	if !ok || o.Head == nil {
		return ""
	}
	it, ok := o.Head.Find(list, f.Subject.Name)
	if !ok {
		return ""
	}
	var v any
	if json.Unmarshal(it.Raw, &v) != nil {
		return ""
	}
	p, err := jsonptr.Parse(f.Pointer)
	if err != nil {
		return ""
	}
	for _, tok := range p.Tokens() {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return ""
			}
			v = x[i]
		default:
			return ""
		}
	}
	s, _ := v.(string)
	return s
}

// wordAround widens the first occurrence of span in text to the
// whitespace around it; span itself when text lacks it.
func wordAround(text, span string) string {
	i := strings.Index(text, span)
	if i < 0 {
		return span
	}
	start := strings.LastIndexFunc(text[:i], unicode.IsSpace) + 1
	end := len(text)
	if j := strings.IndexFunc(text[i+len(span):], unicode.IsSpace); j >= 0 {
		end = i + len(span) + j
	}
	return strings.Trim(text[start:end], ".,;:!?\"'()<>[]")
}

// Verdict is one server's verdict line: what a consumer must know first,
// then the counts ("2 dangers, 1 break, 3 other changes").
func Verdict(o *Outcome) string {
	fs := Ranked(o)
	n := [3]int{}
	for i := range fs {
		if c := ClassOf(&fs[i]); c < ClassAuthor {
			n[c]++
		}
	}
	var parts []string
	for c, words := range [3][2]string{{"security finding", "security findings"}, {"breaking change", "breaking changes"}, {"other change", "other changes"}} {
		if n[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[c], words[min(n[c]-1, 1)]))
		}
	}
	if len(parts) == 0 {
		return "no change a consumer acts on"
	}
	return strings.Join(parts, ", ")
}

// dangerRank orders danger findings; the loosened guards come last.
func dangerRank(rule string) int {
	if r, ok := dangerRules[rule]; ok {
		return r
	}
	return len(dangerRules) + 1
}
