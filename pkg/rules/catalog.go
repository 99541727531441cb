package rules

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// catalogFS holds the table as written: one markdown file per area (or per
// family of a large area), each rule a "## ID" section with its row (a list of "- key: value" lines)
// and its help, and the help paragraphs several rules share under shared/.
//
//go:embed catalog/*.md catalog/shared/*.md
var catalogFS embed.FS

// areaFiles lists each area's files in the order of the rule catalog. An
// area of many rules is split by family; each of its files starts with the
// area's title, and only the first has an intro. The input and output
// schema areas share their family files (schema*.md), so that a rule's
// input-X and output-X rows stand side by side: such a file names the
// family in its title, and each area takes the rules whose IDs start with
// its prefix. A new file must be added here: nothing registers itself.
var areaFiles = [][]areaFile{
	{{name: "spec.md"}}, {{name: "lint.md"}}, {{name: "probe.md"}}, {{name: "config.md"}}, {{name: "pipeline.md"}}, {{name: "compat.md"}},
	{{name: "protocol.md"}}, {{name: "capability.md"}}, {{name: "tool.md"}}, {{name: "annotation.md"}},
	schemaArea("input"), schemaArea("output"),
	{{name: "prompt.md"}}, {{name: "resource.md"}}, {{name: "template.md"}}, {{name: "extension.md"}}, {{name: "text.md"}}, {{name: "cost.md"}}, {{name: "package.md"}},
}

// areaFile is one file of an area; only, when set, is the prefix of the
// IDs the area takes from a family file it shares with another area.
type areaFile struct{ name, only string }

// schemaArea lists the files of the input or output schema area: its own
// file (title and intro), then the family files both areas share.
func schemaArea(dir string) []areaFile {
	files := []areaFile{{name: dir + ".md"}}
	for _, fam := range []string{"", "-objects", "-arrays", "-values", "-composition"} {
		files = append(files, areaFile{name: "schema" + fam + ".md", only: dir + "-"})
	}
	return files
}

// includePrefix and includeSuffix frame how a rule's help pulls in a
// shared paragraph: "<!-- include: NAME -->" on a line of its own, for
// catalog/shared/NAME.md.
const includePrefix, includeSuffix = "<!-- include: ", " -->"

// whatToDo opens the paragraph that says how to avoid a finding. A rule
// that fails a run by default and whose help has none gets one made of its
// row's fix, the same text as the PR comment's Fix column.
const whatToDo = "**What to do.**"

// area is one parsed file: its title ("# Title"), the paragraph between
// the title and the first rule, and its rules as written.
type area struct {
	title, intro string
	rules        []Rule
}

// parseCatalog reads every area's files. Errors name the file and line;
// the rules that did parse are kept, so that one bad row does not empty
// the table (TestCatalogParses fails on any error).
func parseCatalog() ([]area, error) {
	shared := map[string]string{}
	include := func(inc string) (string, bool) {
		s, ok := shared[inc]
		if !ok {
			s = strings.TrimSpace(readCatalog("catalog/shared/" + inc + ".md"))
			shared[inc] = s
		}
		return s, s != ""
	}
	var errs []error
	parsed := map[string]area{}
	parse := func(name string) area {
		a, ok := parsed[name]
		if !ok {
			var err error
			a, err = parseArea(name, readCatalog("catalog/"+name), include)
			if err != nil {
				errs = append(errs, err)
			}
			parsed[name] = a
		}
		return a
	}
	out := make([]area, 0, len(areaFiles))
	for _, files := range areaFiles {
		var whole area
		for i, f := range files {
			a := parse(f.name)
			switch {
			case i == 0:
				whole = a
				continue
			case a.intro != "":
				errs = append(errs, fmt.Errorf("%s: text before the first rule: an area's intro goes in its first file, %s", f.name, files[0].name))
			case f.only != "":
				whole.rules = append(whole.rules, a.take(f.only)...)
				continue
			case a.title != whole.title:
				errs = append(errs, fmt.Errorf("%s: title %q, want the area's %q (from %s)", f.name, a.title, whole.title, files[0].name))
			}
			whole.rules = append(whole.rules, a.rules...)
		}
		out = append(out, whole)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("rules catalog: %w", errors.Join(errs...))
	}
	return out, nil
}

// take returns the rules whose IDs start with prefix, in the file's order.
func (a *area) take(prefix string) []Rule {
	var rs []Rule
	for _, r := range a.rules {
		if strings.HasPrefix(r.ID, prefix) {
			rs = append(rs, r)
		}
	}
	return rs
}

// readCatalog returns an embedded file's text, "" when it is missing.
func readCatalog(name string) string {
	b, err := catalogFS.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// parseArea parses one area's markdown: "# Title", an optional intro, then
// for each rule "## ID", its row and its help. include returns the text
// of a shared paragraph. The rules' texts are slices of src where they
// can be, so that the first lookup copies little.
func parseArea(file, src string, include func(string) (string, bool)) (area, error) {
	var a area
	var errs []error
	rest := strings.TrimLeft(src, " \t\r\n")
	title, rest, _ := strings.Cut(rest, "\n")
	if !strings.HasPrefix(title, "# ") {
		return a, fmt.Errorf("%s:%d: the file must start with the area's title (# Title)", file, lineOf(src, title))
	}
	a.title = strings.TrimSpace(title[2:])
	if strings.HasPrefix(rest, "## ") {
		rest = "\n" + rest
	}
	sections := strings.Split(rest, "\n## ")
	a.intro = strings.TrimSpace(sections[0])
	a.rules = make([]Rule, 0, len(sections)-1)
	for _, sec := range sections[1:] {
		id, body, _ := strings.Cut(sec, "\n")
		id = strings.TrimSpace(id)
		r, err := parseRule(id, body, include)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: rule %s: %w", file, lineOf(src, sec), id, err))
			continue
		}
		a.rules = append(a.rules, r)
	}
	return a, errors.Join(errs...)
}

// lineOf is the line number of part, a slice of src, for error messages.
func lineOf(src, part string) int {
	off := strings.Index(src, part)
	if off < 0 {
		return 1
	}
	return 1 + strings.Count(src[:off], "\n")
}

// parseRule reads a rule's row (the first block of "- key: value" lines)
// and its help (the rest).
func parseRule(id, body string, include func(string) (string, bool)) (Rule, error) {
	r := Rule{ID: id}
	body = strings.TrimLeft(body, " \t\r\n")
	var seen [len(rowKeys)]bool
	for strings.HasPrefix(body, "- ") {
		var line string
		line, body, _ = strings.Cut(body, "\n")
		key, val, ok := strings.Cut(line[2:], ": ")
		val = strings.TrimSpace(val)
		k := slices.Index(rowKeys[:], key)
		switch {
		case !ok || val == "":
			return r, fmt.Errorf("row line %q: want \"- key: value\"", line)
		case k < 0:
			return r, fmt.Errorf("unknown row key %q: use %s", key, strings.Join(rowKeys[:], ", "))
		case seen[k]:
			return r, fmt.Errorf("row has %s twice", key)
		}
		seen[k] = true
		if err := r.set(key, val); err != nil {
			return r, err
		}
	}
	if r.Kind == KindChange {
		r.Level = r.Severity.Level()
	}
	help, err := r.help(body, include)
	if err != nil {
		return r, err
	}
	r.Help = help
	return r, nil
}

// rowKeys are the keys a rule's row may have.
var rowKeys = [...]string{"summary", "kind", "level", "severity", "direction", "tags", "action", "producer", "unreported", "example", "breaks", "fix"}

// set fills one field of the row.
func (r *Rule) set(key, val string) error {
	switch key {
	case "summary":
		r.Summary = val
	case "kind":
		r.Kind = Kind(val)
		if !slices.Contains([]Kind{KindSpec, KindLint, KindChange}, r.Kind) {
			return fmt.Errorf("unknown kind %q: use spec, lint or change", val)
		}
	case "level":
		r.Level = Level(val)
		if r.Level.Rank() == 0 {
			return fmt.Errorf("unknown level %q: use error, warning, note or info", val)
		}
	case "severity":
		r.Severity = Severity(val)
		if r.Severity.Rank() == 0 {
			return fmt.Errorf("unknown severity %q: use breaking, risky, minor, patch or info", val)
		}
	case "direction":
		r.Direction = val
	case "tags":
		r.Tags = splitList(val)
	case "action":
		r.Action = Action(val)
		if !slices.Contains([]Action{ActionRemoved, ActionRenamed, ActionAdded, ActionChanged}, r.Action) {
			return fmt.Errorf("unknown action %q: use removed, renamed, added or changed", val)
		}
	case "producer":
		r.Producers = splitList(val)
	case "unreported":
		r.Unreported = val
	case "example":
		if !strings.HasSuffix(val, ".txtar") || !fs.ValidPath(val) {
			return fmt.Errorf("example %q: name a fixture by its path from the module root (pkg/diff/testdata/NAME.txtar)", val)
		}
		r.Example = val
	case "breaks":
		r.Breaks = val
	case "fix":
		r.Fix = val
	}
	return nil
}

// help is the rule's own text with the shared paragraphs put in place of
// their include lines, and, for an error rule without advice, its row's
// fix as "What to do" before the first shared paragraph.
func (r *Rule) help(body string, include func(string) (string, bool)) (string, error) {
	own, incs := body, ""
	if strings.HasPrefix(body, includePrefix) {
		own, incs = "", body
	} else if i := strings.Index(body, "\n"+includePrefix); i >= 0 {
		own, incs = body[:i], body[i:]
	}
	text := strings.TrimSpace(own)
	if r.Level == LevelError && r.Fix != "" && !strings.Contains(text, whatToDo) {
		text += "\n\n" + whatToDo + " " + r.Fix + "."
	}
	for _, l := range strings.Split(incs, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		name, ok := strings.CutPrefix(l, includePrefix)
		if !ok {
			return "", fmt.Errorf("help text after a shared paragraph: write the rule's own text first")
		}
		if name, ok = strings.CutSuffix(name, includeSuffix); !ok {
			return "", fmt.Errorf("include line %q: want %sNAME%s", l, includePrefix, includeSuffix)
		}
		s, ok := include(strings.TrimSpace(name))
		if !ok {
			return "", fmt.Errorf("include of unknown shared paragraph %q: want catalog/shared/%s.md", name, name)
		}
		text += "\n\n" + s
	}
	return text, nil
}

// splitList splits "a, b" into its items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
