package cost

import (
	"encoding/json"

	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// extensionTexts are the texts the model reads of a snapshot's skills and
// groups: each skill's frontmatter as compact JSON, each group's entry
// (as listed) and its instructions as their text.
func extensionTexts(m *manifest.Manifest) (skills, groups []string) {
	if m == nil || m.Ext == nil {
		return nil, nil
	}
	for _, s := range m.Ext.Skills {
		if len(s.Frontmatter) > 0 {
			skills = append(skills, string(s.Frontmatter))
		}
	}
	for _, g := range m.Ext.Groups {
		if len(g.Entry) > 0 {
			groups = append(groups, string(g.Entry))
		}
		var ins string
		if json.Unmarshal(g.Instructions, &ins) == nil && ins != "" {
			groups = append(groups, ins)
		}
	}
	return skills, groups
}

// extensions adds the skills' and groups' tokens to t.
func (c *Counter) extensions(t *Table, m *manifest.Manifest) error {
	skills, groups := extensionTexts(m)
	for _, x := range []struct {
		texts []string
		dst   *int
	}{{skills, &t.Skills}, {groups, &t.Groups}} {
		if len(x.texts) == 0 {
			continue
		}
		counts, err := c.countAll(x.texts)
		if err != nil {
			return err
		}
		for _, n := range counts {
			*x.dst += n
		}
		t.Total += *x.dst
	}
	return nil
}
