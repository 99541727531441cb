package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/cost"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// ToolName is the driver name in every format.
const ToolName = "mcp-surface"

// Category is what kind of rule reported a finding: the rule row's kind
// (spec, lint or change), which the renderers group by.
type Category = rules.Kind

// The finding categories, the rule kinds.
const (
	CategorySpec   = rules.KindSpec
	CategoryLint   = rules.KindLint
	CategoryChange = rules.KindChange
)

// CategoryOf is the category of a finding of the rule: its row's kind; a
// rule the table does not know (a report written by another version) is a
// change.
func CategoryOf(rule string) Category {
	if r, ok := rules.Lookup(rule); ok {
		return r.Kind
	}
	return CategoryChange
}

// Report is everything one run found, for one or several servers.
type Report struct {
	// Version is mcp-surface's version (SARIF driver, JSON "tool").
	Version string
	// Servers holds one section per server, in the order given; the
	// renderers sort them by name.
	Servers []Section
}

// Section is one server's part of a run.
type Section struct {
	// Server names the server (from the configuration, or serverInfo.name);
	// "" for the single unnamed server of a plain run.
	Server string
	// Command is what ran: "diff", "validate", "check", "snapshot".
	Command string
	// Base and Head describe the snapshots compared (Base nil for a
	// validation of one surface).
	Base, Head *Side
	// Findings are every finding of the server, whatever produced it, one
	// per subject and change; the renderers sort and group them (their
	// category is their rule's kind: CategoryOf). Acknowledged findings
	// stay in (Acknowledged set); they never fail a run.
	Findings []finding.Finding
	// Subjects are every subject of the head surface (SubjectsOf), so that
	// JUnit can report the ones without findings as passing. Optional.
	Subjects []finding.Subject
	// SuggestedBump and WorstSeverity override the values derived from
	// the change findings when set.
	SuggestedBump string
	WorstSeverity rules.Severity
	// Snapshot is the committed snapshot file, relative to the repository
	// root; the location of last resort.
	Snapshot string
	// SnapshotCurrent says the committed snapshot was read and matches the
	// head surface: the pull request refreshed it, and the report offers
	// no refresh.
	SnapshotCurrent bool
	// Locations, by finding fingerprint (locate.Locator.LocateAll).
	Locations map[string]locate.Location
	// Notes say what the run did, one sentence each ("captured `node
	// server.js` over stdio"). They may quote untrusted text: they are
	// escaped like everything else.
	Notes []string
	// CostBase and CostHead are the context cost of the two surfaces
	// (pkg/cost), for the comment's one cost line; nil when not counted
	// (CostBase nil: nothing to compare with).
	CostBase, CostHead *cost.Table
}

// Side is one of the two surfaces of a comparison.
type Side struct {
	// Label says where the snapshot came from: a file, REF:PATH, a command.
	Label string `json:"label,omitempty"`
	// ManifestHash is the snapshot's fingerprints.manifest.
	ManifestHash string `json:"manifestHash,omitempty"`
	// Revision is the negotiated protocol revision.
	Revision string `json:"revision,omitempty"`
}

// Summary counts findings per level (acknowledged ones apart) and carries
// the comparison's verdict. Field names are a public contract (JSON
// report): add, never rename.
type Summary struct {
	Error            int            `json:"error"`
	Warning          int            `json:"warning"`
	Note             int            `json:"note"`
	Info             int            `json:"info"`
	Acknowledged     int            `json:"acknowledged"`
	WorstSeverity    rules.Severity `json:"worstSeverity"`
	SuggestedBump    string         `json:"suggestedBump"`
	BaseManifestHash string         `json:"baseManifestHash"`
	HeadManifestHash string         `json:"headManifestHash"`
}

// Total is the number of unacknowledged findings.
func (s Summary) Total() int { return s.Error + s.Warning + s.Note + s.Info }

func (s *Summary) add(f finding.Finding) {
	if f.Acknowledged != "" {
		s.Acknowledged++
		return
	}
	switch f.Level {
	case rules.LevelError:
		s.Error++
	case rules.LevelWarning:
		s.Warning++
	case rules.LevelNote:
		s.Note++
	case rules.LevelInfo:
		s.Info++
	}
}

// Item is a finding with the context renderers need.
type Item struct {
	finding.Finding
	Server   string
	Category Category
	Location locate.Location
	TextDiff string
}

// Items returns the section's findings, every producer together, sorted
// with finding.Sort, each with its category, location (line 1 of the
// snapshot when Locations has none; zero without a snapshot) and text
// diff.
func (s *Section) Items() []Item {
	out := make([]Item, 0, len(s.Findings))
	for _, f := range s.Findings {
		loc, ok := s.Locations[f.Fingerprint]
		if (!ok || loc.IsZero()) && s.Snapshot != "" {
			loc = locate.FallbackLocation(s.Snapshot, "")
		}
		out = append(out, Item{Finding: f, Server: s.Server, Category: CategoryOf(f.Rule), Location: loc, TextDiff: FindingTextDiff(f)})
	}
	sortItems(out)
	return out
}

func sortItems(items []Item) {
	slices.SortStableFunc(items, func(a, b Item) int { return finding.Compare(a.Finding, b.Finding) })
}

// Changes returns the section's change findings (category change), in
// their order.
func (s *Section) Changes() []finding.Finding {
	var out []finding.Finding
	for _, f := range s.Findings {
		if CategoryOf(f.Rule) == CategoryChange {
			out = append(out, f)
		}
	}
	return out
}

// Summary counts the section's findings; worst severity and bump come
// from the change findings, acknowledged ones included (acknowledging a
// change does not make it compatible), unless the section sets them.
func (s *Section) Summary() Summary {
	var sum Summary
	for _, f := range s.Findings {
		sum.add(f)
		if CategoryOf(f.Rule) == CategoryChange && f.Severity.Rank() > sum.WorstSeverity.Rank() {
			sum.WorstSeverity = f.Severity
		}
	}
	if s.WorstSeverity != "" {
		sum.WorstSeverity = s.WorstSeverity
	}
	sum.SuggestedBump = sum.WorstSeverity.Bump()
	if s.SuggestedBump != "" {
		sum.SuggestedBump = s.SuggestedBump
	}
	if s.Base != nil {
		sum.BaseManifestHash = s.Base.ManifestHash
	}
	if s.Head != nil {
		sum.HeadManifestHash = s.Head.ManifestHash
	}
	return sum
}

// Summary adds up every section: counts are summed, the worst severity
// and the largest bump win; the manifest hashes are set only when the
// report has one section.
func (r *Report) Summary() Summary {
	var sum Summary
	for i := range r.Servers {
		s := r.Servers[i].Summary()
		sum.Error += s.Error
		sum.Warning += s.Warning
		sum.Note += s.Note
		sum.Info += s.Info
		sum.Acknowledged += s.Acknowledged
		if s.WorstSeverity.Rank() > sum.WorstSeverity.Rank() {
			sum.WorstSeverity = s.WorstSeverity
		}
		if bumpRank(s.SuggestedBump) > bumpRank(sum.SuggestedBump) {
			sum.SuggestedBump = s.SuggestedBump
		}
		if len(r.Servers) == 1 {
			sum.BaseManifestHash, sum.HeadManifestHash = s.BaseManifestHash, s.HeadManifestHash
		}
	}
	return sum
}

func bumpRank(b string) int {
	switch b {
	case "major":
		return 3
	case "minor":
		return 2
	case "patch":
		return 1
	}
	return 0
}

// Failed reports whether an unacknowledged finding is at or above failOn
// ("" = none: never).
func (r *Report) Failed(failOn rules.Level) bool {
	for i := range r.Servers {
		if r.Servers[i].Failed(failOn) {
			return true
		}
	}
	return false
}

// Failed reports whether the section has an unacknowledged finding at or
// above failOn.
func (s *Section) Failed(failOn rules.Level) bool {
	return finding.AtOrAbove(s.Findings, failOn)
}

// sections returns the sections sorted by server name (a copy).
func (r *Report) sections() []*Section {
	out := make([]*Section, len(r.Servers))
	for i := range r.Servers {
		out[i] = &r.Servers[i]
	}
	slices.SortStableFunc(out, func(a, b *Section) int { return strings.Compare(a.Server, b.Server) })
	return out
}

// SubjectsOf lists every subject of a surface: the server, then each
// tool, prompt, resource and resource template, sorted.
func SubjectsOf(m *manifest.Manifest) []finding.Subject {
	if m == nil {
		return nil
	}
	out := []finding.Subject{{Kind: finding.KindServer}}
	for _, k := range manifest.ItemKinds {
		for _, it := range m.Items(k.List) {
			out = append(out, finding.Subject{Kind: k.Subject, Name: it.ID})
		}
	}
	slices.SortFunc(out, func(a, b finding.Subject) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// Options are the caller's choices for every renderer.
type Options struct {
	// FailOn is the --fail-on level ("" = none). The verdict, the JUnit
	// failures and the JSON "failed" follow it.
	FailOn rules.Level
	// ShowInfo shows info findings (hidden by default everywhere but JSON).
	ShowInfo bool
	// Color enables ANSI colour in the text format. The caller decides:
	// a terminal, and NO_COLOR unset.
	Color bool
	// MaxMarkdownBytes bounds the markdown comment; 0 means
	// DefaultMarkdownBudget.
	MaxMarkdownBytes int
	// CommentKey identifies the sticky comment in its marker; "" means the
	// sorted server names (MarkerKey).
	CommentKey string
	// RulesURL is the base of rule documentation links; "" means
	// RulesDocURL.
	RulesURL string
	// AllRules declares every rule of the table in SARIF, not only those
	// with results.
	AllRules bool

	// Full renders the markdown as the job summary, the full report: every
	// finding, info included, each with all its details, within
	// MaxMarkdownBytes or else DefaultSummaryBudget (GitHub's 1 MiB). Without
	// it the markdown is the PR comment.
	Full bool
	// Verbose makes the text format list every finding on its own (no
	// collapsed runs) with every before and after value, and the comment's
	// tables list each finding of a run.
	Verbose bool

	// What a publisher knows about the run; the markdown renders each when
	// set and leaves it out when not. They are ours, not a server's: URLs
	// that are not plain http(s) are dropped all the same.

	// RunURL is the workflow run; the comment's footer links it.
	RunURL string
	// SummaryURL is where the job summary (the full report) is read; ""
	// means RunURL. The comment links it as "full report".
	SummaryURL string
	// BaseSHA and HeadSHA are the commits compared (the footer shows
	// "base ← head").
	BaseSHA, HeadSHA string
	// AcceptLabel is the pull request label that accepts breaking
	// findings ("mcp-surface: accept-breaking"); the comment offers it.
	AcceptLabel string
	// AcceptedByLabel says the label is on this pull request and turned
	// its breaking findings into acknowledged ones; the comment says so.
	AcceptedByLabel bool
	// SnapshotCommands, by server name ("" for a single unnamed server),
	// is the command that refreshes that server's committed snapshot
	// ("mcp-surface snapshot --server NAME"); missing entries get that
	// form, or "mcp-surface snapshot -- <your server command>".
	SnapshotCommands map[string]string
	// AckYAML, by server name, is the acknowledgement lines for
	// .mcp-surface.yaml ready to paste (policy.WriteAcknowledgements, with
	// the server's name when there are several); missing entries get
	// lines for the failing findings, at most 20.
	AckYAML map[string]string
}

// RulesDocURL is where each rule is documented: RulesDocURL + "#" + ID.
const RulesDocURL = "https://github.com/mcp-surface/mcp-surface/blob/main/docs/rules.md"

// RuleURL is the documentation link of a rule.
func (o Options) RuleURL(id string) string {
	base := o.RulesURL
	if base == "" {
		base = RulesDocURL
	}
	return base + "#" + id
}

// Renderer writes one format.
type Renderer func(w io.Writer, r *Report, o Options) error

// Renderers is a table of formats by name. A program lists the formats it
// offers in one: Builtin's, plus those implemented elsewhere (pkg/sarif's
// Render, which this package cannot import).
type Renderers map[string]Renderer

// Builtin returns the formats this package implements: text, json,
// markdown, github and junit.
func Builtin() Renderers {
	return Renderers{
		"text":     renderText,
		"json":     renderJSON,
		"markdown": renderMarkdown,
		"github":   renderGitHub,
		"junit":    renderJUnit,
	}
}

// Names lists the format names, sorted.
func (rs Renderers) Names() []string {
	return slices.Sorted(maps.Keys(rs))
}

// ErrUnknownFormat is returned by Render for a name not in the table.
var ErrUnknownFormat = errors.New("unknown format")

// Render writes r in the named format. Output is deterministic: the same
// report and options give the same bytes.
func (rs Renderers) Render(w io.Writer, format string, r *Report, o Options) error {
	b, err := rs.RenderBytes(format, r, o)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// RenderBytes renders into memory, for writing a file atomically
// (WriteFile).
func (rs Renderers) RenderBytes(format string, r *Report, o Options) ([]byte, error) {
	fn, ok := rs[format]
	if !ok {
		return nil, fmt.Errorf("%w %q: use %s", ErrUnknownFormat, format, strings.Join(rs.Names(), ", "))
	}
	var buf bytes.Buffer
	if err := fn(&buf, r, o); err != nil {
		return nil, fmt.Errorf("%s report: %w", format, err)
	}
	return buf.Bytes(), nil
}

// Formats lists the built-in format names, sorted.
func Formats() []string { return Builtin().Names() }

// Render writes r in a built-in format.
func Render(w io.Writer, format string, r *Report, o Options) error {
	return Builtin().Render(w, format, r, o)
}

// RenderBytes renders a built-in format into memory.
func RenderBytes(format string, r *Report, o Options) ([]byte, error) {
	return Builtin().RenderBytes(format, r, o)
}

// visibleItems filters out info findings unless asked for.
func visibleItems(items []Item, showInfo bool) (shown []Item, hiddenInfo int) {
	for _, it := range items {
		if it.Level == rules.LevelInfo && !showInfo {
			hiddenInfo++
			continue
		}
		shown = append(shown, it)
	}
	return shown, hiddenInfo
}

// group is one subject's findings.
type group struct {
	subject finding.Subject
	worst   int
	items   []Item
}

// groupBySubject groups items by subject, worst group first, then by
// subject; items keep their order inside a group.
func groupBySubject(items []Item) []*group {
	var groups []*group
	index := map[finding.Subject]*group{}
	for _, it := range items {
		g := index[it.Subject]
		if g == nil {
			g = &group{subject: it.Subject}
			index[it.Subject] = g
			groups = append(groups, g)
		}
		rank := it.Level.Rank()
		if it.Acknowledged != "" {
			rank = 0
		}
		g.worst = max(g.worst, rank)
		g.items = append(g.items, it)
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.worst, a.worst), cmp.Compare(a.subject.Kind, b.subject.Kind), cmp.Compare(a.subject.Name, b.subject.Name))
	})
	return groups
}

// plural writes "1 error", "2 errors".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// countsPhrase is "3 errors, 1 warning" for the non-zero counts.
func countsPhrase(s Summary, showInfo bool) string {
	var parts []string
	for _, c := range []struct {
		n         int
		one, many string
	}{{s.Error, "error", "errors"}, {s.Warning, "warning", "warnings"}, {s.Note, "note", "notes"}, {s.Info, "info", "info"}} {
		if c.n > 0 && (c.one != "info" || showInfo) {
			parts = append(parts, plural(c.n, c.one, c.many))
		}
	}
	return strings.Join(parts, ", ")
}

// shortHash abbreviates a manifest hash for people.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
