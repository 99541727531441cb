package capture_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/capturetest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func TestProbesRunOverTheSameSession(t *testing.T) {
	t.Parallel()
	o := opts("2025-06-18")
	o.Probes = []capture.Probe{
		{ID: "ping", Method: capture.MethodToolsCall, Name: "ping"},
		{ID: "summary", Method: capture.MethodPromptsGet, Name: "summarize_issue", Arguments: json.RawMessage(`{"issue_id":"7"}`)},
		{ID: "all", Method: capture.MethodResourcesRead, AllResources: true, MaxResources: 3},
		{ID: "missing", Method: capture.MethodToolsCall, Name: "no_such_tool"},
	}
	c := capturetest.InProcess(t, testserver.ModeFull, o)
	if len(c.Probes) != 6 {
		t.Fatalf("%d probe results, want 6 (1 + 1 + 3 resources + 1)", len(c.Probes))
	}
	for _, p := range c.Probes {
		if p.Exchange < 0 {
			t.Fatalf("probe %s has no recorded exchange", p.Probe.ID)
		}
		ex := c.Exchanges[p.Exchange]
		if ex.Method != p.Probe.Method {
			t.Errorf("probe %s recorded as %s", p.Probe.ID, ex.Method)
		}
		if p.Probe.ID == "missing" {
			if ex.Error == nil && !strings.Contains(string(ex.Result), "isError") {
				t.Errorf("calling an unknown tool gave neither an error nor isError: %s", ex.Result)
			}
			continue
		}
		if ex.Result == nil {
			t.Errorf("probe %s (%s): no result: %+v", p.Probe.ID, p.Target, ex.Error)
		}
	}
	bounded := false
	for _, d := range c.Diagnostics {
		bounded = bounded || d.Code == capture.DiagProbeBounded
	}
	if !bounded {
		t.Errorf("reading 3 of 8 resources was not reported")
	}
	// Probe results never reach the snapshot.
	plain := capturetest.InProcess(t, testserver.ModeFull, opts("2025-06-18"))
	if capturetest.Build(t, c).Fingerprints.Manifest != capturetest.Build(t, plain).Fingerprints.Manifest {
		t.Errorf("probes changed the snapshot")
	}
}

// A probe that is never answered, or whose answer is too big, stops the
// capture with a *LimitError that names the probe and the flag that
// raises the bound; the frames seen so far are kept, and the server is
// stopped.
func TestProbeBounds(t *testing.T) {
	for _, tc := range []struct {
		mode, limit string
		lim         capture.Limits
	}{
		{testserver.ModeProbeHang, capture.LimitRequestTimeout, capture.Limits{RequestTimeout: 300 * time.Millisecond}},
		{testserver.ModeProbeHuge, capture.LimitTotalBytes, capture.Limits{MaxBytes: 1 << 20}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			o := opts("2025-06-18")
			o.Limits.RequestTimeout, o.Limits.MaxBytes = tc.lim.RequestTimeout, tc.lim.MaxBytes
			if o.Limits.RequestTimeout == 0 {
				o.Limits.RequestTimeout = 10 * time.Second
			}
			o.Probes = []capture.Probe{{ID: "echo", Method: capture.MethodToolsCall, Name: "echo", Arguments: json.RawMessage(`{"message":"x"}`)}}
			c, err := capture.Run(context.Background(), stdio(t, tc.mode), o)
			var le *capture.LimitError
			if !errors.As(err, &le) || le.Limit != tc.limit || !strings.HasPrefix(le.Method, "probe echo (tools/call echo)") {
				t.Fatalf("err = %v (%#v), want the %s limit naming the probe", err, le, tc.limit)
			}
			if c == nil || len(c.Pages) == 0 || len(c.Probes) != 0 {
				t.Errorf("the partial capture is not kept: %+v", c)
			}
		})
	}
}

// Expect and Pin are declarations for pkg/probe: the capture makes the
// call whatever they say and keeps them with the result.
func TestProbeDeclarationsAreKept(t *testing.T) {
	t.Parallel()
	o := opts("2025-11-25")
	o.Probes = []capture.Probe{{ID: "fail", Method: capture.MethodToolsCall, Name: "fail", Expect: capture.ExpectIsError, Pin: capture.PinShape}}
	c := capturetest.InProcess(t, testserver.ModeProbes, o)
	if len(c.Probes) != 1 || c.Probes[0].Probe.Expect != capture.ExpectIsError || c.Probes[0].Probe.Pin != capture.PinShape {
		t.Fatalf("probes = %+v", c.Probes)
	}
	if x := c.Exchanges[c.Probes[0].Exchange]; !strings.Contains(string(x.Result), `"isError":true`) {
		t.Errorf("result = %s", x.Result)
	}
}
