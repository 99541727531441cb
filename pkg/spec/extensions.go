package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// The extensions have no published JSON Schema (neither the Skills
// extension's specification nor the draft groups SEP ships one, and the
// mcp-toolbox variant publishes TypeScript only): their entries are checked
// against the structural rules the documents state, each a rule whose help
// cites its section.

var (
	skillDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	groupName   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// Limits per skill of the Skills extension ("Limits").
const (
	maxSkillResources = 512
	maxSkillBytes     = 16 << 20
)

// extensionsOfCapture checks the extensions a capture read, through the
// snapshot it makes (a capture that does not make one is checked no
// further here: Build's error is reported where the snapshot is made).
func (k *checker) extensionsOfCapture(c *capture.Capture) {
	if c.Extensions == nil {
		return
	}
	m, err := manifest.Build(c)
	if err != nil {
		return
	}
	k.extensions(m)
}

// extensions checks a snapshot's skills and groups.
func (k *checker) extensions(m *manifest.Manifest) {
	x := m.Ext
	if x == nil {
		return
	}
	for _, id := range x.Uncaptured {
		k.add(rules.ExtensionUncaptured, server, jsonptr.New("capabilities", "extensions", id).String(),
			fmt.Sprintf("the server declares the extension %q, which mcp-surface does not read: it is recorded as declared (its settings are compared), what it serves is not captured", id))
	}
	for _, s := range x.Skills {
		k.skill(s)
	}
	for _, g := range x.Groups {
		k.groupEntry(g)
	}
	if slices.Contains(x.View, capture.ExtGroups) {
		k.placement(m)
	}
	if x.Flat != nil {
		k.flatView(m)
	}
}

func skillSubj(uri string) finding.Subject {
	return finding.Subject{Kind: finding.KindSkill, Name: uri}
}

type skillResource struct {
	URI    *string          `json:"uri"`
	Digest *string          `json:"digest"`
	Size   *json.RawMessage `json:"size"`
}

func (k *checker) skill(s manifest.Skill) {
	subj := skillSubj(s.URI)
	bad := func(ptr, format string, a ...any) {
		k.add(rules.SkillEntryInvalid, subj, ptr, fmt.Sprintf(format, a...))
	}
	var fm map[string]json.RawMessage
	if json.Unmarshal(s.Frontmatter, &fm) != nil || fm == nil {
		bad("/frontmatter", "the skill entry has no frontmatter object (it needs at least name and description)")
	} else {
		for _, key := range []string{"name", "description"} {
			var v string
			if json.Unmarshal(fm[key], &v) != nil || v == "" {
				bad(jsonptr.New("frontmatter", key).String(), "frontmatter.%s is missing or not a non-empty string", key)
			}
		}
	}
	dir, ok := strings.CutSuffix(s.URI, "/SKILL.md")
	switch {
	case !ok:
		bad("/uri", "the uri %q is not the URI of a SKILL.md", s.URI)
	case s.Name != "" && dir[strings.LastIndex(dir, "/")+1:] != s.Name:
		bad("/uri", "the last segment of the skill path in %q is not the skill's name %q", s.URI, s.Name)
	}
	if string(s.Resources) == `"dynamic"` {
		k.add(rules.SkillResourcesDynamic, subj, "/resources", fmt.Sprintf("skill %q lists its files as \"dynamic\": no digests, so no integrity and no change detection", s.Name))
		return
	}
	var rs []skillResource
	if len(s.Resources) == 0 || json.Unmarshal(s.Resources, &rs) != nil {
		bad("/resources", "resources is missing, or neither an array nor \"dynamic\"")
		return
	}
	var total int64
	own := false
	for i, r := range rs {
		p := jsonptr.New("resources").Append(fmt.Sprint(i))
		if r.URI == nil {
			bad(p.Append("uri").String(), "a file of the manifest has no uri")
			continue
		}
		if *r.URI == s.URI {
			own = true
		}
		if ok && !strings.HasPrefix(*r.URI, dir+"/") {
			bad(p.Append("uri").String(), "the file %q is not in the skill's directory %q", *r.URI, dir)
		}
		if r.Digest == nil || !skillDigest.MatchString(*r.Digest) {
			bad(p.Append("digest").String(), "the digest of %q is not sha256: followed by 64 lowercase hexadecimal characters", *r.URI)
		}
		var size int64
		if r.Size == nil || json.Unmarshal(*r.Size, &size) != nil || size < 0 {
			bad(p.Append("size").String(), "the size of %q is not a number of bytes", *r.URI)
		}
		total += size
		if *r.URI == s.URI && s.HasText && r.Digest != nil && size >= 0 {
			sum := sha256.Sum256([]byte(s.Text))
			if got := "sha256:" + hex.EncodeToString(sum[:]); got != *r.Digest || int64(len(s.Text)) != size {
				k.add(rules.SkillDigestMismatch, subj, p.String(),
					fmt.Sprintf("SKILL.md as read is %d bytes with digest %s; the entry lists %d bytes with %q", len(s.Text), got, size, *r.Digest))
			}
		}
	}
	if !own {
		bad("/resources", "the manifest does not list the skill's own SKILL.md (%q)", s.URI)
	}
	if len(rs) > maxSkillResources || total > maxSkillBytes {
		k.add(rules.SkillLimitsExceeded, subj, "/resources",
			fmt.Sprintf("skill %q has %d files and %d bytes (hosts need accept only %d files and %d bytes)", s.Name, len(rs), total, maxSkillResources, maxSkillBytes))
	}
}

func groupSubj(key string) finding.Subject {
	return finding.Subject{Kind: finding.KindGroup, Name: key}
}

// groupEntry checks a group of io.modelcontextprotocol/groups (the
// toolbox variant states no such rules).
func (k *checker) groupEntry(g manifest.Group) {
	if g.Extension != capture.ExtGroups {
		return
	}
	subj := groupSubj(g.Key())
	if len(g.Name) > 64 || !groupName.MatchString(g.Name) {
		k.add(rules.GroupEntryInvalid, subj, "/group/name", fmt.Sprintf("the group name %q is not 1 to 64 lowercase letters, digits and single hyphens", g.Name))
	}
	var e map[string]json.RawMessage
	_ = json.Unmarshal(g.Entry, &e)
	var d string
	if e != nil && json.Unmarshal(e["description"], &d) != nil {
		k.add(rules.GroupEntryInvalid, subj, "/group/description", fmt.Sprintf("group %q has no description (required: the model chooses between groups by it)", g.Name))
	}
	if len(g.Instructions) == 0 && len(g.Tools)+len(g.Prompts)+len(g.Resources)+len(g.Children) == 0 {
		k.add(rules.GroupEntryInvalid, subj, "", fmt.Sprintf("groups/get of %q carried neither instructions nor contents", g.Name))
	}
}

// placement checks that no primitive is both top-level and scoped in the
// view the capture held (it declared groups).
func (k *checker) placement(m *manifest.Manifest) {
	for _, list := range manifest.ScopedLists {
		kind, _ := manifest.KindOfList(list)
		for _, g := range m.Ext.Groups {
			if g.Extension != capture.ExtGroups {
				continue
			}
			for _, it := range g.Scoped(list) {
				if _, top := m.Find(list, it.ID); top {
					k.add(rules.GroupItemAlsoListed, finding.Subject{Kind: kind.Subject, Name: it.ID}, "",
						fmt.Sprintf("%s %q is scoped to group %q and also listed by %s, for a client that declared groups", kind.Noun, it.ID, g.Name, kind.Method))
				}
			}
		}
	}
}

// flatView compares the view without groups with the groups view.
func (k *checker) flatView(m *manifest.Manifest) {
	for _, list := range manifest.ScopedLists {
		kind, _ := manifest.KindOfList(list)
		flat := m.Ext.Flat[list]
		scoped := map[string]string{}
		for _, g := range m.Ext.Groups {
			if g.Extension != capture.ExtGroups {
				continue
			}
			for _, it := range g.Scoped(list) {
				if _, ok := scoped[it.ID]; !ok {
					scoped[it.ID] = g.Name
				}
			}
		}
		for _, id := range slices.Sorted(maps.Keys(scoped)) {
			if !slices.Contains(flat, id) {
				k.add(rules.GroupFlatViewDiffers, finding.Subject{Kind: kind.Subject, Name: id}, "",
					fmt.Sprintf("%s %q, scoped to group %q, is not in %s for a client that did not declare groups: hidden from it rather than flattened", kind.Noun, id, scoped[id], kind.Method))
			}
		}
		for _, id := range flat {
			if _, top := m.Find(list, id); !top && scoped[id] == "" {
				k.add(rules.GroupFlatViewDiffers, finding.Subject{Kind: kind.Subject, Name: id}, "",
					fmt.Sprintf("%s %q is listed by %s only for a client that did not declare groups: it is in no group and not at the top level of the groups view", kind.Noun, id, kind.Method))
			}
		}
	}
}
