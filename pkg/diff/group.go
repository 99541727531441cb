package diff

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
)

// GroupMin is how many tools must share one identical change before it
// is reported once for the server instead of once per tool.
const GroupMin = 3

// groupListMax bounds the tool names a grouped finding's message lists;
// Finding.Subjects lists them all.
const groupListMax = 10

// groupKey is what makes two tool findings the same change: everything
// of their identity but the tool.
type groupKey struct {
	rule, pointer, before, after, level, severity, ack string
}

// group folds an identical change repeated across GroupMin or more tools
// (a $schema dialect moved for every tool, one description edit pasted
// everywhere) into one server finding that lists the tools.
//
// Fingerprints and acknowledgements stay stable: a group's fingerprint is
// that of the same change with the server as subject, so it does not move
// when a tool joins or leaves the group; grouping runs after the policy,
// so an acknowledgement of one tool (by subject or by the per-tool
// fingerprint) still applies to it (an acknowledged member then differs
// from the rest and stays on its own), and ack marks the group when an
// acknowledgement written for the server-level finding covers it.
func group(fs []finding.Finding, ack func(*finding.Finding)) []finding.Finding {
	members := map[groupKey][]int{}
	var order []groupKey
	for i, f := range fs {
		if f.Subject.Kind != finding.KindTool || f.Severity == "" {
			continue
		}
		k := groupKey{f.Rule, f.Pointer, string(f.Before), string(f.After), string(f.Level), string(f.Severity), f.Acknowledged}
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], i)
	}
	drop := map[int]bool{}
	var grouped []finding.Finding
	for _, k := range order {
		idx := members[k]
		if len(idx) < GroupMin {
			continue
		}
		first := fs[idx[0]]
		g := first
		g.Subject = finding.Subject{Kind: finding.KindServer}
		g.Subjects = make([]finding.Subject, len(idx))
		names := make([]string, 0, min(len(idx), groupListMax))
		for j, i := range idx {
			drop[i] = true
			g.Subjects[j] = fs[i].Subject
			if j < groupListMax {
				names = append(names, fs[i].Subject.Name)
			}
		}
		more := ""
		if len(idx) > groupListMax {
			more = fmt.Sprintf(" and %d more", len(idx)-groupListMax)
		}
		g.Message = fmt.Sprintf("%s, in %d tools: %s%s", first.Message, len(idx), strings.Join(names, ", "), more)
		g.Fingerprint = finding.Fingerprint(g.Rule, g.Subject, g.Pointer, g.Before, g.After)
		if g.Acknowledged == "" && ack != nil {
			ack(&g)
		}
		grouped = append(grouped, g)
	}
	if len(grouped) == 0 {
		return fs
	}
	out := make([]finding.Finding, 0, len(fs)-len(drop)+len(grouped))
	for i, f := range fs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return append(out, grouped...)
}
