package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// accept says what turns the check green, fitted to the pull request: the
// label when breaking changes fail it, acknowledgement lines for the
// findings that fail it (never for notes that do not, nor for the stale
// snapshot, which only a refresh fixes), and the command that refreshes a
// snapshot only where one is needed: the snapshot is out of date, or the
// check failed and nothing says the pull request already refreshed it.
func (b *mdBuilder) accept(vs []sectionVerdict) *mdAccept {
	o := b.o
	a := &mdAccept{}
	multi := len(b.secs) > 1
	breaking := false
	for i, s := range b.secs {
		stale := b.stale(i) != ""
		if !vs[i].failed && !stale {
			continue
		}
		failing := countFailing(withoutStale(b.items[i]), o.FailOn) > 0
		breaking = breaking || (vs[i].breaking && failing)
		yaml := o.AckYAML[s.Server]
		if yaml == "" && failing {
			yaml = ackYAML(withoutStale(unacknowledged(b.items[i])), o.FailOn)
		}
		if yaml != "" {
			y := mdYAML{Block: CodeBlock(yaml, "yaml")}
			if multi {
				y.Heading = "Server " + Code(nonEmpty(s.Server, "(unnamed)"), MaxName) + ":"
			}
			a.YAML = append(a.YAML, y)
		}
		if !b.needsRefresh(i) {
			continue
		}
		cmd := o.SnapshotCommands[s.Server]
		switch {
		case cmd != "":
		case s.Server != "":
			cmd = "mcp-surface snapshot --server " + s.Server
		default:
			cmd = "mcp-surface snapshot -- <your server command>"
		}
		a.Snapshot = append(a.Snapshot, Code(cmd, MaxName))
	}
	if breaking && o.AcceptLabel != "" && !o.AcceptedByLabel {
		a.Label = "Add the label " + Code(o.AcceptLabel, MaxName) + " to this pull request: its breaking findings are then acknowledged."
	}
	if len(a.Snapshot) == 0 && len(a.YAML) == 0 && a.Label == "" {
		return nil
	}
	return a
}

// maxAckEntries bounds the acknowledgement lines this package writes
// itself (a caller's Options.AckYAML is used as given).
const maxAckEntries = 20

// ackYAML is the acknowledgement entries of the failing findings (with
// no fail level, none: nothing fails). Values are JSON strings, which YAML reads
// as double-quoted scalars.
func ackYAML(items []Item, failOn rules.Level) string {
	if failOn == "" {
		return ""
	}
	q := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var sb strings.Builder
	n, more := 0, 0
	for _, it := range items {
		if it.Level.Rank() < failOn.Rank() {
			continue
		}
		if n == maxAckEntries {
			more++
			continue
		}
		if n == 0 {
			sb.WriteString("acknowledged:\n")
		}
		n++
		sb.WriteString("  - rule: " + q(it.Rule) + "\n")
		if key, ok := ackKey[it.Subject.Kind]; ok {
			sb.WriteString("    " + key + ": " + q(it.Subject.Name) + "\n")
		}
		sb.WriteString("    fingerprint: " + q(it.Fingerprint) + "\n")
		sb.WriteString(`    reason: "why this change is safe for our clients"` + "\n")
	}
	if more > 0 {
		fmt.Fprintf(&sb, "# %d more: mcp-surface diff --format ignore-yaml prints every entry\n", more)
	}
	return sb.String()
}

// ackKey is the acknowledgement key of a subject kind in .mcp-surface.yaml.
var ackKey = map[string]string{
	finding.KindTool: "tool", finding.KindPrompt: "prompt", finding.KindResource: "resource",
	finding.KindResourceTemplate: "template", finding.KindSkill: "skill", finding.KindGroup: "group",
}
