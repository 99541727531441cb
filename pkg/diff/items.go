package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/capture"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// itemKind is how Diff compares one kind of item (tools, prompts,
// resources, resource templates). Every kind goes through the same steps
// (items): match by identity, compare what is on both sides field by field
// (fields), pair what is left over as renames, report the rest as removed
// and added. The steps that differ between kinds are the values of this
// struct: a new kind is one more itemKind in itemKinds.
type itemKind struct {
	manifest.ItemKind
	// items are the snapshot's items of this kind, sorted by identity.
	items func(*manifest.Manifest) []manifest.Item
	// fields are the rules an item present on both sides is compared by.
	fields fieldRules
	// lifecycle, when set, compares what the item's fields say together
	// (a tool's deprecation and sunset), after the fields.
	lifecycle func(d *differ, subj finding.Subject, b, h object)
	// renames pairs removed and added items that look like one item under
	// a new identity, reports and compares each pair, and returns the
	// items left unpaired.
	renames func(d *differ, k *itemKind, removed, added []manifest.Item) ([]manifest.Item, []manifest.Item)
	// removed names the rules of a removal.
	removed removal
	// added reports the items that are new; nil reports each with
	// addedRule (itemAdded).
	added     func(d *differ, added []manifest.Item, both [][2]manifest.Item)
	addedRule string
}

// removal names the rules of a removed item: rule, or afterDeprecation
// for an item that was deprecated, or beforeSunset for one removed before
// the sunset it announced (empty when the kind has no such rule); fails
// says what breaks, for the message (empty when nothing definite does).
type removal struct{ rule, afterDeprecation, beforeSunset, fails string }

// kindOf is the manifest's description of the kind kept under list.
func kindOf(list string) manifest.ItemKind {
	k, ok := manifest.KindOfList(list)
	if !ok {
		panic("diff: no item kind for list " + list)
	}
	return k
}

var (
	toolKind = &itemKind{
		ItemKind:  kindOf(manifest.ListTools),
		items:     func(m *manifest.Manifest) []manifest.Item { return m.Tools },
		fields:    toolFields,
		lifecycle: (*differ).toolLifecycle,
		renames:   (*differ).toolRenames,
		removed: removal{rules.ToolRemoved, rules.ToolRemovedAfterDeprecation, rules.ToolRemovedBeforeSunset,
			"calls to it fail"},
		added: (*differ).toolsAdded,
	}
	promptKind = &itemKind{
		ItemKind:  kindOf(manifest.ListPrompts),
		items:     func(m *manifest.Manifest) []manifest.Item { return m.Prompts },
		fields:    promptFields,
		renames:   (*differ).promptRenames,
		removed:   removal{rules.PromptRemoved, rules.PromptRemovedAfterDeprecation, "", "prompts/get for it fails"},
		addedRule: rules.PromptAdded,
	}
	resourceKind = &itemKind{
		ItemKind:  kindOf(manifest.ListResources),
		items:     func(m *manifest.Manifest) []manifest.Item { return m.Resources },
		fields:    resourceRules.fields(),
		renames:   (*differ).resourceRenames,
		removed:   removal{rule: rules.ResourceRemoved, fails: "reading it fails"},
		addedRule: rules.ResourceAdded,
	}
	templateKind = &itemKind{
		ItemKind:  kindOf(manifest.ListResourceTemplates),
		items:     func(m *manifest.Manifest) []manifest.Item { return m.ResourceTemplates },
		fields:    templateRules.fields(),
		renames:   (*differ).templateRenames,
		removed:   removal{rule: rules.ResourceTemplateRemoved},
		addedRule: rules.ResourceTemplateAdded,
	}
)

// itemKinds are the kinds Diff compares, in the order it compares them.
var itemKinds = []*itemKind{toolKind, promptKind, resourceKind, templateKind}

func (k *itemKind) subject(id string) finding.Subject {
	return finding.Subject{Kind: k.Subject, Name: id}
}

// compare compares an item present on both sides (or paired as a
// rename) under subject id.
func (k *itemKind) compare(d *differ, id string, b, h object) {
	subj := k.subject(id)
	d.fields(k, subj, b, h)
	if k.lifecycle != nil {
		k.lifecycle(d, subj, b, h)
	}
}

// fieldRules say how the fields of an item of one kind are compared: the
// rules of the fields every kind has, and the kind's own fields in a
// table. A field in neither is reported under unknown.
type fieldRules struct {
	// title, description, icons and meta are the rules of the fields
	// every kind has, unless own compares the field; unknown is the rule
	// of a field nothing names.
	title, description, icons, meta, unknown string
	// own compares the kind's own fields, and those it reports its own way.
	own map[string]fieldFunc
}

// fieldFunc compares one field, at pointer p, whose values differ.
type fieldFunc func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage)

// fields compares two versions of an item of kind ik field by field; the
// identity is compared by matching and renames, not here.
func (d *differ) fields(ik *itemKind, subj finding.Subject, b, h object) {
	r := &ik.fields
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		if k == ik.Identity {
			continue
		}
		if isNull(bv) {
			d.featureMismatch(ik.List, subj, k, hv)
		}
		p := ptr("", k)
		if f, ok := r.own[k]; ok {
			f(d, subj, p, bv, hv)
			continue
		}
		switch k {
		case "title":
			d.emitText(r.title, subj, p, changedMsg("title", bv, hv), bv, hv)
			d.scanText(subj, p, bv, hv, true)
		case "description":
			d.emitText(r.description, subj, p, textChangedMsg("description", bv, hv), bv, hv)
			d.scanText(subj, p, bv, hv, true)
		case "icons":
			d.icons(subj, r.icons, p, bv, hv)
		case "_meta":
			d.itemMeta(subj, r.meta, parseObject(bv), parseObject(hv))
		default:
			d.emit(r.unknown, subj, p, changedMsg("field "+quote(k), bv, hv), bv, hv)
		}
	}
}

// items compares the items of one kind.
func (d *differ) items(k *itemKind) {
	p := match(k.items(d.base), k.items(d.head))
	for _, pair := range p.both {
		if !bytes.Equal(pair[0].Raw, pair[1].Raw) {
			k.compare(d, pair[0].ID, parseObject(pair[0].Raw), parseObject(pair[1].Raw))
		}
	}
	removed, added := k.renames(d, k, p.removed, p.added)
	for _, it := range removed {
		d.itemRemoved(k, it)
	}
	if k.added != nil {
		k.added(d, added, p.both)
		return
	}
	for _, it := range added {
		d.itemAdded(k, it)
	}
}

// itemRemoved reports an item that is gone: before its announced sunset,
// after its deprecation, or plainly, as far as the kind has rules for.
func (d *differ) itemRemoved(k *itemKind, it manifest.Item) {
	subj := k.subject(it.ID)
	name := jsonString(it.ID)
	r := k.removed
	if r.afterDeprecation != "" {
		l := d.lifecycleOf(parseObject(it.Raw))
		switch {
		case r.beforeSunset != "" && l.deprecated && l.sunsetRaw != nil && (d.opts.Now.IsZero() || l.sunset.IsZero() || d.opts.Now.Before(l.sunset)):
			d.emit(r.beforeSunset, subj, "",
				fmt.Sprintf("deprecated %s %s was removed before its sunset date %s", k.Noun, quote(it.ID), short(l.sunsetRaw)), name, nil)
			return
		case l.deprecated:
			d.emit(r.afterDeprecation, subj, "", fmt.Sprintf("deprecated %s %s was removed", k.Noun, quote(it.ID)), name, nil)
			return
		}
	}
	msg := fmt.Sprintf("%s %s was removed", k.Noun, quote(it.ID))
	if r.fails != "" {
		msg += ": " + r.fails
	}
	d.emit(r.rule, subj, "", msg, name, nil)
}

// itemAdded reports a new item, the fields its negotiated revision does
// not define, and the text it brings.
func (d *differ) itemAdded(k *itemKind, it manifest.Item) {
	subj := k.subject(it.ID)
	d.emit(k.addedRule, subj, "", fmt.Sprintf("%s %s was added", k.Noun, quote(it.ID)), nil, jsonString(it.ID))
	o := parseObject(it.Raw)
	for _, key := range slices.Sorted(maps.Keys(o)) {
		d.featureMismatch(k.List, subj, key, o[key])
	}
	d.scanItemTexts(subj, nil, o)
}

// pairUniqueNames pairs removed and added items that share a name unique
// on both sides (and for which ok holds, when given), calls pair for each
// pair, and returns the items left unpaired.
func pairUniqueNames(removed, added []manifest.Item, ok func(b, h object) bool, pair func(from, to manifest.Item)) ([]manifest.Item, []manifest.Item) {
	usedR := make([]bool, len(removed))
	usedA := make([]bool, len(added))
	for _, pr := range uniqueByName(removed, added, ok) {
		usedR[pr[0]], usedA[pr[1]] = true, true
		pair(removed[pr[0]], added[pr[1]])
	}
	return unused(removed, usedR), unused(added, usedA)
}

// listFailures reports each list that failed on either side of a partial
// snapshot (surface-list-failed) and returns the lists not to compare:
// what a failed list holds is unknown, and unknown is not empty.
func (d *differ) listFailures() map[string]bool {
	unknown := map[string]bool{}
	if !d.base.Incomplete() && !d.head.Incomplete() {
		return unknown
	}
	for _, k := range itemKinds {
		method, bf, atBase := d.base.FailedList(k.List)
		_, hf, atHead := d.head.FailedList(k.List)
		if !atBase && !atHead {
			continue
		}
		unknown[k.List] = true
		var sides, errs []string
		var before, after []byte
		if atBase {
			sides, errs = append(sides, "base"), append(errs, "base: "+failureText(bf))
			before = failureValue(bf)
		}
		if atHead {
			sides, errs = append(sides, "head"), append(errs, "head: "+failureText(hf))
			after = failureValue(hf)
		}
		// What it means first: a table cuts a long message.
		msg := fmt.Sprintf("%s failed at %s, so no %s was compared (none is reported removed or added): %s",
			method, strings.Join(sides, " and "), k.Noun, strings.Join(errs, "; "))
		d.emit(rules.SurfaceListFailed, serverSubject, jsonptr.New("partial", method).String(), msg, before, after)
	}
	return unknown
}

// failureText is one side's failure in a message: page, code and the
// server's message, bounded (renderers escape it).
func failureText(f manifest.ListFailure) string {
	m := f.Message
	if len(m) > capture.MaxFailureMessage {
		m = strings.ToValidUTF8(m[:capture.MaxFailureMessage], "") + "…"
	}
	return fmt.Sprintf("page %d answered with error %d %q", f.Page, f.Code, m)
}

// failureValue is one side's failure as the finding's value: its page and
// code, not the server's message, so that the finding's fingerprint does
// not change with the wording of an error.
func failureValue(f manifest.ListFailure) []byte {
	v, _ := manifest.CanonicalizeValue(map[string]any{"page": f.Page, "code": f.Code})
	return v
}

// withoutTools runs fn (the context cost) with neither side's tools when
// a side's tools are unknown: a cost that counts the tools of one side
// only would report them all as added or removed.
func (d *differ) withoutTools(unknown bool, fn func()) {
	if !unknown {
		fn()
		return
	}
	b, h := *d.base, *d.head
	b.Tools, h.Tools = nil, nil
	saved := [2]*manifest.Manifest{d.base, d.head}
	d.base, d.head = &b, &h
	defer func() { d.base, d.head = saved[0], saved[1] }()
	fn()
}

// unidentified says once which items of either side were served without
// identity (manifest.Unidentified): they were not compared. Sides that
// record the same ones, byte for byte and in the same places, have nothing
// to say: those items did not change.
func (d *differ) unidentified() {
	if slices.EqualFunc(d.base.Unidentified, d.head.Unidentified, func(a, b manifest.Unidentified) bool {
		return a.List == b.List && a.Index == b.Index && bytes.Equal(a.Item, b.Item)
	}) {
		return
	}
	var parts []string
	for _, side := range []struct {
		name string
		m    *manifest.Manifest
	}{{"base", d.base}, {"head", d.head}} {
		var at []string
		for _, u := range side.m.Unidentified {
			at = append(at, fmt.Sprintf("%s[%d]", u.List, u.Index))
		}
		if len(at) > 0 {
			parts = append(parts, side.name+": "+strings.Join(at, ", "))
		}
	}
	if len(parts) == 0 {
		return
	}
	msg := "items served without identity (no name, uri or uriTemplate) were not compared; everything else was: " + strings.Join(parts, "; ")
	d.emit(rules.SurfaceItemsUnidentified, serverSubject, "/unidentified", msg, nil, nil)
}
