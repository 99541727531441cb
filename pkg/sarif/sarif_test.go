package sarif_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/sarif"
)

var schema *jsonschema.Schema

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	if schema == nil {
		path, err := sharedtest.SARIFSchema()
		sharedtest.Require(t, err)
		s, err := jsonschema.NewCompiler().Compile(path)
		if err != nil {
			t.Fatalf("SARIF schema: %v", err)
		}
		schema = s
	}
	return schema
}

// fixedTable is a rule table for golden files that do not change when
// the real table does.
var fixedTable = func() map[string]rules.Rule {
	m := map[string]rules.Rule{}
	add := func(id string, kind rules.Kind, sev rules.Severity, level rules.Level, tags ...string) {
		if level == "" {
			level = sev.Level()
		}
		m[id] = rules.Rule{ID: id, Kind: kind, Severity: sev, Level: level, Tags: tags,
			Summary: "Summary of " + id,
			Help:    "Why " + id + " matters,\nacross two lines.\n\n- a list\n- stays\n\n**What to do.** Fix it."}
	}
	add("input-required-property-added", rules.KindChange, rules.SeverityBreaking, "", "wire")
	add("output-required-property-removed", rules.KindChange, rules.SeverityBreaking, "", "wire")
	add("tool-removed", rules.KindChange, rules.SeverityBreaking, "", "wire")
	add("tool-annotation-read-only-hint-removed", rules.KindChange, rules.SeverityRisky, "", "sec")
	add("tool-description-changed", rules.KindChange, rules.SeverityPatch, "", "llm", "sec")
	add("server-instructions-changed", rules.KindChange, rules.SeverityPatch, "", "llm", "sec")
	add("tool-added", rules.KindChange, rules.SeverityMinor, "")
	add("input-optional-property-added", rules.KindChange, rules.SeverityMinor, "", "strict")
	add("server-version-changed", rules.KindChange, rules.SeverityInfo, "")
	add("input-enum-value-removed", rules.KindChange, rules.SeverityBreaking, "", "wire")
	add("tool-input-schema-invalid", rules.KindSpec, "", rules.LevelError, "spec")
	add("description-missing", rules.KindLint, "", rules.LevelNote, "lint", "llm")
	add("text-hidden-characters", rules.KindLint, "", rules.LevelWarning, "lint", "sec", "heur")
	return m
}()

func fixed(o sarif.Options) sarif.Options {
	o.Lookup = func(id string) (rules.Rule, bool) { r, ok := fixedTable[id]; return r, ok }
	o.All = func() []rules.Rule {
		var out []rules.Rule
		for _, r := range fixedTable {
			out = append(out, r)
		}
		return out
	}
	return o
}

func encode(t *testing.T, r *report.Report, o sarif.Options) []byte {
	t.Helper()
	a, err := sarif.Encode(r, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sarif.Encode(r, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two encodings of the same report differ")
	}
	check(t, a)
	return a
}

// The subset of SARIF that GitHub's checks read.
type log struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription *struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Properties map[string]any `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		AutomationDetails struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Suppressions        []map[string]any  `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

var unescapedBracket = regexp.MustCompile(`(^|[^\\])(\\\\)*[\[\]]`)

// check validates a SARIF file against the 2.1.0 schema and GitHub code
// scanning's rules and limits.
func check(t *testing.T, data []byte) log {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("SARIF does not match sarif-schema-2.1.0.json: %v", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	if gz.Len() >= sarif.MaxGzipBytes {
		t.Errorf("SARIF is %d bytes gzip'd, GitHub takes less than %d", gz.Len(), sarif.MaxGzipBytes)
	}
	var l log
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	if l.Version != "2.1.0" || len(l.Runs) == 0 || len(l.Runs) > sarif.MaxRuns {
		t.Fatalf("version %q, %d runs", l.Version, len(l.Runs))
	}
	ids := map[string]bool{}
	for ri, run := range l.Runs {
		id := run.AutomationDetails.ID
		if id == "" || !strings.HasSuffix(id, "/") || ids[id] {
			t.Errorf("run %d: automationDetails.id %q is empty, not a category or repeated", ri, id)
		}
		ids[id] = true
		if len(run.Results) > sarif.MaxResultsPerRun || len(run.Tool.Driver.Rules) > 25000 {
			t.Errorf("run %d: %d results, %d rules", ri, len(run.Results), len(run.Tool.Driver.Rules))
		}
		for _, r := range run.Tool.Driver.Rules {
			if r.ShortDescription == nil || r.ShortDescription.Text == "" {
				t.Errorf("rule %s: no short description", r.ID)
			}
			tags, _ := r.Properties["tags"].([]any)
			if len(tags) > sarif.MaxTagsPerRule {
				t.Errorf("rule %s: %d tags", r.ID, len(tags))
			}
			if ss, ok := r.Properties["security-severity"]; ok {
				s, isString := ss.(string)
				f, err := strconv.ParseFloat(s, 64)
				if !isString || err != nil || f < 0 || f > 10 {
					t.Errorf("rule %s: security-severity %v is not a number string in 0..10", r.ID, ss)
				}
				if !strings.Contains(fmt.Sprint(tags), "security") {
					t.Errorf("rule %s: security-severity without the security tag", r.ID)
				}
			}
		}
		for i, res := range run.Results {
			where := fmt.Sprintf("run %d result %d (%s)", ri, i, res.RuleID)
			if res.RuleIndex == nil || *res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*res.RuleIndex].ID != res.RuleID {
				t.Errorf("%s: ruleIndex does not point at its rule", where)
			}
			if res.Message.Text == "" {
				t.Errorf("%s: no message", where)
			}
			if unescapedBracket.MatchString(res.Message.Text) {
				t.Errorf("%s: message has an unescaped bracket: %.100s", where, res.Message.Text)
			}
			if n := len(res.Locations); n < 1 || n > sarif.MaxLocationsPerResult {
				t.Errorf("%s: %d locations", where, n)
			}
			for _, loc := range res.Locations {
				pl := loc.PhysicalLocation
				u := pl.ArtifactLocation.URI
				if u == "" || strings.HasPrefix(u, "/") || strings.Contains(u, "://") || pl.ArtifactLocation.URIBaseID != "%SRCROOT%" || pl.Region.StartLine < 1 {
					t.Errorf("%s: location %+v is not a repository line", where, pl)
				}
			}
			if res.PartialFingerprints[sarif.FingerprintKey] == "" {
				t.Errorf("%s: no %s partial fingerprint", where, sarif.FingerprintKey)
			}
		}
	}
	return l
}

// golden compares got with testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	txtartest.Golden(t, filepath.Join("testdata", name), got)
}

func TestGolden(t *testing.T) {
	golden(t, "diff.sarif", encode(t, reporttest.Diff(), fixed(sarif.Options{})))
	golden(t, "hostile.sarif", encode(t, reporttest.Hostile(), fixed(sarif.Options{IncludeInfo: true})))
	golden(t, "multi.sarif", encode(t, reporttest.MultiServer(), fixed(sarif.Options{Version: "v9.9.9"})))
}

func TestSchemaAndGitHubLimits(t *testing.T) {
	fixtures := map[string]*report.Report{
		"diff": reporttest.Diff(), "hostile": reporttest.Hostile(), "multi": reporttest.MultiServer(),
		"empty": reporttest.Empty(), "large": reporttest.Large(150, 4),
	}
	options := map[string]sarif.Options{
		"default": {}, "info": {IncludeInfo: true}, "all-rules": {AllRules: true, IncludeInfo: true},
		"omit-acknowledged": {OmitAcknowledged: true},
	}
	for fname, r := range fixtures {
		for oname, o := range options {
			t.Run(fname+"/"+oname, func(t *testing.T) {
				// With the real rule table, whatever it holds today.
				encode(t, r, o)
			})
		}
	}
}

func TestDecisions(t *testing.T) {
	l := check(t, encode(t, reporttest.Diff(), fixed(sarif.Options{})))
	run := l.Runs[0]
	if run.AutomationDetails.ID != "mcp-surface/weather/" {
		t.Errorf("automationDetails.id = %q", run.AutomationDetails.ID)
	}
	// Info is left out by default; the acknowledged finding is suppressed.
	var ids []string
	suppressed := 0
	for _, res := range run.Results {
		ids = append(ids, res.RuleID)
		if len(res.Suppressions) == 1 && res.Suppressions[0]["status"] == "accepted" && res.Suppressions[0]["justification"] != "" {
			suppressed++
		}
	}
	if strings.Contains(strings.Join(ids, ","), "server-version-changed") || suppressed != 1 || len(ids) != 11 {
		t.Errorf("results %v, %d suppressed", ids, suppressed)
	}
	// Only rules with results, each once, sorted.
	var ruleIDs []string
	for _, r := range run.Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, r.ID)
	}
	if len(ruleIDs) != 11 || ruleIDs[0] != "description-missing" {
		t.Errorf("rules %v", ruleIDs)
	}
	for _, r := range run.Tool.Driver.Rules {
		ss, has := r.Properties["security-severity"]
		switch r.ID {
		case "tool-annotation-read-only-hint-removed":
			if ss != "5.0" {
				t.Errorf("%s: security-severity %v, want 5.0", r.ID, ss)
			}
		case "tool-description-changed", "server-instructions-changed":
			if ss != "3.0" {
				t.Errorf("%s: security-severity %v, want 3.0", r.ID, ss)
			}
		default:
			if has {
				t.Errorf("%s: security-severity on a rule without sec", r.ID)
			}
		}
	}
	// Locations: code when known, the snapshot otherwise.
	for _, res := range run.Results {
		u := res.Locations[0].PhysicalLocation.ArtifactLocation.URI
		if res.RuleID == "tool-removed" && (u != "mcp-surface.json" || res.Locations[0].PhysicalLocation.Region.StartLine != 1) {
			t.Errorf("tool-removed without a known location is at %s", u)
		}
		if res.RuleID == "input-required-property-added" && u != "src/tools/forecast.ts" {
			t.Errorf("input-required-property-added is at %s", u)
		}
	}
	// Info findings, when asked for, are notes that say they are info.
	withInfo := encode(t, reporttest.Diff(), fixed(sarif.Options{IncludeInfo: true}))
	if !bytes.Contains(withInfo, []byte(`"level": "info"`)) {
		t.Error("an info result does not carry mcpSurface.level info")
	}
}

func TestFingerprintsAreStable(t *testing.T) {
	// The same finding at another location, with another message, keeps
	// its partial fingerprint.
	a := reporttest.Diff()
	b := reporttest.Diff()
	for i := range b.Servers[0].Findings {
		b.Servers[0].Findings[i].Message += " (reworded)"
	}
	b.Servers[0].Locations = nil
	fp := func(r *report.Report) map[string]string {
		out := map[string]string{}
		for _, res := range check(t, encode(t, r, fixed(sarif.Options{}))).Runs[0].Results {
			out[res.RuleID] = res.PartialFingerprints[sarif.FingerprintKey] + res.PartialFingerprints["primaryLocationLineHash"]
		}
		return out
	}
	if diff := cmp.Diff(fp(a), fp(b)); diff != "" {
		t.Errorf("fingerprints moved with the message or location (-a +b):\n%s", diff)
	}
}

func TestTruncation(t *testing.T) {
	l := check(t, encode(t, reporttest.Large(150, 4), fixed(sarif.Options{MaxResults: 5})))
	res := l.Runs[0].Results
	if len(res) != 5 || res[4].RuleID != sarif.TruncatedRuleID || res[0].Level != "error" {
		t.Errorf("truncated run: %d results, last %s", len(res), res[len(res)-1].RuleID)
	}
	if !strings.Contains(res[4].Message.Text, "596 less severe findings") {
		t.Errorf("note: %s", res[4].Message.Text)
	}

	// A tiny size budget cuts results too.
	big := encode(t, reporttest.Large(150, 4), fixed(sarif.Options{GzipBudget: 12 << 10}))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(big)
	zw.Close()
	l = check(t, big)
	last := l.Runs[0].Results[len(l.Runs[0].Results)-1]
	if gz.Len() > 13<<10 || last.RuleID != sarif.TruncatedRuleID {
		t.Errorf("size budget: %d bytes gzip'd, last result %s", gz.Len(), last.RuleID)
	}

	// More servers than runs: the rest are named in a note.
	r := &report.Report{}
	for i := 0; i < 25; i++ {
		s := reporttest.Diff().Servers[0]
		s.Server = fmt.Sprintf("server-%02d", i)
		r.Servers = append(r.Servers, s)
	}
	l = check(t, encode(t, r, fixed(sarif.Options{})))
	if len(l.Runs) != sarif.MaxRuns {
		t.Errorf("%d runs", len(l.Runs))
	}
	first := l.Runs[0].Results
	if note := first[len(first)-1]; note.RuleID != sarif.TruncatedRuleID || !strings.Contains(note.Message.Text, "server-24") {
		t.Errorf("no note about the servers left out: %+v", note)
	}
}

func TestRendererInTable(t *testing.T) {
	formats := report.Builtin()
	formats["sarif"] = sarif.Render
	var buf bytes.Buffer
	if err := formats.Render(&buf, "sarif", reporttest.Diff(), report.Options{}); err != nil {
		t.Fatal(err)
	}
	check(t, buf.Bytes())
}

func TestHostileText(t *testing.T) {
	out := encode(t, reporttest.Hostile(), sarif.Options{IncludeInfo: true})
	for _, h := range []string{"\u202e", "\u200b", "\ufeff", "\x1b", "\u0085", "\u2066", "\U000E0041"} {
		if bytes.Contains(out, []byte(h)) {
			t.Errorf("raw %q in SARIF", h)
		}
	}
}

func TestSecuritySeverity(t *testing.T) {
	for _, c := range []struct {
		r    rules.Rule
		want string
	}{
		{rules.Rule{Severity: rules.SeverityBreaking, Tags: []string{"sec"}}, "8.0"},
		{rules.Rule{Severity: rules.SeverityRisky, Tags: []string{"sec"}}, "5.0"},
		{rules.Rule{Severity: rules.SeverityMinor, Tags: []string{"sec"}}, "3.0"},
		{rules.Rule{Level: rules.LevelError, Tags: []string{"sec"}}, "8.0"},
		{rules.Rule{Level: rules.LevelWarning, Tags: []string{"lint", "sec"}}, "5.0"},
		{rules.Rule{Severity: rules.SeverityBreaking, Tags: []string{"wire"}}, ""},
	} {
		if got := sarif.SecuritySeverity(c.r); got != c.want {
			t.Errorf("SecuritySeverity(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestUnknownRuleStillValid(t *testing.T) {
	f := reporttest.F(reporttest.Spec{Rule: "rule-from-the-future", Level: rules.LevelWarning, Kind: finding.KindTool, Name: "x", Message: "m"})
	r := &report.Report{Servers: []report.Section{{Findings: []finding.Finding{f}}}}
	l := check(t, encode(t, r, sarif.Options{}))
	if l.Runs[0].AutomationDetails.ID != "mcp-surface/default/" {
		t.Errorf("unnamed server's category: %q", l.Runs[0].AutomationDetails.ID)
	}
	// No location and no snapshot: line 1 of the default snapshot name.
	if loc := l.Runs[0].Results[0].Locations[0].PhysicalLocation; loc.ArtifactLocation.URI != "mcp-surface.json" || loc.Region.StartLine != 1 {
		t.Errorf("fallback location %+v", loc)
	}
}

// The schema check is not vacuous: what go-sarif writes for a rule
// without a short description, or a suppression without its fields, fails.
func TestSchemaCatchesTheTraps(t *testing.T) {
	for _, bad := range []string{
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"a","shortDescription":null}]}},"results":[]}]}`,
		`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[]}},"results":[{"message":{"text":"m"},"suppressions":[{"kind":"external","status":null,"location":null,"guid":null,"justification":null}]}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sarifSchema(t).Validate(inst) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}
