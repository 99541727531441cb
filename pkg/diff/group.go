package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Groups are compared by name (Group.Key); the tools, prompts and
// resources they scope by group and identity. The draft groups SEP
// ("Placement and naming") gives every primitive one placement per
// view: top level (tools/list, ...) or scoped in one or more groups. A
// move between placements is reported as such, instead of a removal and
// an addition: a tool that moves into a group leaves tools/list.

// scopedSubject names an item scoped to a group: "group/identity".
func scopedSubject(kind, group, id string) finding.Subject {
	return finding.Subject{Kind: kind, Name: group + "/" + id}
}

// groups compares the groups of two snapshots and the placement of every
// item. Nothing is compared when neither side has groups, or when a side's
// groups failed to be read.
func (d *differ) groups(unknown map[string]bool) {
	bx, hx := d.base.Ext, d.head.Ext
	if !hasGroups(bx) && !hasGroups(hx) {
		return
	}
	for _, m := range []string{"groups/list", "groups/get", "groups/list#com.google.cloud/toolbox.v1"} {
		if extFailed(bx, m) || extFailed(hx, m) {
			return
		}
	}
	bgs, hgs := extOf(bx).Groups, extOf(hx).Groups
	index := func(gs []manifest.Group) map[string]manifest.Group {
		m := make(map[string]manifest.Group, len(gs))
		for _, g := range gs {
			m[g.Key()] = g
		}
		return m
	}
	bm, hm := index(bgs), index(hgs)
	for _, key := range unionKeys(bm, hm) {
		b, inB := bm[key]
		h, inH := hm[key]
		switch {
		case !inH:
			d.emit(rules.GroupRemoved, subject(finding.KindGroup, key), "", fmt.Sprintf("group %s is no longer offered: groups/get for it fails", quote(key)), jsonString(key), nil)
		case !inB:
			d.emit(rules.GroupAdded, subject(finding.KindGroup, key), "", fmt.Sprintf("group %s is offered", quote(key)), nil, jsonString(key))
			d.scanText(subject(finding.KindGroup, key), "/instructions", nil, h.Instructions, false)
			d.scanText(subject(finding.KindGroup, key), "/group/description", nil, entryField(h, "description"), false)
		default:
			d.group(b, h)
		}
	}
	moved := map[finding.Subject]bool{}
	for _, list := range manifest.ScopedLists {
		if unknown[list] {
			continue
		}
		d.placements(list, bgs, hgs, moved)
	}
	if len(moved) > 0 {
		// A moved item is reported as moved, not as removed or added.
		out := d.out[:0]
		for _, f := range d.out {
			if moved[f.Subject] && isListedChange(f.Rule) {
				continue
			}
			out = append(out, f)
		}
		d.out = out
	}
}

func hasGroups(x *manifest.Extensions) bool { return len(extOf(x).Groups) > 0 }

func isListedChange(rule string) bool {
	switch rule {
	case rules.ToolRemoved, rules.ToolRemovedAfterDeprecation, rules.ToolRemovedBeforeSunset, rules.ToolAdded,
		rules.PromptRemoved, rules.PromptRemovedAfterDeprecation, rules.PromptAdded,
		rules.ResourceRemoved, rules.ResourceAdded:
		return true
	}
	return false
}

func entryField(g manifest.Group, k string) json.RawMessage {
	var e map[string]json.RawMessage
	_ = json.Unmarshal(g.Entry, &e)
	return canonRaw(e[k])
}

// group compares one group offered on both sides.
func (d *differ) group(b, h manifest.Group) {
	subj := subject(finding.KindGroup, h.Key())
	if !rawEqual(b.Instructions, h.Instructions) {
		d.emitText(rules.GroupInstructionsChanged, subj, "/instructions", fmt.Sprintf("the instructions of group %s changed", quote(h.Key())),
			nilIfEmpty(b.Instructions), nilIfEmpty(h.Instructions))
		d.scanText(subj, "/instructions", b.Instructions, h.Instructions, true)
	}
	for _, k := range []string{"description", "title"} {
		bv, hv := entryField(b, k), entryField(h, k)
		if rawEqual(bv, hv) {
			continue
		}
		p := "/group/" + k
		d.emitText(rules.GroupDescriptionChanged, subj, p, fmt.Sprintf("the %s of group %s changed", k, quote(h.Key())), bv, hv)
		d.scanText(subj, p, bv, hv, true)
	}
	// Items scoped to the group on both sides: compared as the items of
	// the top level are, and named by group and identity.
	for _, k := range []*itemKind{toolKind, promptKind, resourceKind} {
		p := match(b.Scoped(k.List), h.Scoped(k.List))
		for _, pair := range p.both {
			if bytes.Equal(pair[0].Raw, pair[1].Raw) {
				continue
			}
			sub := newDiffer(&manifest.Manifest{}, &manifest.Manifest{}, d.opts)
			k.compare(sub, pair[0].ID, parseObject(pair[0].Raw), parseObject(pair[1].Raw))
			for _, f := range sub.out {
				g := finding.New(f.Rule, scopedSubject(k.Subject, h.Key(), pair[0].ID), f.Pointer,
					fmt.Sprintf("in group %s: %s", quote(h.Key()), f.Message), f.Before, f.After)
				g.BasePointer, g.HeadPointer, g.Witness = f.BasePointer, f.HeadPointer, f.Witness
				d.out = append(d.out, g)
			}
		}
	}
}

// placements reports items of one list whose placement changed: into or
// out of tools/list (and the other lists), between groups, or gone from
// every group.
func (d *differ) placements(list string, bgs, hgs []manifest.Group, moved map[finding.Subject]bool) {
	k, _ := manifest.KindOfList(list)
	where := func(top []manifest.Item, gs []manifest.Group) map[string][]string {
		m := map[string][]string{}
		for _, it := range top {
			m[it.ID] = append(m[it.ID], "")
		}
		for _, g := range gs {
			for _, it := range g.Scoped(list) {
				m[it.ID] = append(m[it.ID], g.Key())
			}
		}
		return m
	}
	bw, hw := where(d.base.Items(list), bgs), where(d.head.Items(list), hgs)
	for _, id := range unionKeys(bw, hw) {
		bp, hp := bw[id], hw[id]
		bTop, hTop := slices.Contains(bp, ""), slices.Contains(hp, "")
		bGroups, hGroups := without(bp, ""), without(hp, "")
		top := finding.Subject{Kind: k.Subject, Name: id}
		switch {
		case bTop && !hTop && len(hGroups) > 0:
			moved[top] = true
			if list == manifest.ListTools {
				d.emit(rules.ToolMovedIntoGroup, top, "",
					fmt.Sprintf("tool %s left tools/list for group %s: clients that read only tools/list no longer see it; it is disclosed by groups/get", quote(id), quoteAll(hGroups)),
					jsonString(k.Method), canon(strings.Join(hGroups, ",")))
			} else {
				d.emit(rules.GroupItemMoved, top, "",
					fmt.Sprintf("%s %s left %s for group %s", k.Noun, quote(id), k.Method, quoteAll(hGroups)), jsonString(k.Method), canon(strings.Join(hGroups, ",")))
			}
			continue
		case !bTop && hTop && len(bGroups) > 0:
			moved[top] = true
			if list == manifest.ListTools {
				d.emit(rules.ToolMovedOutOfGroup, top, "",
					fmt.Sprintf("tool %s, scoped to group %s, is now in tools/list", quote(id), quoteAll(bGroups)), canon(strings.Join(bGroups, ",")), jsonString(k.Method))
			} else {
				d.emit(rules.GroupItemMoved, top, "",
					fmt.Sprintf("%s %s, scoped to group %s, is now in %s", k.Noun, quote(id), quoteAll(bGroups), k.Method), canon(strings.Join(bGroups, ",")), jsonString(k.Method))
			}
			continue
		}
		gone, came := diffSets(bGroups, hGroups)
		for _, g := range gone {
			subj := scopedSubject(k.Subject, g, id)
			switch {
			case len(hp) == 0:
				d.emit(rules.GroupItemRemoved, subj, "", fmt.Sprintf("%s %s, scoped to group %s, is gone: calls that name it fail", k.Noun, quote(id), quote(g)), jsonString(id), nil)
			case len(came) > 0 || hTop:
				d.emit(rules.GroupItemMoved, subj, "", fmt.Sprintf("%s %s moved from group %s to %s", k.Noun, quote(id), quote(g), quoteAll(hGroups)), canon(g), canon(strings.Join(hGroups, ",")))
			}
		}
		for _, g := range came {
			if len(bp) == 0 {
				d.emit(rules.GroupItemAdded, scopedSubject(k.Subject, g, id), "", fmt.Sprintf("%s %s was added to group %s", k.Noun, quote(id), quote(g)), nil, jsonString(id))
			}
		}
	}
}

func without(ss []string, s string) []string {
	var out []string
	for _, x := range ss {
		if x != s {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}

// diffSets returns what a has and b lacks, and what b has and a lacks.
func diffSets(a, b []string) (gone, came []string) {
	for _, x := range a {
		if !slices.Contains(b, x) {
			gone = append(gone, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			came = append(came, x)
		}
	}
	return gone, came
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
