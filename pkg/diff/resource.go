package diff

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// itemRules names the rules shared by resources and resource templates.
type itemRules struct {
	name, title, description         string
	mimeChanged, mimeAdded, mimeGone string
	audience, priority, lastModified string
	size, icons, meta, unknown       string
}

var resourceRules = itemRules{
	name: rules.ResourceNameChanged, title: rules.ResourceTitleChanged, description: rules.ResourceDescriptionChanged,
	mimeChanged: rules.ResourceMimeTypeChanged, mimeAdded: rules.ResourceMimeTypeAdded, mimeGone: rules.ResourceMimeTypeRemoved,
	audience: rules.ResourceAudienceChanged, priority: rules.ResourcePriorityChanged, lastModified: rules.ResourceLastModifiedChanged,
	size: rules.ResourceSizeChanged, icons: rules.ResourceIconsChanged, meta: rules.ResourceMetaChanged, unknown: rules.ResourceUnknownFieldChanged,
}

var templateRules = itemRules{
	name: rules.ResourceTemplateNameChanged, title: rules.ResourceTemplateTitleChanged, description: rules.ResourceTemplateDescriptionChanged,
	mimeChanged: rules.ResourceTemplateMimeTypeChanged, mimeAdded: rules.ResourceTemplateMimeTypeAdded, mimeGone: rules.ResourceTemplateMimeTypeRemoved,
	audience: rules.ResourceTemplateAudienceChanged, priority: rules.ResourceTemplatePriorityChanged,
	// Templates have no lastModified or size rule of their own: they are
	// reported as unknown fields.
	icons: rules.ResourceTemplateIconsChanged, meta: rules.ResourceTemplateMetaChanged, unknown: rules.ResourceTemplateUnknownFieldChanged,
}

// fields are the field rules of a resource or template: the common ones,
// and name, mimeType, size and annotations of their own.
func (r itemRules) fields() fieldRules {
	return fieldRules{
		title: r.title, description: r.description, icons: r.icons, meta: r.meta, unknown: r.unknown,
		own: map[string]fieldFunc{
			"name": func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage) {
				d.emit(r.name, subj, p, changedMsg("name", bv, hv), bv, hv)
			},
			"mimeType": func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage) {
				switch {
				case isNull(bv):
					d.emit(r.mimeAdded, subj, p, "mimeType added: "+short(hv), nil, hv)
				case isNull(hv):
					d.emit(r.mimeGone, subj, p, "mimeType removed (was "+short(bv)+")", bv, nil)
				default:
					d.emit(r.mimeChanged, subj, p, fmt.Sprintf("mimeType changed from %s to %s: clients parse content by MIME type", short(bv), short(hv)), bv, hv)
				}
			},
			"size": func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage) {
				d.emitOr(r.size, r.unknown, subj, p, changedMsg("size", bv, hv), bv, hv)
			},
			"annotations": func(d *differ, subj finding.Subject, _ string, bv, hv json.RawMessage) {
				d.itemAnnotations(r, subj, parseObject(bv), parseObject(hv))
			},
		},
	}
}

// resourceRenames pairs a removed and an added resource with the same
// name (unique on both sides, and the same mimeType where both have one)
// as one resource whose URI moved.
func (d *differ) resourceRenames(k *itemKind, removed, added []manifest.Item) ([]manifest.Item, []manifest.Item) {
	sameType := func(b, h object) bool {
		bm, bok := b.str("mimeType")
		hm, hok := h.str("mimeType")
		return !bok || !hok || bm == hm
	}
	return pairUniqueNames(removed, added, sameType, func(r, a manifest.Item) {
		subj := subject(finding.KindResource, r.ID)
		d.emit(rules.ResourceUriChanged, subj, "/uri",
			fmt.Sprintf("resource moved from %s to %s: stored URIs break", quote(r.ID), quote(a.ID)),
			jsonString(r.ID), jsonString(a.ID))
		d.fields(k, subj, parseObject(r.Raw), parseObject(a.Raw))
	})
}

// templateRenames pairs a removed and an added template with the same
// name (unique on both sides) as one template whose uriTemplate changed.
func (d *differ) templateRenames(k *itemKind, removed, added []manifest.Item) ([]manifest.Item, []manifest.Item) {
	return pairUniqueNames(removed, added, nil, func(r, a manifest.Item) {
		subj := subject(finding.KindResourceTemplate, r.ID)
		d.uriTemplate(subj, r.ID, a.ID)
		d.fields(k, subj, parseObject(r.Raw), parseObject(a.Raw))
	})
}

// emitOr emits rule, or fallback when the section has no such rule.
func (d *differ) emitOr(rule, fallback string, subj finding.Subject, p, msg string, b, h json.RawMessage) {
	if rule == "" {
		rule = fallback
	}
	d.emit(rule, subj, p, msg, b, h)
}

func (d *differ) itemAnnotations(r itemRules, subj finding.Subject, b, h object) {
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		p := ptr("/annotations", k)
		switch k {
		case "audience":
			d.emit(r.audience, subj, p, changedMsg("audience", bv, hv), bv, hv)
		case "priority":
			d.emit(r.priority, subj, p, changedMsg("priority", bv, hv), bv, hv)
		case "lastModified":
			d.emitOr(r.lastModified, r.unknown, subj, p, changedMsg("lastModified", bv, hv), bv, hv)
		default:
			d.emit(r.unknown, subj, p, changedMsg("annotations key "+quote(k), bv, hv), bv, hv)
		}
	}
}
