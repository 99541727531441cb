package capture_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func TestWriteFrames(t *testing.T) {
	t.Parallel()
	c := &capture.Capture{RequestedVersion: "2025-06-18", Frames: []capture.Frame{
		{Seq: 0, Dir: capture.Sent, Data: json.RawMessage(`{"params":{"arguments":{"token":"s3cret-long","short":"s3cret"}}}`)},
		{Seq: 1, Dir: capture.Received, Data: json.RawMessage(`{"result":{}}`)},
	}}
	var out bytes.Buffer
	if err := capture.WriteFrames(&out, []*capture.Capture{c}, []string{"s3cret", "s3cret-long"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || strings.Contains(out.String(), "s3cret") {
		t.Fatalf("frames:\n%s", out.String())
	}
	var first struct {
		Revision string          `json:"revision"`
		Seq      int             `json:"seq"`
		Dir      string          `json:"dir"`
		Data     json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Revision != "2025-06-18" || first.Dir != string(capture.Sent) ||
		!strings.Contains(string(first.Data), `"token":"[redacted]"`) {
		t.Errorf("first line %s (%v)", lines[0], err)
	}
	if string(c.Frames[0].Data) == "" || !strings.Contains(string(c.Frames[0].Data), "s3cret-long") {
		t.Errorf("the capture itself was changed")
	}
}
