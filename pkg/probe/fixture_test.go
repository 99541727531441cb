package probe

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/txtartest"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// A fixture is one behaviour, in testdata/NAME.txtar, in the vocabulary
// of internal/testkit/txtartest:
//
//	comment: what the probes and the server do
//	-- frames --   "> json" sent by the client, "< json" received
//	-- probes --   one capture.ProbeResult per line (JSON, without
//	               "exchange"): the n-th is the n-th probe call in the frames
//	-- options --  optional "require: a, b" and "secrets: x, y" lines
//	-- pins --     optional: the pins file
//	-- want --     the findings (level rule kind "name" "pointer", then the
//	               message indented), then "notes:" and the coverage notes
//	-- want.pins --  optional: the pins PinsOf derives (-update)
func TestFixtures(t *testing.T) {
	triggered := map[string]bool{}
	fixtures := txtartest.Load(t, "testdata", "frames", "probes", "options", "pins", "want", "want.pins")
	txtartest.Run(t, fixtures, func(t *testing.T, fx *txtartest.Fixture) []txtartest.Got {
		ar := fx.Archive
		c := fixtureCapture(t, ar)
		m := capturetest.Build(t, c)
		o := fixtureOptions(t, ar)
		fs, cov := Evaluate(c, m, o)
		for _, f := range fs {
			triggered[f.Rule] = true
			if _, ok := rules.Lookup(f.Rule); !ok {
				t.Errorf("finding with unknown rule %s", f.Rule)
			}
		}
		got := render(fs, cov)
		// Same input, same bytes.
		fs2, cov2 := Evaluate(fixtureCapture(t, ar), m, o)
		if again := render(fs2, cov2); again != got {
			t.Errorf("a second evaluation differs:\n%s", cmp.Diff(got, again))
		}
		gots := []txtartest.Got{{Section: "want", Text: got}}
		if txtartest.Data(ar, "want.pins") != nil {
			pins, err := PinsOf(c)
			if err != nil {
				t.Fatal(err)
			}
			data, err := pins.Encode()
			if err != nil {
				t.Fatal(err)
			}
			gots = append(gots, txtartest.Got{Section: "want.pins", Text: string(data)})
		}
		return gots
	})
	t.Run("every-rule-has-a-fixture", func(t *testing.T) {
		for _, id := range rules.ProducedBy("pkg/probe") {
			r, ok := rules.Lookup(id)
			if !ok {
				t.Errorf("rule %s is not in the rules table", id)
				continue
			}
			if r.Summary == "" || r.Help == "" {
				t.Errorf("rule %s has no summary or help", id)
			}
			if !triggered[id] {
				t.Errorf("rule %s is triggered by no fixture", id)
			}
		}
	})
}

func fixtureOptions(t *testing.T, ar *txtar.Archive) Options {
	var o Options
	sc := bufio.NewScanner(strings.NewReader(string(txtartest.Data(ar, "options"))))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var list []string
		for _, x := range strings.Split(v, ",") {
			if x = strings.TrimSpace(x); x != "" {
				list = append(list, x)
			}
		}
		switch strings.TrimSpace(k) {
		case "require":
			o.Require = list
		case "secrets":
			o.Secrets = list
		default:
			t.Fatalf("unknown option %q", k)
		}
	}
	if data := txtartest.Data(ar, "pins"); data != nil {
		p, err := parsePins(data)
		if err != nil {
			t.Fatal(err)
		}
		o.Pins = p
	}
	return o
}

// fixtureCapture builds the capture the recorder would have: exchanges
// paired by id, pages and the handshake from them (capturetest), and the
// probes, the n-th declared one answered by the n-th probe call.
func fixtureCapture(t *testing.T, ar *txtar.Archive) *capture.Capture {
	t.Helper()
	c := capturetest.FromFrames(t, capturetest.ParseFrames(t, txtartest.Data(ar, "frames")))
	var calls []int
	for i, x := range c.Exchanges {
		if slices.Contains(capture.ProbeMethods, x.Method) {
			calls = append(calls, i)
		}
	}
	probes := txtartest.JSONLines[capture.ProbeResult](t, ar, "probes")
	if len(probes) != len(calls) {
		t.Fatalf("%d probes declared for %d probe calls in the frames", len(probes), len(calls))
	}
	for i := range probes {
		probes[i].Exchange = calls[i]
	}
	c.Probes = append(c.Probes, probes...)
	return c
}

func render(fs []finding.Finding, cov Coverage) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s %s %s %s\n\t%s\n", f.Level, f.Rule, f.Subject.Kind, strconv.Quote(f.Subject.Name), strconv.Quote(f.Pointer), f.Message)
	}
	b.WriteString("notes:\n")
	for _, n := range cov.Notes() {
		fmt.Fprintf(&b, "\t%s\n", n)
	}
	return b.String()
}
