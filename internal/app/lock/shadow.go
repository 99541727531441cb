package lock

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/diff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// shadowing adds, to every drifted or unlocked server, a finding for
// each tool description that now names a tool of another server the
// agents use (text-cross-tool-reference-added, at least a warning): a
// description that steers the model to another server's tool is how one
// server shadows another. A name counts when it looks like an identifier
// or is quoted (diff.NamesIn), so that plain words ("search") do not.
// For a drifted server only the mentions the locked text lacked count.
func shadowing(c *Checked, old *Lock) {
	surfaces := map[string]*manifest.Manifest{} // by Key
	for i := range old.Entries {
		surfaces[old.Entries[i].Key()] = old.Entries[i].Snapshot
	}
	for _, o := range c.Outcomes {
		switch o.Status {
		case StatusGone:
			delete(surfaces, o.Key())
		case StatusDrifted, StatusUnlocked:
			surfaces[o.Key()] = o.Head
		}
	}
	owners := map[string][]string{} // tool name -> the servers that have it
	for _, key := range slices.Sorted(maps.Keys(surfaces)) {
		for _, t := range surfaces[key].Tools {
			owners[t.ID] = append(owners[t.ID], key)
		}
	}
	for _, o := range c.Outcomes {
		if o.Head == nil || (o.Status != StatusDrifted && o.Status != StatusUnlocked) {
			continue
		}
		self := o.Key()
		foreign := func(n string) bool { return slices.ContainsFunc(owners[n], func(k string) bool { return k != self }) }
		var base *manifest.Manifest
		if e, ok := old.Find(o.Config, o.Name); ok && o.Status == StatusDrifted {
			base = e.Snapshot
		}
		for _, t := range o.Head.Tools {
			mentioned := diff.NamesIn(description(t), foreign)
			if base != nil {
				if bt, ok := base.Find("tools", t.ID); ok {
					before := diff.NamesIn(description(bt), foreign)
					mentioned = slices.DeleteFunc(mentioned, func(n string) bool { return slices.Contains(before, n) })
				}
			}
			for _, n := range mentioned {
				var others []string
				for _, k := range owners[n] {
					if k != self {
						others = append(others, k)
					}
				}
				after, _ := json.Marshal(n)
				f := finding.New(rules.TextCrossToolReferenceAdded, finding.Subject{Kind: finding.KindTool, Name: t.ID}, "/description",
					fmt.Sprintf("the description names %s, a tool of %s: shadowing, one server steering the model to another's tool", n, strings.Join(others, ", ")),
					nil, after)
				if f.Level.Rank() < rules.LevelWarning.Rank() {
					f.Level = rules.LevelWarning
				}
				o.Section.Findings = append(o.Section.Findings, f)
			}
		}
	}
}

// description is a tool's description, "" when it has none.
func description(it manifest.Item) string {
	v, err := manifest.ItemValue(it)
	if err != nil {
		return ""
	}
	s, _ := v["description"].(string)
	return s
}
