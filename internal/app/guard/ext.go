package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// The listings of the extensions mcp-surface captures: the entries of a
// skills/list page (by uri) and of a groups/list page (by name), and the
// text of a skill read with resources/read, are judged as the snapshot
// holds them, through the same engine.

// headExt is a copy of the locked extensions (an empty one when the lock
// has none) for a head that changes them.
func (j *judge) headExt() *manifest.Extensions {
	if x := j.entry.Snapshot.Ext; x != nil {
		c := *x
		c.Skills = slices.Clone(x.Skills)
		c.Groups = slices.Clone(x.Groups)
		return &c
	}
	return &manifest.Extensions{}
}

// putSkill replaces (by uri) or adds a skill of x, keeping them sorted.
func putSkill(x *manifest.Extensions, s manifest.Skill) {
	i, found := slices.BinarySearchFunc(x.Skills, s.URI, func(a manifest.Skill, uri string) int { return strings.Compare(a.URI, uri) })
	if found {
		x.Skills[i] = s
		return
	}
	x.Skills = slices.Insert(x.Skills, i, s)
}

// putGroup replaces (by key) or adds a group of x, keeping them sorted by
// key.
func putGroup(x *manifest.Extensions, g manifest.Group) {
	if at := slices.IndexFunc(x.Groups, func(h manifest.Group) bool { return h.Key() == g.Key() }); at >= 0 {
		x.Groups[at] = g
		return
	}
	x.Groups = append(x.Groups, g)
	slices.SortFunc(x.Groups, func(a, b manifest.Group) int { return strings.Compare(a.Key(), b.Key()) })
}

// compareExt judges the locked snapshot with its extensions replaced by x.
func (j *judge) compareExt(x *manifest.Extensions) *lock.Outcome {
	head := *j.entry.Snapshot
	head.Ext = x
	return j.compare(&head)
}

// extVerdict is o's verdict on the item of an extension kind name.
func (j *judge) extVerdict(o *lock.Outcome, kind, name string) verdict {
	return j.verdictOf(o, kind, name, func(f *finding.Finding) bool { return f.Subject.Kind == kind && f.Subject.Name == name })
}

// skills judges the entries of a skills/list page.
func (j *judge) skills(raws [][]byte) ([]verdict, error) {
	out := make([]verdict, len(raws))
	x := j.headExt()
	var changed []int
	uris := make([]string, len(raws))
	for i, raw := range raws {
		s, err := manifest.SkillEntry(raw)
		if err != nil {
			out[i] = verdict{Kind: finding.KindSkill, Status: statusNew, Risky: true, Why: err.Error(), Threat: "a skill that cannot be compared with the lock"}
			continue
		}
		uris[i] = s.URI
		locked, ok := j.entry.Snapshot.Ext.Skill(s.URI)
		if ok && bytes.Equal(locked.Frontmatter, s.Frontmatter) && bytes.Equal(locked.Resources, s.Resources) {
			out[i] = verdict{Kind: finding.KindSkill, Name: s.URI, Status: statusUnchanged}
			continue
		}
		// The listing does not carry SKILL.md: the locked text stands
		// until the skill is read.
		s.Text, s.HasText = locked.Text, locked.HasText
		putSkill(x, s)
		changed = append(changed, i)
	}
	return j.extVerdicts(out, changed, uris, x, finding.KindSkill, func(uri string) bool {
		_, ok := j.entry.Snapshot.Ext.Skill(uri)
		return ok
	}), nil
}

// skillText judges the SKILL.md text of a locked skill as a
// resources/read answered it (result members res); nil when it is the
// locked text, or the uri is no locked skill's.
func (j *judge) skillText(msg []byte, res []member, uri string) *verdict {
	locked, ok := j.entry.Snapshot.Ext.Skill(uri)
	if !ok || !locked.HasText {
		return nil
	}
	c, found := find(res, "contents")
	if !found {
		return nil
	}
	var contents []struct {
		URI  string  `json:"uri"`
		Text *string `json:"text"`
	}
	if json.Unmarshal(msg[c.Value.Start:c.Value.End], &contents) != nil {
		return nil
	}
	for _, ct := range contents {
		if ct.URI != uri || ct.Text == nil || *ct.Text == locked.Text {
			continue
		}
		x := j.headExt()
		s := locked
		s.Text = *ct.Text
		putSkill(x, s)
		v := j.extVerdict(j.compareExt(x), finding.KindSkill, uri)
		v.Status = statusChanged
		return &v
	}
	return nil
}

// groupExt is the groups extension a groups/list page is of: the one the
// lock's groups are of (the toolbox variant answers the same method).
func (j *judge) groupExt() string {
	if x := j.entry.Snapshot.Ext; x != nil {
		for _, g := range x.Groups {
			if g.Extension == capture.ExtToolbox {
				return capture.ExtToolbox
			}
		}
	}
	return capture.ExtGroups
}

// groups judges the entries of a groups/list page: each entry as the
// snapshot holds it (Group.Entry); what a group scopes is judged where
// tools/list and the other lists serve it.
func (j *judge) groups(raws [][]byte) ([]verdict, error) {
	out := make([]verdict, len(raws))
	x := j.headExt()
	ext := j.groupExt()
	var changed []int
	keys := make([]string, len(raws))
	for i, raw := range raws {
		canon, err := canonjson.Canonicalize(raw)
		if err != nil {
			return nil, fmt.Errorf("groups[%d]: %w", i, err)
		}
		var e struct {
			Name *string `json:"name"`
		}
		if json.Unmarshal(canon, &e) != nil || e.Name == nil {
			out[i] = verdict{Kind: finding.KindGroup, Status: statusNew, Risky: true,
				Why: "a group served without its name cannot be compared with the lock", Threat: "a group that cannot be compared with the lock"}
			continue
		}
		g := manifest.Group{Extension: ext, Name: *e.Name}
		keys[i] = g.Key()
		locked, ok := j.entry.Snapshot.Ext.Group(g.Key())
		if ok && bytes.Equal(locked.Entry, canon) {
			out[i] = verdict{Kind: finding.KindGroup, Name: g.Key(), Status: statusUnchanged}
			continue
		}
		if ok {
			g = locked
		}
		g.Entry = canon
		putGroup(x, g)
		changed = append(changed, i)
	}
	return j.extVerdicts(out, changed, keys, x, finding.KindGroup, func(key string) bool {
		_, ok := j.entry.Snapshot.Ext.Group(key)
		return ok
	}), nil
}

// extVerdicts judges the changed entries of an extension's page, whose
// head extensions are x, and fills their verdicts in out.
func (j *judge) extVerdicts(out []verdict, changed []int, names []string, x *manifest.Extensions, kind string, locked func(string) bool) []verdict {
	if len(changed) == 0 {
		return out
	}
	o := j.compareExt(x)
	for _, i := range changed {
		name := names[i]
		v := j.extVerdict(o, kind, name)
		v.Status = statusChanged
		if !locked(name) {
			v.Status = statusNew
		}
		out[i] = v
	}
	return out
}
