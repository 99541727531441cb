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
	"github.com/mcp-surface/mcp-surface/pkg/report"
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
		case StatusDrifted, StatusUnlocked, StatusReconfigured:
			if o.Head != nil {
				surfaces[o.Key()] = o.Head
			}
		}
	}
	owners := map[string][]string{} // tool name -> the servers that have it
	for _, key := range slices.Sorted(maps.Keys(surfaces)) {
		for _, t := range surfaces[key].Tools {
			owners[t.ID] = append(owners[t.ID], key)
		}
	}
	for _, o := range c.Outcomes {
		if o.Head == nil || (o.Status != StatusDrifted && o.Status != StatusUnlocked && o.Status != StatusReconfigured) {
			continue
		}
		self := o.Key()
		var base *manifest.Manifest
		if e, ok := old.Find(o.Config, o.Name); ok && o.Status != StatusUnlocked {
			base = e.Snapshot
		}
		for _, t := range o.Head.Tools {
			// A description that names its own tool steers nowhere,
			// whoever else has a tool of that name.
			foreign := func(n string) bool {
				return n != t.ID && slices.ContainsFunc(owners[n], func(k string) bool { return k != self })
			}
			mentioned := diff.NamesIn(description(t), foreign)
			if base != nil {
				if bt, ok := base.Find("tools", t.ID); ok {
					before := diff.NamesIn(description(bt), foreign)
					mentioned = slices.DeleteFunc(mentioned, func(n string) bool { return slices.Contains(before, n) })
				}
			}
			if len(mentioned) == 0 {
				continue
			}
			var named []string
			for _, n := range mentioned {
				var others []string
				for _, k := range owners[n] {
					if k != self {
						others = append(others, k)
					}
				}
				named = append(named, n+", a tool of "+strings.Join(others, ", "))
			}
			after, _ := json.Marshal(mentioned)
			f := finding.New(rules.TextCrossToolReferenceAdded, finding.Subject{Kind: finding.KindTool, Name: t.ID}, "/description",
				fmt.Sprintf("the description names %s: shadowing, one server steering the model to another's tool", strings.Join(named, "; ")),
				nil, after)
			if f.Level.Rank() < rules.LevelWarning.Rank() {
				f.Level = rules.LevelWarning
			}
			addOnce(&o.Section, f)
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

// addOnce adds a shadowing finding, or, when the comparison already
// reported a reference to another tool at the same place (within the
// server), makes that one the shadowing finding: one finding, at the
// higher level, naming the other server.
func addOnce(sec *report.Section, f finding.Finding) {
	for i := range sec.Findings {
		c := &sec.Findings[i]
		if c.Rule == f.Rule && c.Subject == f.Subject && c.Pointer == f.Pointer {
			c.Message = f.Message
			if f.Level.Rank() > c.Level.Rank() {
				c.Level = f.Level
			}
			return
		}
	}
	sec.Findings = append(sec.Findings, f)
}
