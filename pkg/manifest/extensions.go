package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// Extensions is what a snapshot holds of the extensions a server
// declares (capabilities.extensions): the skills and groups it serves,
// the extensions it declares that were not read, and which view the
// capture held. It is inside the manifest hash: it is surface.
type Extensions struct {
	// View are the extensions the capturing client declared (sorted): a
	// server that scopes tools to groups lists them in tools/list only for
	// a client that did not declare groups, so the lists depend on it.
	View []string
	// Uncaptured are declared extensions mcp-surface does not read (sorted).
	Uncaptured []string
	// Skills, sorted by URI (the Skills extension identifies a skill by
	// its uri within a server; names may repeat: "Names").
	Skills []Skill
	// Groups, sorted by Key.
	Groups []Group
	// Flat, when captured, is the view of a client that declares no
	// extension: the identities each list holds there.
	Flat map[string][]string
	// Partial maps each extension method that failed to its failure:
	// what it serves is unknown, not empty.
	Partial map[string]ListFailure
}

// Skill is one skills/list entry and its SKILL.md text.
type Skill struct {
	URI string
	// Name is frontmatter.name.
	Name string
	// Frontmatter and Resources are canonical JSON as served (Resources
	// an array of {uri, digest, size} or the string "dynamic").
	Frontmatter json.RawMessage
	Resources   json.RawMessage
	// Text is the SKILL.md text read with resources/read; HasText is
	// false when it was not read (a listing failed, a blob answer).
	Text    string
	HasText bool
}

// Group is one group and what it scopes.
type Group struct {
	// Extension is capture.ExtGroups or capture.ExtToolbox.
	Extension string
	Name      string
	// Parents are the groups whose contents.groups list it, sorted; none
	// for a group of groups/list.
	Parents []string
	// Entry is the Group object as listed (canonical), nil when none was.
	Entry json.RawMessage
	// Instructions is the raw instructions value, nil when absent.
	Instructions json.RawMessage
	// Scoped items, each sorted by ID, keyed by list (ListTools, ...).
	Tools, Prompts, Resources []Item
	// Children are the names of contents.groups, sorted.
	Children []string
}

// Key identifies a group: its name, prefixed by its extension for the
// vendor variant.
func (g Group) Key() string { return groupKey(g.Extension, g.Name) }

// groupKey is Group.Key of a group of an extension.
func groupKey(ext, name string) string {
	if ext == capture.ExtToolbox {
		return ext + ":" + name
	}
	return name
}

// Scoped returns the group's items of a list.
func (g Group) Scoped(list string) []Item {
	if p := ofList(list, &g.Tools, &g.Prompts, &g.Resources, nil); p != nil {
		return *p
	}
	return nil
}

// ScopedLists are the lists a group can scope.
var ScopedLists = []string{ListPrompts, ListResources, ListTools}

// DeclaredExtensions returns the server's capabilities.extensions
// (canonical settings by id).
func (m *Manifest) DeclaredExtensions() map[string]json.RawMessage {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(m.Capabilities, &caps)
	return caps.Extensions
}

// Skill returns the skill of a URI.
func (x *Extensions) Skill(uri string) (Skill, bool) {
	if x == nil {
		return Skill{}, false
	}
	i, ok := slices.BinarySearchFunc(x.Skills, uri, func(s Skill, u string) int { return strings.Compare(s.URI, u) })
	if !ok {
		return Skill{}, false
	}
	return x.Skills[i], true
}

// Group returns the group of a key.
func (x *Extensions) Group(key string) (Group, bool) {
	if x == nil {
		return Group{}, false
	}
	for _, g := range x.Groups {
		if g.Key() == key {
			return g, true
		}
	}
	return Group{}, false
}

// buildExtensions reduces what a capture read of the extensions. It is
// nil when the server declares none and no flat view was captured, so
// that the snapshots of servers without extensions do not change.
func buildExtensions(c *capture.Capture, declared map[string]json.RawMessage) (*Extensions, error) {
	xc := c.Extensions
	if xc == nil || (len(declared) == 0 && xc.Flat == nil) {
		return nil, nil
	}
	x := &Extensions{View: slices.Clone(xc.ClientDeclared), Uncaptured: slices.Clone(xc.Uncaptured)}
	for _, f := range c.ListFailures() {
		if _, std := KindOfMethod(f.Method); std {
			continue
		}
		if x.Partial == nil {
			x.Partial = map[string]ListFailure{}
		}
		if _, dup := x.Partial[f.Method]; !dup {
			x.Partial[f.Method] = ListFailure{Page: f.Page, Code: f.Code, Message: f.Message}
		}
	}
	if _, failed := x.Partial[capture.MethodSkillsList]; !failed {
		texts := map[string]string{}
		for _, st := range xc.SkillTexts {
			var r struct {
				Contents []struct {
					Text *string `json:"text"`
				} `json:"contents"`
			}
			if json.Unmarshal(st.Result, &r) == nil && len(r.Contents) > 0 && r.Contents[0].Text != nil {
				texts[st.URI] = *r.Contents[0].Text
			}
		}
		for _, p := range c.PagesOf(capture.MethodSkillsList) {
			var r struct {
				Skills []json.RawMessage `json:"skills"`
			}
			if err := json.Unmarshal(p.Result, &r); err != nil {
				return nil, fmt.Errorf("%s page %d: %w", capture.MethodSkillsList, p.Index+1, err)
			}
			for _, raw := range r.Skills {
				s, err := skillOf(raw)
				if err != nil {
					return nil, fmt.Errorf("%s page %d: %w", capture.MethodSkillsList, p.Index+1, err)
				}
				s.Text, s.HasText = texts[s.URI]
				x.Skills = append(x.Skills, s)
			}
		}
	}
	_, getFailed := x.Partial[capture.MethodGroupsGet]
	for _, ext := range []string{capture.ExtGroups, capture.ExtToolbox} {
		if _, failed := x.Partial[capture.GroupsListMethod(ext)]; failed || getFailed {
			continue
		}
		groups, err := groupsOf(c, ext)
		if err != nil {
			return nil, err
		}
		x.Groups = append(x.Groups, groups...)
	}
	if xc.Flat != nil {
		x.Flat = map[string][]string{}
		for _, p := range xc.Flat {
			k, ok := KindOfMethod(p.Method)
			if !ok {
				continue
			}
			items, err := splitItems(p.Result, k.List)
			if err != nil {
				return nil, fmt.Errorf("the view without extensions, %s page %d: %w", p.Method, p.Index+1, err)
			}
			for _, it := range items {
				var id map[string]json.RawMessage
				_ = json.Unmarshal(it, &id)
				var s string
				if json.Unmarshal(id[k.Identity], &s) == nil {
					x.Flat[k.List] = append(x.Flat[k.List], s)
				}
			}
		}
		for k := range x.Flat {
			slices.Sort(x.Flat[k])
		}
	}
	return x, x.normalize()
}

// skillOf reads one Skill entry.
func skillOf(raw json.RawMessage) (Skill, error) {
	var e struct {
		URI         *string         `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return Skill{}, fmt.Errorf("a skill entry is not an object: %w", err)
	}
	if e.URI == nil || *e.URI == "" {
		return Skill{}, fmt.Errorf("a skill entry has no uri (each skill needs the uri of its SKILL.md; fix the server's list)")
	}
	s := Skill{URI: *e.URI}
	var err error
	if len(e.Frontmatter) > 0 {
		if s.Frontmatter, err = Canonicalize(e.Frontmatter); err != nil {
			return Skill{}, fmt.Errorf("skill %q frontmatter: %w", s.URI, err)
		}
		var fm struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(e.Frontmatter, &fm)
		s.Name = fm.Name
	}
	if len(e.Resources) > 0 {
		if s.Resources, err = Canonicalize(e.Resources); err != nil {
			return Skill{}, fmt.Errorf("skill %q resources: %w", s.URI, err)
		}
	}
	return s, nil
}

// groupsOf reads the groups of one variant from its groups/list pages and
// groups/get answers.
func groupsOf(c *capture.Capture, ext string) ([]Group, error) {
	entries := map[string]json.RawMessage{}
	for _, p := range c.PagesOf(capture.GroupsListMethod(ext)) {
		var r struct {
			Groups []json.RawMessage `json:"groups"`
		}
		if err := json.Unmarshal(p.Result, &r); err != nil {
			return nil, fmt.Errorf("groups/list page %d: %w", p.Index+1, err)
		}
		for _, g := range r.Groups {
			var n struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(g, &n)
			entries[n.Name] = g
		}
	}
	parents := map[string][]string{}
	var out []Group
	for _, gg := range c.Extensions.Groups {
		if gg.Extension != ext {
			continue
		}
		var r struct {
			Instructions json.RawMessage `json:"instructions"`
			Contents     struct {
				Tools     []json.RawMessage `json:"tools"`
				Prompts   []json.RawMessage `json:"prompts"`
				Resources []json.RawMessage `json:"resources"`
				Groups    []json.RawMessage `json:"groups"`
			} `json:"contents"`
			// The toolbox variant's shape.
			Tools   []json.RawMessage `json:"tools"`
			Prompts []json.RawMessage `json:"prompts"`
		}
		if err := json.Unmarshal(gg.Result, &r); err != nil {
			return nil, fmt.Errorf("groups/get of %q: %w", gg.Name, err)
		}
		g := Group{Extension: ext, Name: gg.Name}
		raw := map[string][]json.RawMessage{
			ListTools: append(r.Contents.Tools, r.Tools...), ListPrompts: append(r.Contents.Prompts, r.Prompts...),
			ListResources: r.Contents.Resources,
		}
		if err := g.setScoped(raw); err != nil {
			return nil, fmt.Errorf("groups/get of %q: %w", gg.Name, err)
		}
		var err error
		if len(r.Instructions) > 0 && string(r.Instructions) != "null" {
			if g.Instructions, err = Canonicalize(r.Instructions); err != nil {
				return nil, fmt.Errorf("groups/get of %q instructions: %w", gg.Name, err)
			}
		}
		for _, ch := range r.Contents.Groups {
			var n struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(ch, &n)
			g.Children = append(g.Children, n.Name)
			parents[n.Name] = append(parents[n.Name], gg.Name)
			if _, ok := entries[n.Name]; !ok {
				entries[n.Name] = ch
			}
		}
		out = append(out, g)
	}
	for i := range out {
		out[i].Parents = parents[out[i].Name]
		if e, ok := entries[out[i].Name]; ok {
			c, err := Canonicalize(e)
			if err != nil {
				return nil, fmt.Errorf("group %q: %w", out[i].Name, err)
			}
			out[i].Entry = c
		}
	}
	return out, nil
}

// normalize sorts everything and refuses repeated identities.
func (x *Extensions) normalize() error {
	slices.Sort(x.View)
	slices.Sort(x.Uncaptured)
	slices.SortFunc(x.Skills, func(a, b Skill) int { return strings.Compare(a.URI, b.URI) })
	for i := 1; i < len(x.Skills); i++ {
		if x.Skills[i].URI == x.Skills[i-1].URI {
			return fmt.Errorf("skills: uri listed more than once: %q (each skill's uri must be unique; fix the server's list)", x.Skills[i].URI)
		}
	}
	slices.SortFunc(x.Groups, func(a, b Group) int { return strings.Compare(a.Key(), b.Key()) })
	for i := range x.Groups {
		g := &x.Groups[i]
		slices.Sort(g.Parents)
		g.Parents = slices.Compact(g.Parents)
		slices.Sort(g.Children)
		g.Children = slices.Compact(g.Children)
		if i > 0 && g.Key() == x.Groups[i-1].Key() {
			return fmt.Errorf("groups: name listed more than once: %q (each group's name must be unique; fix the server's list)", g.Name)
		}
	}
	return nil
}

// The file form of Extensions, under the snapshot's "extensions" key.
type extFile struct {
	View       []string               `json:"view"`
	Uncaptured []string               `json:"uncaptured,omitempty"`
	Skills     []skillFile            `json:"skills,omitempty"`
	Groups     []groupFile            `json:"groups,omitempty"`
	Flat       map[string][]string    `json:"flat,omitempty"`
	Partial    map[string]ListFailure `json:"partial,omitempty"`
}

type skillFile struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	Resources   json.RawMessage `json:"resources,omitempty"`
	// SkillMD is the SKILL.md text, absent when it was not read.
	SkillMD *string `json:"skillMd,omitempty"`
}

type groupFile struct {
	Extension    string            `json:"extension"`
	Name         string            `json:"name"`
	Parents      []string          `json:"parents,omitempty"`
	Group        json.RawMessage   `json:"group,omitempty"`
	Instructions json.RawMessage   `json:"instructions,omitempty"`
	Tools        []json.RawMessage `json:"tools,omitempty"`
	Prompts      []json.RawMessage `json:"prompts,omitempty"`
	Resources    []json.RawMessage `json:"resources,omitempty"`
	Groups       []string          `json:"groups,omitempty"`
}

func raws(items []Item) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = it.Raw
	}
	return out
}

// canonical renders the extensions member.
func (x *Extensions) canonical() (json.RawMessage, error) {
	f := extFile{View: x.View, Uncaptured: x.Uncaptured, Flat: x.Flat, Partial: x.Partial}
	if f.View == nil {
		f.View = []string{}
	}
	for _, s := range x.Skills {
		sf := skillFile{URI: s.URI, Frontmatter: s.Frontmatter, Resources: s.Resources}
		if s.HasText {
			t := s.Text
			sf.SkillMD = &t
		}
		f.Skills = append(f.Skills, sf)
	}
	for _, g := range x.Groups {
		f.Groups = append(f.Groups, groupFile{Extension: g.Extension, Name: g.Name, Parents: g.Parents, Group: g.Entry,
			Instructions: g.Instructions, Tools: raws(g.Tools), Prompts: raws(g.Prompts), Resources: raws(g.Resources), Groups: g.Children})
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return Canonicalize(b)
}

// readExtensions reads the extensions member of a snapshot file.
func readExtensions(data json.RawMessage) (*Extensions, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var f extFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("snapshot extensions: %w", err)
	}
	x := &Extensions{View: f.View, Uncaptured: f.Uncaptured, Flat: f.Flat, Partial: f.Partial}
	for _, sf := range f.Skills {
		s := Skill{URI: sf.URI}
		raw, _ := json.Marshal(map[string]json.RawMessage{"uri": mustString(sf.URI), "frontmatter": sf.Frontmatter, "resources": sf.Resources})
		parsed, err := skillOf(raw)
		if err != nil {
			return nil, fmt.Errorf("snapshot extensions: %w", err)
		}
		s = parsed
		if sf.SkillMD != nil {
			s.Text, s.HasText = *sf.SkillMD, true
		}
		x.Skills = append(x.Skills, s)
	}
	for _, gf := range f.Groups {
		if gf.Name == "" && gf.Extension != capture.ExtToolbox {
			return nil, fmt.Errorf("snapshot extensions: a group without a name")
		}
		g := Group{Extension: gf.Extension, Name: gf.Name, Parents: gf.Parents, Children: gf.Groups}
		var err error
		if len(gf.Group) > 0 {
			if g.Entry, err = Canonicalize(gf.Group); err != nil {
				return nil, fmt.Errorf("snapshot extensions: group %q: %w", gf.Name, err)
			}
		}
		if len(gf.Instructions) > 0 {
			if g.Instructions, err = Canonicalize(gf.Instructions); err != nil {
				return nil, fmt.Errorf("snapshot extensions: group %q: %w", gf.Name, err)
			}
		}
		if err := g.setScoped(map[string][]json.RawMessage{ListTools: gf.Tools, ListPrompts: gf.Prompts, ListResources: gf.Resources}); err != nil {
			return nil, fmt.Errorf("snapshot extensions: group %q: %w", gf.Name, err)
		}
		x.Groups = append(x.Groups, g)
	}
	return x, x.normalize()
}

// setScoped builds the group's scoped items from their raw lists, in the
// order of ScopedLists (so that the first error is always the same one).
func (g *Group) setScoped(raw map[string][]json.RawMessage) error {
	for _, list := range ScopedLists {
		items, _, _, err := buildItems(list, raw[list], false, nil)
		if err != nil {
			return err
		}
		*ofList(list, &g.Tools, &g.Prompts, &g.Resources, nil) = items
	}
	return nil
}

func mustString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// extPrints are the fingerprints of skills (by URI) and groups (by key):
// full is the whole entry, contract what a client relies on (a skill's
// uri, name, allowed-tools and file digests; a group's name, children
// and scoped identities with their contracts), prose what the model
// reads (descriptions, SKILL.md, instructions).
func (x *Extensions) extPrints() (skills, groups map[string]Prints, err error) {
	if x == nil {
		return nil, nil, nil
	}
	skills, groups = map[string]Prints{}, map[string]Prints{}
	for _, s := range x.Skills {
		var fm map[string]any
		_ = json.Unmarshal(s.Frontmatter, &fm)
		full, err := CanonicalizeValue(map[string]any{"uri": s.URI, "frontmatter": fm, "resources": json.RawMessage(orNull(s.Resources)), "skillMd": s.Text})
		if err != nil {
			return nil, nil, err
		}
		contract, err := CanonicalizeValue(map[string]any{"uri": s.URI, "name": s.Name, "allowed-tools": fm["allowed-tools"], "resources": json.RawMessage(orNull(s.Resources))})
		if err != nil {
			return nil, nil, err
		}
		prose, err := CanonicalizeValue(map[string]any{"description": fm["description"], "skillMd": s.Text})
		if err != nil {
			return nil, nil, err
		}
		skills[s.URI] = Prints{Full: hash(full), Contract: hash(contract), Prose: hash(prose)}
	}
	for _, g := range x.Groups {
		gf := groupFile{Extension: g.Extension, Name: g.Name, Parents: g.Parents, Group: g.Entry, Instructions: g.Instructions,
			Tools: raws(g.Tools), Prompts: raws(g.Prompts), Resources: raws(g.Resources), Groups: g.Children}
		b, err := json.Marshal(gf)
		if err != nil {
			return nil, nil, err
		}
		full, err := Canonicalize(b)
		if err != nil {
			return nil, nil, err
		}
		scoped := map[string]any{}
		for _, list := range ScopedLists {
			ids := map[string]any{}
			for _, it := range g.Scoped(list) {
				v, err := ItemValue(it)
				if err != nil {
					return nil, nil, err
				}
				ids[it.ID] = contractOf(list, v)
			}
			scoped[list] = ids
		}
		contract, err := CanonicalizeValue(map[string]any{"name": g.Name, "extension": g.Extension, "groups": stringsAny(g.Children), "scoped": scoped})
		if err != nil {
			return nil, nil, err
		}
		var entry map[string]any
		_ = json.Unmarshal(g.Entry, &entry)
		prose, err := CanonicalizeValue(map[string]any{"description": entry["description"], "title": entry["title"], "instructions": json.RawMessage(orNull(g.Instructions))})
		if err != nil {
			return nil, nil, err
		}
		groups[g.Key()] = Prints{Full: hash(full), Contract: hash(contract), Prose: hash(prose)}
	}
	return skills, groups, nil
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// summary is what Summary says of the extensions: "; 2 skills, 3 groups
// (9 scoped items)", the extensions not captured, and the failed methods.
func (x *Extensions) summary() string {
	if x == nil {
		return ""
	}
	scoped := 0
	for _, g := range x.Groups {
		scoped += len(g.Tools) + len(g.Prompts) + len(g.Resources)
	}
	s := fmt.Sprintf("; %s, %s (%s)", plural(len(x.Skills), "skill"), plural(len(x.Groups), "group"), plural(scoped, "scoped item"))
	for _, id := range x.Uncaptured {
		s += fmt.Sprintf("; extension %q declared, not captured", id)
	}
	for _, method := range slices.Sorted(maps.Keys(x.Partial)) {
		s += fmt.Sprintf("; %s failed", method)
	}
	return s
}
