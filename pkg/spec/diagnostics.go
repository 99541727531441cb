package spec

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// diagnostics turns what the capture noticed into findings. Repeated
// observations of one kind (every noisy stdout line) become one finding.
func (k *checker) diagnostics(c *capture.Capture) {
	var noise []capture.Diagnostic
	seen := map[string]bool{}
	for _, d := range c.Diagnostics {
		switch d.Code {
		case capture.DiagStdoutNoise:
			noise = append(noise, d)
		case capture.DiagSDKRejected:
			ptr := sectionPointer(d.Method)
			if seen[d.Code+ptr] {
				continue
			}
			seen[d.Code+ptr] = true
			what := "a result"
			if d.Method != "" {
				what = "the " + d.Method + " result"
			}
			k.add(rules.SdkRejectedResult, server, ptr, fmt.Sprintf("the Go SDK's client rejected %s%s: %s", what, frameNote(d.Frame), oneLine(firstNonEmpty(d.Detail, d.Message))))
		case capture.DiagListError:
			ptr := sectionPointer(d.Method)
			if seen[d.Code+ptr] {
				continue
			}
			seen[d.Code+ptr] = true
			if d.RPCCode == capture.CodeMethodNotFound {
				k.add(rules.CapabilityMethodNotFound, server, ptr, fmt.Sprintf("the capability is advertised, but %s answered -32601 Method not found: it was never implemented", firstNonEmpty(d.Method, "a list")))
				continue
			}
			k.add(rules.ListRequestFailed, server, ptr, fmt.Sprintf("%s answered with an error although the server advertises the capability: %s", firstNonEmpty(d.Method, "a list"), oneLine(firstNonEmpty(d.Detail, d.Message))))
		case capture.DiagSubscribeError:
			// Only "not found" proves the claim false: a real subscribe
			// may refuse the one resource the capture tried.
			if d.RPCCode != capture.CodeMethodNotFound || seen[d.Code] {
				continue
			}
			seen[d.Code] = true
			k.add(rules.CapabilityMethodNotFound, server, "/capabilities/resources/subscribe", "resources.subscribe is advertised, but resources/subscribe answered -32601 Method not found: it was never implemented")
		case capture.DiagHandshakeFallback:
			if seen[d.Code] {
				continue
			}
			seen[d.Code] = true
			msg := fmt.Sprintf("server/discover failed (%s); the session fell back to initialize and settled on %s", oneLine(d.Detail), c.ProtocolVersion)
			if strings.TrimSpace(d.Detail) == "" {
				msg = fmt.Sprintf("%s; the session settled on %s", oneLine(d.Message), c.ProtocolVersion)
			}
			k.add(rules.HandshakeFallback, server, "/protocolVersion", msg)
		}
	}
	if len(noise) > 0 {
		msg := fmt.Sprintf("the server wrote %d line(s) to stdout that are not JSON-RPC messages, first: %q", len(noise), oneLine(firstNonEmpty(noise[0].Detail, noise[0].Message)))
		k.add(rules.StdoutNotJsonrpc, server, "", msg)
	}
}

// sectionPointer points at the snapshot itemList a list method fills.
func sectionPointer(method string) string {
	if s := sectionOf(method); s != nil {
		return jsonptr.New(s.key).String()
	}
	if method == "" {
		return ""
	}
	return jsonptr.New(method).String()
}

func frameNote(seq int) string {
	if seq <= 0 {
		return ""
	}
	return fmt.Sprintf(" (frame %d)", seq)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// oneLine bounds untrusted text for a one-line message.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:157]) + "..."
	}
	return s
}
