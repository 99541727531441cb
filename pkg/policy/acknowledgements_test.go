package policy

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/pkg/config"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// The entries parse back as acknowledgements of the findings they came
// from (once each reason is filled in).
func TestWriteAcknowledgements(t *testing.T) {
	fs := []finding.Finding{
		mk("tool-removed", finding.KindTool, "search", ""),
		mk("text-url-added", finding.KindResourceTemplate, "db://{table}", "/description"),
		mk("server-version-not-bumped", finding.KindServer, "", "/serverInfo/version"),
	}
	acked := mk("tool-added", finding.KindTool, "new", "")
	acked.Acknowledged = "fine"
	var out bytes.Buffer
	if err := WriteAcknowledgements(&out, append(fs, acked), true); err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse("c.yaml", bytes.ReplaceAll(out.Bytes(), []byte("TODO"), []byte("reviewed")))
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var got []string
	for _, f := range append(fs, acked) {
		f.Acknowledged = ""
		for _, a := range c.Acknowledged {
			if matches(&a, f) {
				got = append(got, f.Rule)
				break
			}
		}
	}
	if d := cmp.Diff([]string{"tool-removed", "text-url-added", "server-version-not-bumped"}, got); d != "" {
		t.Errorf("matched (-want +got):\n%s\n%s", d, out.String())
	}

	out.Reset()
	if err := WriteAcknowledgements(&out, nil, false); err != nil || !bytes.Contains(out.Bytes(), []byte("acknowledged: []")) {
		t.Errorf("no findings: %v\n%s", err, out.String())
	}
}
