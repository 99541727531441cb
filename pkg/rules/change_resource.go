package rules

// Section H of the rule catalog: resources, matched by uri.

const (
	ResourceRemoved             = "resource-removed"
	ResourceAdded               = "resource-added"
	ResourceUriChanged          = "resource-uri-changed"
	ResourceNameChanged         = "resource-name-changed"
	ResourceTitleChanged        = "resource-title-changed"
	ResourceDescriptionChanged  = "resource-description-changed"
	ResourceMimeTypeChanged     = "resource-mime-type-changed"
	ResourceMimeTypeAdded       = "resource-mime-type-added"
	ResourceMimeTypeRemoved     = "resource-mime-type-removed"
	ResourceSizeChanged         = "resource-size-changed"
	ResourceAudienceChanged     = "resource-audience-changed"
	ResourcePriorityChanged     = "resource-priority-changed"
	ResourceLastModifiedChanged = "resource-last-modified-changed"
	ResourceIconsChanged        = "resource-icons-changed"
	ResourceMetaChanged         = "resource-meta-changed"
	ResourceContentsChanged     = "resource-contents-changed"
	ResourceUnknownFieldChanged = "resource-unknown-field-changed"
)

func resourceChangeRules() []Rule {
	return []Rule{
		surfaceChange(ResourceRemoved, SeverityBreaking, "surface", "wire",
			"A resource URI is no longer listed",
			`Clients and bookmarks that read that URI fail. If the list is dynamic or paginated,
make the capture deterministic before trusting this rule.`),
		surfaceChange(ResourceAdded, SeverityMinor, "surface", "",
			"A new resource is listed",
			`Additive.`),
		surfaceChange(ResourceUriChanged, SeverityBreaking, "surface", "heur",
			"A resource with the same name moved to a different URI",
			`A removed and an added resource with the same ‵name‵ (and MIME type, when both declare
one) are paired and reported once instead of as a removal plus an addition. Stored URIs break.`),
		surfaceChange(ResourceNameChanged, SeverityMinor, "meta", "",
			"The resource's name changed",
			`The name is a programmatic identifier and the display fallback.`),
		surfaceChange(ResourceTitleChanged, SeverityPatch, "meta", "",
			"The resource's title changed",
			`Display only.`),
		surfaceChange(ResourceDescriptionChanged, SeverityPatch, "meta", "llm,sec",
			"The resource's description was added, changed or removed",
			`A model-visible hint. The finding carries the text diff.`),
		surfaceChange(ResourceMimeTypeChanged, SeverityBreaking, "output", "wire",
			"The resource's mimeType changed",
			`Clients parse content by MIME type.`),
		surfaceChange(ResourceMimeTypeAdded, SeverityMinor, "output", "",
			"The resource now declares a mimeType",
			`A new guarantee.`),
		surfaceChange(ResourceMimeTypeRemoved, SeverityRisky, "output", "",
			"The resource no longer declares a mimeType",
			`Clients lose the content-type guarantee.`),
		surfaceChange(ResourceSizeChanged, SeverityInfo, "meta", "",
			"The resource's size changed",
			`Volatile metadata.`),
		surfaceChange(ResourceAudienceChanged, SeverityMinor, "meta", "llm",
			"annotations.audience changed",
			`Decides whether the content is shown to the user, the model, or both.`),
		surfaceChange(ResourcePriorityChanged, SeverityInfo, "meta", "",
			"annotations.priority changed",
			`A ranking hint.`),
		surfaceChange(ResourceLastModifiedChanged, SeverityInfo, "meta", "",
			"annotations.lastModified changed",
			`Volatile; ignore it with a severity override (‵off‵) if it is noisy.`),
		surfaceChange(ResourceIconsChanged, SeverityPatch, "meta", "",
			"The resource's icons changed",
			`Display only. A new icon origin or SVG is ‵tool-icon-origin-changed‵ (subject resource).`),
		surfaceChange(ResourceMetaChanged, SeverityInfo, "meta", "",
			"The resource's _meta changed",
			`Opaque by default. One finding per added, removed or changed key.`),
		surfaceChange(ResourceContentsChanged, SeverityPatch, "output", "llm,sec",
			"The contents read from a resource changed",
			`Resource text may be injected into the model's context.

**Not observable yet.** This needs a hash of ‵resources/read‵ for recorded URIs (per-server
‵probes:‵), which snapshots do not record yet; the diff never emits it today. The ID is reserved
for that capture.`),
		surfaceChange(ResourceUnknownFieldChanged, SeverityInfo, "meta", "",
			"A resource field the specification does not define changed",
			`Not in the catalog: reported rather than dropped (includes unknown keys of ‵annotations‵).
Conforming clients ignore such fields.`),
	}
}
