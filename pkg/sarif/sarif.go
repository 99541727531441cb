package sarif

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// GitHub code scanning's limits on one uploaded file. Past the hard ones
// GitHub rejects the whole file.
const (
	MaxRuns               = 20
	MaxResultsPerRun      = 25000
	MaxLocationsPerResult = 10
	MaxTagsPerRule        = 10       // GitHub keeps 10 of at most 20
	MaxGzipBytes          = 10 << 20 // the upload limit, compressed
	// DefaultGzipBudget keeps well under MaxGzipBytes.
	DefaultGzipBudget = 6 << 20
)

// FingerprintKey names our partial fingerprint: the finding's fingerprint,
// built from identity only, so an alert is the same across runs and
// commits.
const FingerprintKey = "mcpSurface/v1"

// TruncatedRuleID is the rule of the note result added when a run had to
// be cut to GitHub's limits.
const TruncatedRuleID = "mcp-surface-report-truncated"

// The description of TruncatedRuleID, which belongs to the SARIF output
// and not to the rule table; docs/rules.md prints it too.
const (
	TruncatedRuleSummary = "Results were left out to fit GitHub's limits"
	TruncatedRuleHelp    = "The SARIF file was cut to GitHub code scanning's limits (runs per file, results per run, file size); the least severe findings were left out. The JSON report lists every finding."
)

// InformationURI is the driver's home page.
const InformationURI = "https://github.com/mcp-surface/mcp-surface"

// Options configures the SARIF log.
type Options struct {
	// Version is the driver version (default: the report's).
	Version string
	// IncludeInfo adds info findings as results of level "note" (with the
	// result property mcpSurface.level = "info"). By default they are left
	// out, as everywhere info is hidden unless asked.
	IncludeInfo bool
	// AllRules declares every rule of the table, not only those that have
	// results. GitHub accepts both; the default keeps the file small.
	AllRules bool
	// OmitAcknowledged leaves acknowledged findings out. By default they
	// are results with an accepted external suppression (the
	// acknowledgement's reason as justification), so that consumers that
	// honour suppressions show them as suppressed rather than closed.
	OmitAcknowledged bool
	// RulesURL is the base of each rule's helpUri (default
	// report.RulesDocURL).
	RulesURL string
	// MaxRuns, MaxResults and GzipBudget bound the file (defaults MaxRuns,
	// MaxResultsPerRun and DefaultGzipBudget).
	MaxRuns, MaxResults, GzipBudget int
	// Lookup and All are the rule table (default rules.Lookup and
	// rules.All); tests pass a fixed one.
	Lookup func(id string) (rules.Rule, bool)
	All    func() []rules.Rule
}

func (o Options) lookup(id string) (rules.Rule, bool) {
	if o.Lookup != nil {
		return o.Lookup(id)
	}
	return rules.Lookup(id)
}

func (o Options) all() []rules.Rule {
	if o.All != nil {
		return o.All()
	}
	return rules.All()
}

// optionsFrom maps the renderers' options onto SARIF's.
func optionsFrom(o report.Options) Options {
	return Options{IncludeInfo: o.ShowInfo, AllRules: o.AllRules, RulesURL: o.RulesURL}
}

// Render is the "sarif" format as a report.Renderer, for a program's
// table of formats (report.Renderers).
func Render(w io.Writer, r *report.Report, o report.Options) error {
	b, err := Encode(r, optionsFrom(o))
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// sarifLevel maps our level onto SARIF's: error, warning and note are the same;
// info becomes note (SARIF's "none" means "not a problem", and GitHub
// shows nothing useful for it).
func sarifLevel(l rules.Level) string { return l.Pick("error", "warning", "note", "note") }

// securitySeverity is GitHub's security-severity for a rule tagged sec (a
// number as a string: 8.0 for breaking or error rules, 5.0 for risky or
// warning rules, 3.0 otherwise), or "" for other rules.
func securitySeverity(r rules.Rule) string {
	if !r.HasTag("sec") {
		return ""
	}
	switch {
	case r.Severity == rules.SeverityBreaking || r.Severity == "" && r.Level == rules.LevelError:
		return "8.0"
	case r.Severity == rules.SeverityRisky || r.Severity == "" && r.Level == rules.LevelWarning:
		return "5.0"
	}
	return "3.0"
}

// Encode renders the SARIF log, indented, with a trailing newline. It is
// deterministic, and fits GitHub's limits: when a run has more results
// than allowed, or the file would be too large, the least severe results
// are left out and a note result says so.
func Encode(r *report.Report, o Options) ([]byte, error) {
	budget := o.GzipBudget
	if budget <= 0 {
		budget = DefaultGzipBudget
	}
	limit := o.MaxResults
	if limit <= 0 || limit > MaxResultsPerRun {
		limit = MaxResultsPerRun
	}
	for {
		log, err := build(r, o, limit)
		if err != nil {
			return nil, err
		}
		b, err := marshal(log)
		if err != nil {
			return nil, err
		}
		size := gzipSize(b)
		if size <= budget {
			return b, nil
		}
		most := 0
		for _, run := range log.Runs {
			most = max(most, len(run.Results))
		}
		if most <= 1 {
			return nil, fmt.Errorf("sarif: the log is %d bytes compressed even without results (budget %d)", size, budget)
		}
		limit = max(1, int(float64(most)*float64(budget)/float64(size)*0.9))
	}
}

// Build returns the SARIF log (for callers that want to add to it).
func Build(r *report.Report, o Options) (*gosarif.Report, error) {
	limit := o.MaxResults
	if limit <= 0 || limit > MaxResultsPerRun {
		limit = MaxResultsPerRun
	}
	return build(r, o, limit)
}

func marshal(log *gosarif.Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return nil, err
	}
	return report.EscapeJSONHidden(buf.Bytes()), nil
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(b)
	zw.Close()
	return buf.Len()
}

// build makes the log with at most limit results per run (the truncation
// note included).
func build(r *report.Report, o Options, limit int) (*gosarif.Report, error) {
	log, err := gosarif.New(gosarif.Version210)
	if err != nil {
		return nil, err
	}
	maxRuns := o.MaxRuns
	if maxRuns <= 0 || maxRuns > MaxRuns {
		maxRuns = MaxRuns
	}
	secs := sortedSections(r)
	var dropped []string
	if len(secs) > maxRuns {
		for _, s := range secs[maxRuns:] {
			dropped = append(dropped, nonEmpty(s.Server, "(unnamed)"))
		}
		secs = secs[:maxRuns]
	}
	version := o.Version
	if version == "" {
		version = r.Version
	}
	for i, s := range secs {
		var note []string
		if i == 0 && len(dropped) > 0 {
			note = append(note, fmt.Sprintf("%d more servers (%s) are not in this file: GitHub accepts at most %d runs per file; write one SARIF file per server.",
				len(dropped), strings.Join(dropped, ", "), MaxRuns))
		}
		log.AddRun(buildRun(s, o, version, limit, note))
	}
	return log, nil
}

func sortedSections(r *report.Report) []*report.Section {
	out := make([]*report.Section, len(r.Servers))
	for i := range r.Servers {
		out[i] = &r.Servers[i]
	}
	slices.SortStableFunc(out, func(a, b *report.Section) int { return strings.Compare(a.Server, b.Server) })
	return out
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// automationID is the run's stable automationDetails.id: GitHub takes the
// part up to the last slash as the analysis category, so each server's
// alerts are tracked separately.
func automationID(server string) string {
	return "mcp-surface/" + categoryName(server) + "/"
}

func categoryName(s string) string {
	if s == "" {
		return "default"
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	return b.String()
}

func buildRun(s *report.Section, o Options, version string, limit int, notes []string) *gosarif.Run {
	driver := gosarif.NewDriver(report.ToolName).WithInformationURI(InformationURI)
	if version != "" {
		driver.WithVersion(version)
	}
	run := gosarif.NewRun(*gosarif.NewTool(driver))
	run.WithAutomationDetails(gosarif.NewRunAutomationDetails().WithID(automationID(s.Server)))
	run.WithColumnKind("utf16CodeUnits")

	var items []report.Item
	for _, it := range s.Items() {
		if it.Level == rules.LevelInfo && !o.IncludeInfo {
			continue
		}
		if it.Acknowledged != "" && o.OmitAcknowledged {
			continue
		}
		items = append(items, it)
	}
	// Items are worst first; past the limit the least severe go.
	truncated := 0
	if len(items) > limit || len(notes) > 0 && len(items) >= limit {
		keep := max(0, limit-1)
		truncated = len(items) - keep
		items = items[:keep]
	}
	if truncated > 0 {
		notes = append(notes, fmt.Sprintf("%d less severe findings are not in this run: GitHub accepts at most %d results per run and %d MB per file. The JSON report lists every finding.",
			truncated, MaxResultsPerRun, MaxGzipBytes>>20))
	}

	// Rules first, so that every result's ruleIndex points at its rule
	// (go-sarif computes a bogus index for a rule added later).
	var ids []string
	if o.AllRules {
		for _, r := range o.all() {
			ids = append(ids, r.ID)
		}
	}
	for _, it := range items {
		ids = append(ids, it.Rule)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(notes) > 0 {
		ids = append(ids, TruncatedRuleID)
	}
	index := map[string]int{}
	for i, id := range ids {
		index[id] = i
		driver.AddRule(descriptor(id, o))
	}

	for _, it := range items {
		run.Results = append(run.Results, result(it, index[it.Rule]))
	}
	for _, n := range notes {
		loc := locate.FallbackLocation(s.Snapshot, "")
		res := gosarif.NewRuleResult(TruncatedRuleID).
			WithRuleIndex(index[TruncatedRuleID]).
			WithLevel("note").
			WithMessage(gosarif.NewTextMessage(report.SARIFText(n, 2000))).
			WithLocations([]*gosarif.Location{location(loc)})
		res.WithPartialFingerPrints(map[string]any{FingerprintKey: "truncated-" + shortHash(n)})
		run.Results = append(run.Results, res)
	}
	return run
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// descriptor is a rule's reportingDescriptor, from the rule table.
func descriptor(id string, o Options) *gosarif.ReportingDescriptor {
	base := o.RulesURL
	if base == "" {
		base = report.RulesDocURL
	}
	d := gosarif.NewRule(id).WithHelpURI(base + "#" + id)
	if id == TruncatedRuleID {
		return d.WithShortDescription(gosarif.NewMultiformatMessageString(TruncatedRuleSummary)).
			WithFullDescription(gosarif.NewMultiformatMessageString(TruncatedRuleHelp)).
			WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel("note")).
			WithProperties(gosarif.Properties{"tags": []string{"mcp-surface"}})
	}
	r, ok := o.lookup(id)
	if !ok {
		// A finding from a newer or foreign rule table: still a valid,
		// described rule (a missing shortDescription would be null).
		return d.WithShortDescription(gosarif.NewMultiformatMessageString(id)).
			WithProperties(gosarif.Properties{"tags": []string{"mcp-surface"}})
	}
	summary := nonEmpty(r.Summary, r.ID)
	d.WithShortDescription(gosarif.NewMultiformatMessageString(summary))
	d.WithFullDescription(gosarif.NewMultiformatMessageString(fullDescription(r)))
	if r.Help != "" {
		help := reflow(r.Help)
		d.WithHelp(&gosarif.MultiformatMessageString{Text: ptr(help), Markdown: ptr(help + "\n\n[Documentation](" + base + "#" + id + ")")})
	}
	level := r.Level
	if level == "" {
		level = r.Severity.Level()
	}
	d.WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(sarifLevel(level)))
	props := gosarif.Properties{"tags": ruleTags(r)}
	if ss := securitySeverity(r); ss != "" {
		props["security-severity"] = ss
	}
	if r.HasTag("heur") {
		props["precision"] = "medium"
	} else {
		props["precision"] = "high"
	}
	if r.Severity != "" {
		props["severity"] = string(r.Severity)
	}
	// WithProperties, not the embedded property bag: go-sarif's
	// ReportingDescriptor has both, and the embedded one is never written.
	d.WithProperties(props)
	return d
}

func ptr(s string) *string { return &s }

// reflow joins the lines of each plain paragraph of markdown help: GitHub
// renders rule help with every line break kept. Lists, quotes, tables,
// indented and fenced code keep their lines.
func reflow(md string) string {
	paras := strings.Split(strings.TrimSpace(md), "\n\n")
	inFence := false
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		structured := inFence
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "```") {
				inFence = !inFence
				structured = true
			}
			if strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") || strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") ||
				strings.HasPrefix(t, "> ") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") || startsNumbered(t) {
				structured = true
			}
		}
		if !structured {
			paras[i] = strings.Join(strings.Fields(p), " ")
		}
	}
	return strings.Join(paras, "\n\n")
}

func startsNumbered(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')')
}

// fullDescription is the summary and the first paragraph of the help, on
// one line.
func fullDescription(r rules.Rule) string {
	s := nonEmpty(r.Summary, r.ID)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	if p, _, _ := strings.Cut(strings.TrimSpace(r.Help), "\n\n"); p != "" {
		s += " " + strings.Join(strings.Fields(p), " ")
	}
	return s
}

// ruleTags are the rule's tags, its kind, and "security" for sec rules
// (GitHub shows security-severity only for rules tagged security).
func ruleTags(r rules.Rule) []string {
	tags := []string{"mcp-surface", string(r.Kind)}
	if r.HasTag("sec") {
		tags = append(tags, "security")
	}
	for _, t := range r.Tags {
		if !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	if len(tags) > MaxTagsPerRule {
		tags = tags[:MaxTagsPerRule]
	}
	return tags
}

// result is one finding's result.
func result(it report.Item, ruleIndex int) *gosarif.Result {
	msg := it.Message
	if it.Subject.Name != "" && !strings.Contains(msg, it.Subject.Name) {
		msg = it.Subject.String() + ": " + msg
	}
	if s := report.WitnessSentence(it.Finding); s != "" {
		msg += ". " + s + ": " + report.WitnessLine(it.Finding, 400)
	}
	res := gosarif.NewRuleResult(it.Rule).
		WithRuleIndex(ruleIndex).
		WithLevel(sarifLevel(it.Level)).
		WithMessage(gosarif.NewTextMessage(report.SARIFText(msg, 1000)))
	loc := it.Location
	if loc.IsZero() {
		loc = locate.FallbackLocation("", "")
	}
	sl := location(loc)
	if it.Subject.Name != "" || it.Subject.Kind == finding.KindServer {
		sl.WithLogicalLocations([]*gosarif.LogicalLocation{logical(it.Subject)})
	}
	res.WithLocations([]*gosarif.Location{sl})
	// The map setter: SetPartialFingerPrint panics on a new result.
	res.WithPartialFingerPrints(map[string]any{
		FingerprintKey: it.Fingerprint,
		// Set so that the upload action does not derive one from the
		// line's text: our identity does not depend on where the item is
		// defined.
		"primaryLocationLineHash": it.Fingerprint + ":1",
	})
	props := map[string]any{"category": it.Category, "subjectKind": it.Subject.Kind}
	if it.Subject.Name != "" {
		props["subject"] = report.Line(it.Subject.Name, report.MaxName)
	}
	if it.Pointer != "" {
		props["pointer"] = report.Line(it.Pointer, report.MaxName)
	}
	if it.Severity != "" {
		props["severity"] = string(it.Severity)
	}
	if it.Level == rules.LevelInfo {
		props["level"] = "info"
	}
	if it.Server != "" {
		props["server"] = report.Line(it.Server, report.MaxName)
	}
	if w := it.Witness; w != nil {
		// The value as JSON, not as text: a consumer can replay it.
		props["witness"] = map[string]any{"value": json.RawMessage(w.Value), "accepts": w.Accepts, "rejects": w.Rejects}
	}
	res.Properties = gosarif.Properties{"mcpSurface": props}
	if it.Acknowledged != "" {
		res.WithSuppression([]*gosarif.Suppression{
			gosarif.NewSuppression("external").
				WithStatus("accepted").
				WithJustifcation(report.SARIFText(it.Acknowledged, 1000)).
				WithGuid(guid(it.Server + "|" + it.Fingerprint)).
				WithLocation(location(loc)),
		})
	}
	return res
}

// location is a physical location relative to %SRCROOT%.
func location(l locate.Location) *gosarif.Location {
	line := max(1, l.Line)
	return gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
		WithArtifactLocation(gosarif.NewSimpleArtifactLocation(uriOf(l.Path)).WithUriBaseId("%SRCROOT%")).
		WithRegion(gosarif.NewRegion().WithStartLine(line)))
}

func logical(s finding.Subject) *gosarif.LogicalLocation {
	name := nonEmpty(report.Line(s.Name, report.MaxName), "server")
	kind := "member"
	switch s.Kind {
	case finding.KindTool:
		kind = "function"
	case finding.KindResource, finding.KindResourceTemplate:
		kind = "resource"
	case finding.KindServer:
		kind = "module"
	}
	return gosarif.NewLogicalLocation().WithName(name).WithFullyQualifiedName(s.Kind + "/" + name).WithKind(kind)
}

// uriOf percent-encodes a slash-separated relative path as a relative URI
// reference (a first segment with a colon would read as a scheme).
func uriOf(p string) string {
	u := (&url.URL{Path: p}).EscapedPath()
	first, _, _ := strings.Cut(u, "/")
	if strings.Contains(first, ":") {
		u = "./" + u
	}
	return u
}

// guid derives a stable version-5-shaped UUID from a key.
func guid(key string) string {
	h := sha256.Sum256([]byte(key))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}
