package manifest

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// Summary is one line about a capture and the snapshot built from it:
// the target, the protocol and handshake, and how many items and pages.
// It holds server text (the target): escape it before a terminal or log.
func Summary(c *capture.Capture, m *Manifest) string {
	return fmt.Sprintf("%s: protocol %s via %s; %s, %s, %s, %s (%s)",
		c.Target, c.ProtocolVersion, c.Handshake, plural(len(m.Tools), "tool"), plural(len(m.Prompts), "prompt"),
		plural(len(m.Resources), "resource"), plural(len(m.ResourceTemplates), "resource template"), plural(len(c.Pages), "page"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// RevisionPath is the file of the snapshot at protocol revision rev when
// several revisions are captured: "{version}" in path replaced by rev, or
// rev inserted before the extension (mcp-surface.json becomes
// mcp-surface.2025-06-18.json). With one revision it is path.
func RevisionPath(path, rev string, several bool) string {
	if !several {
		return path
	}
	if strings.Contains(path, "{version}") {
		return strings.ReplaceAll(path, "{version}", rev)
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + rev + ext
}
