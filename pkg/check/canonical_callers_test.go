package check_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// callerSeeds are the inputs on which the canonical forms used to part:
// line and paragraph separators, control characters, numbers in odd
// spellings, deep nesting, invalid UTF-8, repeated keys.
var callerSeeds = []string{
	`"\u2028"`, "\"\u2028\u2029\"", `{"a\u2029":"x"}`, `["\u2028","a"]`,
	`"\u0000\u001f\u007f\b\f\n\r\t"`, "\"\x7f\"", `"\ud83d\ude00<&>"`, `"\ud800"`, "\"\xff\xfe\"",
	`1.0`, `-0`, `-0.0e5`, `1E+2`, `0.000001`, `1e-7`, `123456789012345678901234`, `1e400`, `-1e-400`, `1e999999`,
	`[3,1,2]`, `[true,null,"b","a",1]`, `[{"b":1,"a":[2,1]},[1]]`, `{"b":1,"a":2,"b":3}`,
	strings.Repeat("[", 500) + strings.Repeat("]", 500),
	strings.Repeat(`{"a":`, 400) + `1.50` + strings.Repeat(`}`, 400),
}

// FuzzCallersAgree: whichever package produced a value's canonical form
// (the snapshot's canonicalizer, the value encoder the fingerprints use,
// the schema comparison's before value, a JSON report read back), it is
// the same bytes, so a finding's fingerprint does not depend on who made
// it.
func FuzzCallersAgree(f *testing.F) {
	for _, s := range callerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := manifest.Canonicalize(data)
		if err != nil {
			return
		}
		if again, err := canonjson.Canonicalize(want); err != nil || !bytes.Equal(again, want) {
			t.Fatalf("not idempotent: %q → %q (%v)", want, again, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("canonicalized what encoding/json refuses: %q: %v", data, err)
		}
		if got, err := manifest.CanonicalizeValue(v); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("value path on %q:\n got %q (%v)\nwant %q", data, got, err, want)
		}
		if got := schemadiffBefore(data); got != nil && !bytes.Equal(got, want) {
			t.Fatalf("schemadiff on %q:\n got %q\nwant %q", data, got, want)
		}
		if got := reportRoundTrip(t, want); !bytes.Equal(got, want) {
			t.Fatalf("JSON report read back:\n got %q\nwant %q", got, want)
		}
	})
}

// TestCallersAgree runs the seeds without the fuzzing engine.
func TestCallersAgree(t *testing.T) {
	t.Parallel()
	for _, s := range callerSeeds {
		want, err := canonjson.Canonicalize([]byte(s))
		if err != nil {
			t.Fatalf("%.40q: %v", s, err)
		}
		if got := schemadiffBefore([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("schemadiff on %.40q:\n got %q\nwant %q", s, got, want)
		}
		if got := reportRoundTrip(t, want); !bytes.Equal(got, want) {
			t.Errorf("report on %.40q:\n got %q\nwant %q", s, got, want)
		}
	}
}

// schemadiffBefore is the before value schemadiff reports when a const
// changes from the value in data; nil when it reports none (data nested
// too deep to be wrapped, or equal to the other const).
func schemadiffBefore(data []byte) []byte {
	base := append(append([]byte(`{"const":`), data...), '}')
	head := []byte(`{"const":"\u0000 another value"}`)
	for _, c := range schemadiff.Compare(base, head, schemadiff.Input, schemadiff.Options{}) {
		if c.Rule == rules.InputConstChanged {
			return c.Before
		}
	}
	return nil
}

// reportRoundTrip writes a finding whose before value is v into a JSON
// report and reads it back.
func reportRoundTrip(t *testing.T, v []byte) []byte {
	t.Helper()
	f := finding.New(rules.InputConstChanged, finding.Subject{Kind: finding.KindTool, Name: "t"}, "/inputSchema/const", "const changed", v, nil)
	r := &report.Report{Servers: []report.Section{{Command: "diff", Findings: []finding.Finding{f}}}}
	out, err := report.RenderBytes("json", r, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := report.DecodeJSON(out)
	if err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	return back.Servers[0].Findings[0].Before
}
