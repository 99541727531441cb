package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-surface/mcp-surface/internal/testkit/sharedtest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// golden compares got with testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	txtartest.Golden(t, filepath.Join("testdata", name), got)
}

// render renders twice and insists on identical bytes.
func render(t *testing.T, format string, r *report.Report, o report.Options) []byte {
	t.Helper()
	a, err := report.RenderBytes(format, r, o)
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	b, err := report.RenderBytes(format, r, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("%s: two renders of the same report differ", format)
	}
	return a
}

var fixtures = map[string]func() *report.Report{
	"diff":    reporttest.Diff,
	"empty":   reporttest.Empty,
	"multi":   reporttest.MultiServer,
	"hostile": reporttest.Hostile,
}

var extension = map[string]string{"text": "txt", "json": "json", "markdown": "md", "github": "github.txt", "junit": "xml"}

func TestGolden(t *testing.T) {
	o := report.Options{FailOn: rules.LevelError}
	for name, fx := range fixtures {
		for format, ext := range extension {
			t.Run(name+"/"+format, func(t *testing.T) {
				golden(t, name+"."+ext, render(t, format, fx(), o))
			})
		}
	}
	t.Run("diff/text-color-info", func(t *testing.T) {
		golden(t, "diff.color.txt", render(t, "text", reporttest.Diff(), report.Options{FailOn: rules.LevelWarning, Color: true, ShowInfo: true}))
	})
	t.Run("diff/markdown-fail-none", func(t *testing.T) {
		golden(t, "diff.fail-none.md", render(t, "markdown", reporttest.Diff(), report.Options{}))
	})
	t.Run("large/markdown", func(t *testing.T) {
		golden(t, "large.md", render(t, "markdown", reporttest.Large(150, 4), report.Options{FailOn: rules.LevelError}))
	})
}

func TestFormats(t *testing.T) {
	got := strings.Join(report.Formats(), ",")
	for _, f := range []string{"github", "json", "junit", "markdown", "text"} {
		if !strings.Contains(got, f) {
			t.Errorf("Formats() = %s, missing %s", got, f)
		}
	}
	if _, err := report.RenderBytes("yaml", reporttest.Diff(), report.Options{}); !errors.Is(err, report.ErrUnknownFormat) {
		t.Errorf("unknown format: err = %v", err)
	}
}

func TestSummary(t *testing.T) {
	s := reporttest.Diff().Summary()
	want := report.Summary{Error: 4, Warning: 2, Note: 4, Info: 1, Acknowledged: 1, WorstSeverity: rules.SeverityBreaking, SuggestedBump: "major"}
	s.BaseManifestHash, s.HeadManifestHash = "", ""
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	m := reporttest.MultiServer().Summary()
	if m.BaseManifestHash != "" || m.Error != 4 || m.SuggestedBump != "major" {
		t.Errorf("multi-server summary = %+v", m)
	}
	if !reporttest.Diff().Failed(rules.LevelError) || reporttest.Diff().Failed("") || reporttest.Empty().Failed(rules.LevelInfo) {
		t.Error("Failed does not follow the fail level")
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join(sharedtest.Root(t), "schema", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func TestJSONMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	all := map[string]func() *report.Report{"large": func() *report.Report { return reporttest.Large(20, 3) }}
	for k, v := range fixtures {
		all[k] = v
	}
	for name, fx := range all {
		for _, o := range []report.Options{{FailOn: rules.LevelError}, {}} {
			out := render(t, "json", fx(), o)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s: JSON report does not match schema/report.schema.json: %v", name, err)
			}
		}
	}
	// Not vacuous: a report without a summary, or with a bad level, fails.
	for _, bad := range []string{
		`{"findings":[],"servers":[],"tool":{"name":"mcp-surface"},"reportVersion":1}`,
		`{"findings":[{"rule":"x","level":"fatal","tags":[],"subject":{"kind":"tool","name":"a"},"pointer":"","message":"","fingerprint":"ab","server":"","category":"change"}],"summary":{"error":0,"warning":0,"note":0,"info":0,"acknowledged":0,"worstSeverity":"","suggestedBump":"","baseManifestHash":"","headManifestHash":"","failOn":"none","failed":false},"servers":[],"tool":{"name":"mcp-surface"},"reportVersion":1}`,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for name, fx := range fixtures {
		o := report.Options{FailOn: rules.LevelWarning}
		first := render(t, "json", fx(), o)
		back, err := report.DecodeJSON(first)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again := render(t, "json", back, o)
		if name == "hostile" {
			// Invalid UTF-8 becomes U+FFFD on the way out: compare the
			// second trip with the third.
			first = again
			back, err = report.DecodeJSON(first)
			if err != nil {
				t.Fatal(err)
			}
			again = render(t, "json", back, o)
		}
		if diff := cmp.Diff(string(first), string(again)); diff != "" {
			t.Errorf("%s: JSON → DecodeJSON → JSON changed (-first +again):\n%s", name, diff)
		}
		// Other formats render the decoded report the same way.
		for _, f := range []string{"markdown", "github", "junit", "text"} {
			if name != "hostile" && !bytes.Equal(render(t, f, fx(), o), render(t, f, back, o)) {
				t.Errorf("%s: %s of the decoded report differs", name, f)
			}
		}
	}
	// Server text is data: the JSON keeps it exactly.
	back, err := report.DecodeJSON(render(t, "json", reporttest.Hostile(), report.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Servers[0].Findings[0].Subject.Name; got != reporttest.HostileName {
		t.Errorf("hostile name did not survive JSON: %q", got)
	}
}

func TestDecodeJSONRefuses(t *testing.T) {
	good := string(render(t, "json", reporttest.Diff(), report.Options{}))
	for name, mutate := range map[string]func(string) string{
		"level":  func(s string) string { return strings.Replace(s, `"level": "error"`, `"level": "fatal"`, 1) },
		"server": func(s string) string { return strings.Replace(s, `"server": "weather"`, `"server": "nope"`, 1) },
		"rule": func(s string) string {
			return strings.Replace(s, `"rule": "tool-input-schema-invalid"`, `"rule": "Bad Rule"`, 1)
		},
		"category": func(s string) string { return strings.Replace(s, `"category": "spec"`, `"category": "other"`, 1) },
		"version":  func(s string) string { return strings.Replace(s, `"reportVersion": 1`, `"reportVersion": 7`, 1) },
		"json":     func(s string) string { return s[:len(s)/2] },
	} {
		if _, err := report.DecodeJSON([]byte(mutate(good))); err == nil {
			t.Errorf("%s: DecodeJSON accepted a bad report", name)
		}
	}
}

func TestJUnitIsValidXML(t *testing.T) {
	type failure struct {
		Type string `xml:"type,attr"`
	}
	type tc struct {
		Name     string    `xml:"name,attr"`
		Failures []failure `xml:"failure"`
	}
	type suite struct {
		Tests    int  `xml:"tests,attr"`
		Failures int  `xml:"failures,attr"`
		Cases    []tc `xml:"testcase"`
	}
	type suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}
	for _, c := range []struct {
		failOn                rules.Level
		failedCases, failures int
	}{{rules.LevelError, 3, 4}, {rules.LevelWarning, 5, 6}, {"", 0, 0}} {
		var got suites
		if err := xml.Unmarshal(render(t, "junit", reporttest.Diff(), report.Options{FailOn: c.failOn}), &got); err != nil {
			t.Fatal(err)
		}
		s := got.Suites[0]
		n := 0
		for _, x := range s.Cases {
			n += len(x.Failures)
		}
		if s.Failures != c.failedCases || n != c.failures || s.Tests != 7 || len(s.Cases) != 7 {
			t.Errorf("fail on %q: %d failing cases, %d failures, %d tests; want %d, %d, 7", c.failOn, s.Failures, n, s.Tests, c.failedCases, c.failures)
		}
	}
	var v any
	if err := xml.Unmarshal(render(t, "junit", reporttest.Hostile(), report.Options{FailOn: rules.LevelNote}), &v); err != nil {
		t.Errorf("hostile JUnit is not XML: %v", err)
	}
}

func TestGitHubAnnotationLimits(t *testing.T) {
	var fs []finding.Finding
	for i := 0; i < 30; i++ {
		for _, l := range []rules.Level{rules.LevelNote, rules.LevelWarning, rules.LevelError} {
			fs = append(fs, reporttest.F(reporttest.Spec{Rule: "tool-removed", Level: l, Kind: finding.KindTool,
				Name: strings.Repeat("t", i+1), Message: "m"}))
		}
	}
	r := &report.Report{Servers: []report.Section{{Server: "s", Findings: fs}}}
	out := string(render(t, "github", r, report.Options{FailOn: rules.LevelError}))
	count := map[string]int{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if kind, _, ok := strings.Cut(strings.TrimPrefix(line, "::"), " "); ok && strings.HasPrefix(line, "::") {
			count[kind]++
			order = append(order, kind)
		}
	}
	if count["error"] != 10 || count["warning"] != 10 || count["notice"] != 10 {
		t.Errorf("annotations per kind = %v, want 10 each (9 notices and the summary)", count)
	}
	if order[0] != "error" || order[10] != "warning" || order[20] != "notice" {
		t.Errorf("worst are not first: %v", order)
	}
	if !strings.Contains(out, "61 findings are not annotated") {
		t.Errorf("no summary of the findings left out:\n%s", out)
	}
}

func TestMarkdownLargeDiffStaysUnderTheLimit(t *testing.T) {
	r := reporttest.Large(150, 4)
	out := render(t, "markdown", r, report.Options{FailOn: rules.LevelError})
	if n := utf8.RuneCount(out); len(out) > report.DefaultMarkdownBudget || n > report.GitHubCommentLimit {
		t.Errorf("comment is %d bytes, %d characters", len(out), n)
	}
	s := string(out)
	for _, want := range []string{"<!-- mcp-surface:report id=catalogue -->\n", "### ❌ 125 tools break existing clients", "- **Tools**: 150 changed", "Shortened to stay under", "If this change is intended"} {
		if !strings.Contains(s, want) {
			t.Errorf("large comment lacks %q", want)
		}
	}
	if !strings.HasPrefix(s, report.MarkerPrefix) || strings.Count(s, report.MarkerPrefix) != 1 {
		t.Error("the marker is not alone on the first line")
	}
	checkMarkdownStructure(t, s)
	// A tiny budget keeps the headline and the counts.
	small := string(render(t, "markdown", r, report.Options{FailOn: rules.LevelError, MaxMarkdownBytes: 4000}))
	if len(small) > 4000 || !strings.Contains(small, "### ❌ 125 tools") || !strings.Contains(small, "- **Tools**: 150 changed") || !strings.Contains(small, "left out") {
		t.Errorf("4000-byte comment (%d bytes) lost its headline or counts:\n%s", len(small), small)
	}
}

// fence matches the opening or closing line of a backtick fence.
var fence = regexp.MustCompile("^( *)(`{3,})([a-z]*)$")

// checkMarkdownStructure checks that every code fence closes with its own
// length, that table rows have as many cells as their header, and that
// details are balanced.
func checkMarkdownStructure(t *testing.T, md string) {
	t.Helper()
	lines := strings.Split(md, "\n")
	cols := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fence.FindStringSubmatch(l); m != nil {
			n := len(m[2])
			j := i + 1
			for ; j < len(lines); j++ {
				if c := fence.FindStringSubmatch(lines[j]); c != nil && len(c[2]) >= n && c[3] == "" {
					break
				}
			}
			if j == len(lines) {
				t.Fatalf("line %d: fence of %d backticks never closes", i+1, n)
			}
			i = j
			continue
		}
		if strings.HasPrefix(l, "| ") {
			n := strings.Count(l, "|")
			if cols == 0 {
				cols = n
			} else if n != cols {
				t.Errorf("line %d: %d pipes in a table of %d: %s", i+1, n, cols, l)
			}
		} else {
			cols = 0
		}
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Error("unbalanced <details>")
	}
}

func TestMarkdownStructure(t *testing.T) {
	for name, fx := range fixtures {
		t.Run(name, func(t *testing.T) {
			checkMarkdownStructure(t, string(render(t, "markdown", fx(), report.Options{FailOn: rules.LevelError, ShowInfo: true})))
		})
	}
}

func TestMarker(t *testing.T) {
	r := reporttest.MultiServer()
	if got := report.MarkerKey(r, report.Options{}); got != "files+weather" {
		t.Errorf("MarkerKey = %q", got)
	}
	if got := report.MarkerKey(reporttest.Empty(), report.Options{}); got != "default" {
		t.Errorf("MarkerKey of an unnamed server = %q", got)
	}
	m := report.Marker("a--b -->\n<x>")
	if strings.Count(m, "--") != 2 || strings.Contains(m, "\n") || !strings.HasSuffix(m, " -->") {
		t.Errorf("Marker = %q", m)
	}
	out := string(render(t, "markdown", reporttest.Diff(), report.Options{CommentKey: "job/matrix-1"}))
	if !strings.HasPrefix(out, "<!-- mcp-surface:report id=job/matrix-1 -->\n") {
		t.Errorf("comment key not used: %.80s", out)
	}
}

func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.sarif")
	if err := report.WriteFile(path, []byte(strings.Repeat("x", 1000))); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteFile(path, []byte("short")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "short" {
		t.Errorf("file = %q: a longer old file left a tail", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestNoSnapshotNoFile(t *testing.T) {
	f := reporttest.F(reporttest.Spec{Rule: "tool-removed", Level: rules.LevelError, Kind: finding.KindTool, Name: "x", Message: "gone"})
	r := &report.Report{Servers: []report.Section{{Findings: []finding.Finding{f}}}}
	if out := string(render(t, "github", r, report.Options{})); !strings.HasPrefix(out, "::error title=tool-removed (tool x)::gone") {
		t.Errorf("annotation without a location names a file: %s", out)
	}
	if out := string(render(t, "json", r, report.Options{})); strings.Contains(out, `"location"`) {
		t.Error("JSON invents a location")
	}
}
