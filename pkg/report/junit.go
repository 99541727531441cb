package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure,omitempty"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// renderJUnit writes one test suite per server and one test case per
// subject; every unacknowledged finding at or above FailOn is a failure
// of its subject's case, the others are listed in the case's system-out.
// Subjects without findings (Section.Subjects) pass.
func renderJUnit(w io.Writer, r *Report, o Options) error {
	out := junitSuites{Name: ToolName}
	for _, s := range r.sections() {
		items, _ := visibleItems(s.Items(), o.ShowInfo)
		bySubject := map[finding.Subject][]Item{}
		subjects := slices.Clone(s.Subjects)
		for _, it := range items {
			if _, seen := bySubject[it.Subject]; !seen && !slices.Contains(subjects, it.Subject) {
				subjects = append(subjects, it.Subject)
			}
			bySubject[it.Subject] = append(bySubject[it.Subject], it)
		}
		slices.SortFunc(subjects, func(a, b finding.Subject) int {
			return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
		})
		subjects = slices.Compact(subjects)
		suite := junitSuite{Name: ToolName + " " + serverTitle(s.Server)}
		sum := s.Summary()
		for _, p := range []junitProperty{
			{"command", Line(s.Command, MaxName)},
			{"baseManifestHash", Line(sum.BaseManifestHash, 80)},
			{"headManifestHash", Line(sum.HeadManifestHash, 80)},
			{"suggestedBump", sum.SuggestedBump},
			{"failOn", failOnName(o.FailOn)},
		} {
			if p.Value != "" {
				suite.Properties = append(suite.Properties, p)
			}
		}
		classPrefix := ToolName
		if s.Server != "" {
			classPrefix += "." + Line(s.Server, MaxName)
		}
		for _, subj := range subjects {
			c := junitCase{Name: subjectLine(subj.Kind, subj.Name), Classname: classPrefix + "." + subj.Kind}
			var other []string
			for _, it := range bySubject[subj] {
				if it.Acknowledged == "" && failsAt(it.Level, o.FailOn) {
					c.Failures = append(c.Failures, junitFailure{
						Message: Line(it.Message, MaxMessage),
						Type:    Line(it.Rule, MaxName),
						Text:    junitBody(it),
					})
					continue
				}
				other = append(other, junitLine(it))
			}
			if len(other) > 0 {
				c.SystemOut = strings.Join(other, "\n")
			}
			suite.Tests++
			if len(c.Failures) > 0 {
				suite.Failures++
			}
			suite.Cases = append(suite.Cases, c)
		}
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Suites = append(out.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func failsAt(l, failOn rules.Level) bool {
	return failOn != "" && l.Rank() >= failOn.Rank()
}

func junitBody(it Item) string {
	lines := []string{
		fmt.Sprintf("%s %s: %s", Line(string(it.Level), 10), Line(it.Rule, MaxName), Line(it.Message, MaxMessage)),
	}
	if it.Pointer != "" {
		lines = append(lines, "at "+Line(it.Pointer, MaxName))
	}
	if it.Severity != "" {
		lines = append(lines, "severity: "+Line(string(it.Severity), 20))
	}
	if it.TextDiff != "" {
		for _, l := range strings.Split(it.TextDiff, "\n") {
			lines = append(lines, Line(l, MaxText))
		}
	} else {
		if it.Before != nil {
			lines = append(lines, "before: "+Line(string(it.Before), 400))
		}
		if it.After != nil {
			lines = append(lines, "after: "+Line(string(it.After), 400))
		}
	}
	if !it.Location.IsZero() {
		lines = append(lines, fmt.Sprintf("location: %s:%d", Line(it.Location.Path, MaxName), it.Location.Line))
	}
	lines = append(lines, "fingerprint: "+Line(it.Fingerprint, 64))
	return strings.Join(lines, "\n")
}

func junitLine(it Item) string {
	l := fmt.Sprintf("%s %s: %s", Line(string(it.Level), 10), Line(it.Rule, MaxName), Line(it.Message, MaxMessage))
	if it.Acknowledged != "" {
		l += " (acknowledged: " + Line(it.Acknowledged, MaxMessage) + ")"
	}
	return l
}
