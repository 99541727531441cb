package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/reporttest"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// withWitnesses is one tool whose input narrowed and whose output widened,
// each proven by a witness, and a second tool with the same input change
// proven by another value.
func withWitnesses() *report.Report {
	in := func(name, value string) finding.Finding {
		return reporttest.F(reporttest.Spec{Rule: rules.InputMinimumIncreased, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: name, Pointer: "/inputSchema/properties/days/minimum",
			Message: "minimum of days raised from 1 to 3", Before: 1, After: 3,
			Witness: &finding.Witness{Value: json.RawMessage(value), Accepts: finding.SideBase, Rejects: finding.SideHead}})
	}
	out := reporttest.F(reporttest.Spec{Rule: rules.OutputAnyOfBranchAdded, Level: rules.LevelError, Severity: rules.SeverityBreaking,
		Kind: finding.KindTool, Name: "forecast", Pointer: "/outputSchema/properties/unit/anyOf/1",
		Message: "an anyOf branch was added", After: map[string]any{"const": "kelvin"},
		Witness: &finding.Witness{Value: json.RawMessage(`{"unit":"kelvin"}`), Accepts: finding.SideHead, Rejects: finding.SideBase}})
	return &report.Report{Servers: []report.Section{{Command: "diff",
		Findings: []finding.Finding{in("forecast", `{"days":1}`), out, in("hourly", `{"days":2,"hour":0}`)},
		Base:     &report.Side{Label: "base.json", ManifestHash: "aa"}, Head: &report.Side{Label: "head.json", ManifestHash: "bb"}}}}
}

// A witness is shown wherever the finding is: the comment's table row and
// details, the terminal, annotations, SARIF, and the JSON report, which
// reads back with it. Two tools with the same change but different
// witnesses are two rows, each with its own proof.
func TestWitnessIsShownEverywhere(t *testing.T) {
	r := withWitnesses()
	md := string(render(t, "markdown", r, published()))
	for _, want := range []string{
		"This call was accepted before and is rejected now: <code>&#123;&quot;days&quot;:1&#125;</code>",
		"This call was accepted before and is rejected now: <code>&#123;&quot;days&quot;:2,&quot;hour&quot;:0&#125;</code>",
		"This result is allowed now and was not allowed before: <code>&#123;&quot;unit&quot;:&quot;kelvin&quot;&#125;</code>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "This call was accepted before and is rejected now:\n"); n != 2 {
		t.Errorf("markdown details show %d call witnesses, want 2:\n%s", n, md)
	}
	txt := string(render(t, "text", r, report.Options{}))
	if !strings.Contains(txt, `This call was accepted before and is rejected now: {"days":1}`) ||
		!strings.Contains(txt, `This result is allowed now and was not allowed before: {"unit":"kelvin"}`) {
		t.Errorf("text lacks the witnesses:\n%s", txt)
	}
	gh := string(render(t, "github", r, report.Options{}))
	if !strings.Contains(gh, `This call was accepted before and is rejected now: {"days":1}`) {
		t.Errorf("annotations lack the witness:\n%s", gh)
	}
	js := render(t, "json", r, published())
	back, err := report.DecodeJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range back.Servers[0].Findings {
		if f.Witness == nil {
			t.Fatalf("%s on %s lost its witness in the JSON report", f.Rule, f.Subject.Name)
		}
		got = append(got, f.Witness.Accepts+">"+f.Witness.Rejects+" "+string(f.Witness.Value))
	}
	want := `base>head {"days":1}|head>base {"unit":"kelvin"}|base>head {"days":2,"hour":0}`
	if strings.Join(got, "|") != want {
		t.Errorf("decoded witnesses %q, want %q", strings.Join(got, "|"), want)
	}
	if again := render(t, "json", back, published()); !bytes.Equal(again, js) {
		t.Errorf("the JSON report does not round-trip with witnesses:\n%s\n---\n%s", js, again)
	}
}

// A report whose witness names no side, or the same side twice, or has no
// value, is refused when read back: a publish step renders only what a
// check could have written.
func TestDecodeRefusesMalformedWitnesses(t *testing.T) {
	js := string(render(t, "json", withWitnesses(), published()))
	for name, bad := range map[string]string{
		"same side": strings.Replace(js, `"rejects": "head"`, `"rejects": "base"`, 1),
		"no side":   strings.Replace(js, `"accepts": "base"`, `"accepts": "both"`, 1),
		"no value":  strings.Replace(js, `"value": {`+"\n"+`          "days": 1`+"\n"+`        },`, ``, 1),
	} {
		if bad == js {
			t.Fatalf("%s: the fixture did not change; the JSON report's layout moved", name)
		}
		if _, err := report.DecodeJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), "witness") {
			t.Errorf("%s: DecodeJSON error %v, want one about the witness", name, err)
		}
	}
}

// Every witness and every before/after value is shown as JSON, whatever
// its type, in the comment's folds too: an empty string is "", never an
// empty box; a string is quoted like the JSON around it.
func TestEveryWitnessVisible(t *testing.T) {
	for _, v := range []string{`""`, `"F"`, `0`, `null`, `{}`} {
		f := reporttest.F(reporttest.Spec{Rule: rules.InputTypeChanged, Level: rules.LevelError, Severity: rules.SeverityBreaking,
			Kind: finding.KindTool, Name: "convert", Pointer: "/inputSchema/properties/unit/type", Message: "type changed",
			Before: json.RawMessage(`"string"`), After: json.RawMessage(`"integer"`),
			Witness: &finding.Witness{Value: json.RawMessage(v), Accepts: finding.SideBase, Rejects: finding.SideHead}})
		r := &report.Report{Servers: []report.Section{{Command: "check", Findings: []finding.Finding{f},
			Base: &report.Side{Label: "base.json", ManifestHash: "aa"}, Head: &report.Side{Label: "head", ManifestHash: "bb"}}}}
		md := string(render(t, "markdown", r, report.Options{FailOn: rules.LevelError}))
		if strings.Contains(md, "```text\n\n```") || strings.Contains(md, "```text\n```") {
			t.Errorf("witness %s: an empty box in the folds:\n%s", v, md)
		}
		if !strings.Contains(md, "rejected now:\n\n```json\n"+v+"\n```") {
			t.Errorf("witness %s is not shown as JSON in the folds:\n%s", v, md)
		}
		if !strings.Contains(md, "After:\n\n```json\n\"integer\"\n```") {
			t.Errorf("after value not quoted:\n%s", md)
		}
		if txt := string(render(t, "text", r, report.Options{FailOn: rules.LevelError})); !strings.Contains(txt, "rejected now: "+v+"\n") {
			t.Errorf("text: witness %s not shown:\n%s", v, txt)
		}
	}
}
