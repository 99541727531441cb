package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

// Level is the ordered scale shared by every producer and by SARIF.
type Level string

const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNote    Level = "note"
	LevelInfo    Level = "info"
)

// Rank orders levels: error > warning > note > info. Unknown levels rank 0.
func (l Level) Rank() int {
	switch l {
	case LevelError:
		return 4
	case LevelWarning:
		return 3
	case LevelNote:
		return 2
	case LevelInfo:
		return 1
	}
	return 0
}

// Pick returns l's word in a vocabulary of four (a renderer's names or
// marks for the levels): e for error, w for warning, n for note, and
// other for info and any unknown level.
func (l Level) Pick(e, w, n, other string) string {
	switch l {
	case LevelError:
		return e
	case LevelWarning:
		return w
	case LevelNote:
		return n
	}
	return other
}

// ParseLevel accepts a level name, the severity aliases `breaking` (error)
// and `risky` (warning), and `none` (which returns "" and ok).
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error", "breaking":
		return LevelError, nil
	case "warning", "risky":
		return LevelWarning, nil
	case "note":
		return LevelNote, nil
	case "info":
		return LevelInfo, nil
	case "none":
		return "", nil
	}
	return "", fmt.Errorf("unknown level %q: use error, warning, note, info or none (breaking and risky are accepted for error and warning)", s)
}

// Severity is a change rule's default severity from the rule catalog.
type Severity string

const (
	SeverityBreaking Severity = "breaking"
	SeverityRisky    Severity = "risky"
	SeverityMinor    Severity = "minor"
	SeverityPatch    Severity = "patch"
	SeverityInfo     Severity = "info"
)

// Level maps a change severity onto the level scale spec, lint and
// change findings share:
// breaking→error, risky→warning, minor/patch→note, info→info.
func (s Severity) Level() Level {
	switch s {
	case SeverityBreaking:
		return LevelError
	case SeverityRisky:
		return LevelWarning
	case SeverityMinor, SeverityPatch:
		return LevelNote
	}
	return LevelInfo
}

// Rank orders severities: breaking 5 … info 1; unknown 0.
func (s Severity) Rank() int {
	switch s {
	case SeverityBreaking:
		return 5
	case SeverityRisky:
		return 4
	case SeverityMinor:
		return 3
	case SeverityPatch:
		return 2
	case SeverityInfo:
		return 1
	}
	return 0
}

// Bump is the semver bump a severity suggests: breaking and risky → major,
// minor → minor, patch → patch, info → none ("").
func (s Severity) Bump() string {
	switch s {
	case SeverityBreaking, SeverityRisky:
		return "major"
	case SeverityMinor:
		return "minor"
	case SeverityPatch:
		return "patch"
	}
	return ""
}

// Kind says which producer reports a rule.
type Kind string

const (
	KindSpec   Kind = "spec"   // a violation of the published MCP schema or a MUST
	KindLint   Kind = "lint"   // a SHOULD or a good practice
	KindChange Kind = "change" // a difference between two snapshots
)

// Action says what a change rule reports about its subject as a whole:
// that it left, moved, arrived, or changed in place. The PR comment counts
// subjects by it ("3 tools removed, 1 renamed").
type Action string

const (
	ActionRemoved Action = "removed"
	ActionRenamed Action = "renamed"
	ActionAdded   Action = "added"
	ActionChanged Action = "changed"
)

// Rule is one entry of the table: one row of catalog/AREA.md.
type Rule struct {
	// ID is kebab-case and stable forever. Code names it by its constant
	// (ToolRemoved for tool-removed), generated into ids.go.
	ID   string
	Kind Kind
	// Severity is set for change rules; Level is derived from it.
	Severity Severity
	// Level is the default level. For change rules it equals
	// Severity.Level(); spec and lint rules set it directly.
	Level Level
	// Direction is input, output, surface or meta for change rules.
	Direction string
	// Tags such as wire, sec, llm, heur, strict, lifecycle, versioning, spec, lint.
	Tags []string
	// Action is set for change rules: what happened to the subject.
	Action Action
	// Producers are the packages that report the rule, as paths from the
	// module root ("pkg/diff"); the first is the one its fixtures are in.
	// Unreported says why none does, for a rule whose ID is reserved.
	Producers  []string
	Unreported string
	// Example is the fixture docs/rules.md shows for a change rule, as a
	// path from the module root; empty means the fixture named after the
	// rule in its first producer's testdata (ExampleFixture).
	Example string
	// Summary is one line, no trailing period.
	Summary string
	// Help is markdown: why it matters and what to do.
	Help string
	// Breaks and Fix are one line each for the PR comment's table of
	// breaking changes: what existing clients lose, and the usual way to
	// avoid it. Every rule whose default level is error has both, and its
	// help says "What to do" (the fix, unless the help says more); others
	// may leave them empty.
	Breaks, Fix string
}

// ExampleFixture is the fixture docs/rules.md shows for the rule: its
// row's example, or else the fixture named after the rule in the testdata
// of its first producer: ID.txtar, and for a schema rule the ID without
// its input- or output- prefix (one fixture is compared both ways, so
// input-format-changed and output-format-changed share format-changed.txtar);
// "" for a rule without a producer.
func (r Rule) ExampleFixture() string {
	if r.Example != "" {
		return r.Example
	}
	if len(r.Producers) == 0 {
		return ""
	}
	name := r.ID
	if r.Direction == "input" || r.Direction == "output" {
		name = strings.TrimPrefix(name, r.Direction+"-")
	}
	return path.Join(r.Producers[0], "testdata", name+".txtar")
}

// HasTag reports whether the rule carries tag t.
func (r Rule) HasTag(t string) bool { return slices.Contains(r.Tags, t) }

// IdentityKeys are the member names whose repetition gets
// DuplicateIdentityKey rather than DuplicateJsonKey: the ones that say
// which tool, prompt or resource an item is, and what a model reads
// about it.
var IdentityKeys = []string{"name", "title", "description", "uri", "uriTemplate", "protocolVersion", "version", "instructions"}

// catalog is the table built from the areas.
type catalog struct {
	// table is every rule sorted by ID; index maps an ID to its position.
	table []Rule
	index map[string]int
	// areas are the areas' rules as written, in the order of areaFiles.
	areas []area
	// err is what the markdown got wrong; TestCatalogParses fails on it.
	err error
}

// theCatalog is parsed at first use rather than at start-up: reading the
// markdown and sorting a few hundred rules was the largest share of this
// package's start-up time, paid by every command, while --version and
// capture never look a rule up.
var theCatalog = sync.OnceValue(func() *catalog {
	areas, err := parseCatalog()
	c := &catalog{areas: areas, err: err}
	c.table, c.index = merge(areas)
	return c
})

// merge concatenates the areas and sorts by ID. A repeated ID keeps its
// first definition in the index; TestTable rejects repeats.
func merge(areas []area) ([]Rule, map[string]int) {
	n := 0
	for _, a := range areas {
		n += len(a.rules)
	}
	all := make([]Rule, 0, n)
	for _, a := range areas {
		all = append(all, a.rules...)
	}
	slices.SortStableFunc(all, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	idx := make(map[string]int, len(all))
	for i, r := range all {
		if _, dup := idx[r.ID]; !dup {
			idx[r.ID] = i
		}
	}
	return all, idx
}

// All returns every rule, sorted by ID. The slice must not be modified.
func All() []Rule { return theCatalog().table }

// Lookup returns the rule with the given ID.
func Lookup(id string) (Rule, bool) {
	c := theCatalog()
	i, ok := c.index[id]
	if !ok {
		return Rule{}, false
	}
	return c.table[i], true
}

// MustLookup is Lookup for IDs written in code; it panics on a typo, which
// the table tests catch before release.
func MustLookup(id string) Rule {
	r, ok := Lookup(id)
	if !ok {
		panic("rules: unknown rule " + id)
	}
	return r
}

// Suggest returns close IDs for an unknown one, for error messages.
func Suggest(id string) []string {
	var out []string
	for _, r := range All() {
		if strings.Contains(r.ID, id) || strings.Contains(id, r.ID) {
			out = append(out, r.ID)
		}
		if len(out) == 5 {
			break
		}
	}
	return out
}

// ProducedBy returns the IDs of the rules whose row names pkg (a path from
// the module root, "pkg/spec") among their producers, sorted. A producer's
// tests use it to hold every rule it reports to a fixture.
func ProducedBy(pkg string) []string {
	var out []string
	for _, r := range All() {
		if slices.Contains(r.Producers, pkg) {
			out = append(out, r.ID)
		}
	}
	return out
}
