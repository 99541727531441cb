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
// A list that failed is said so, never counted as empty.
func Summary(c *capture.Capture, m *Manifest) string {
	count := func(list string, n int, noun string) string {
		if method, _, failed := m.FailedList(list); failed {
			return noun + "s unknown (" + method + " failed)"
		}
		return plural(n, noun)
	}
	s := fmt.Sprintf("%s: protocol %s via %s; %s, %s, %s, %s (%s)",
		c.Target, c.ProtocolVersion, c.Handshake, count(ListTools, len(m.Tools), "tool"), count(ListPrompts, len(m.Prompts), "prompt"),
		count(ListResources, len(m.Resources), "resource"), count(ListResourceTemplates, len(m.ResourceTemplates), "resource template"), plural(len(c.Pages), "page"))
	s += m.Ext.summary()
	if m.Incomplete() {
		s += "; PARTIAL snapshot"
	}
	return s
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
