package rules

// Section I of the rule catalog: resource templates (RFC 6570), matched by
// uriTemplate and, for modified templates, by name.

const templatePairHelp = `

**Pairing.** Templates are matched by ‵uriTemplate‵. A removed and an added template with the
same ‵name‵ (unique on both sides) are compared as one modified template, and their RFC 6570
expressions are compared: literals, operators and modifiers, path and query variables. The
subject is the base template.`

const (
	ResourceTemplateRemoved              = "resource-template-removed"
	ResourceTemplateAdded                = "resource-template-added"
	ResourceTemplateVariableAdded        = "resource-template-variable-added"
	ResourceTemplateVariableRemoved      = "resource-template-variable-removed"
	ResourceTemplateVariableRenamed      = "resource-template-variable-renamed"
	ResourceTemplateQueryVariableAdded   = "resource-template-query-variable-added"
	ResourceTemplateQueryVariableRemoved = "resource-template-query-variable-removed"
	ResourceTemplateLiteralChanged       = "resource-template-literal-changed"
	ResourceTemplateOperatorChanged      = "resource-template-operator-changed"
	ResourceTemplateNameChanged          = "resource-template-name-changed"
	ResourceTemplateTitleChanged         = "resource-template-title-changed"
	ResourceTemplateDescriptionChanged   = "resource-template-description-changed"
	ResourceTemplateMimeTypeChanged      = "resource-template-mime-type-changed"
	ResourceTemplateMimeTypeAdded        = "resource-template-mime-type-added"
	ResourceTemplateMimeTypeRemoved      = "resource-template-mime-type-removed"
	ResourceTemplateAudienceChanged      = "resource-template-audience-changed"
	ResourceTemplatePriorityChanged      = "resource-template-priority-changed"
	ResourceTemplateIconsChanged         = "resource-template-icons-changed"
	ResourceTemplateMetaChanged          = "resource-template-meta-changed"
	ResourceTemplateUnknownFieldChanged  = "resource-template-unknown-field-changed"
)

func templateChangeRules() []Rule {
	return []Rule{
		surfaceChange(ResourceTemplateRemoved, SeverityBreaking, "surface", "wire",
			"A resource template is no longer listed",
			`Clients can no longer construct or resolve those URIs.`+templatePairHelp),
		surfaceChange(ResourceTemplateAdded, SeverityMinor, "surface", "",
			"A new resource template is listed",
			`Additive.`),
		surfaceChange(ResourceTemplateVariableAdded, SeverityBreaking, "input", "wire",
			"A variable was added to a path or simple expression",
			`Previously constructed URIs no longer match and clients must supply a new value.`+templatePairHelp),
		surfaceChange(ResourceTemplateVariableRemoved, SeverityBreaking, "input", "wire",
			"A variable was removed from a path or simple expression",
			`URIs built with it no longer match.`+templatePairHelp),
		surfaceChange(ResourceTemplateVariableRenamed, SeverityRisky, "input", "",
			"A variable has a different name at the same position",
			`Existing URIs still match, but name-based filling and ‵completion/complete‵ references
break.`+templatePairHelp),
		surfaceChange(ResourceTemplateQueryVariableAdded, SeverityMinor, "input", "",
			"A variable was added to a query expression",
			`An optional query parameter ({?…} or {&…}).`+templatePairHelp),
		surfaceChange(ResourceTemplateQueryVariableRemoved, SeverityRisky, "input", "",
			"A variable was removed from a query expression",
			`Old URIs still match but the parameter is ignored.`+templatePairHelp),
		surfaceChange(ResourceTemplateLiteralChanged, SeverityBreaking, "input", "wire",
			"A literal part of the template changed",
			`Scheme, host or a path segment changed: every previously constructed URI changes. A
template that is not valid RFC 6570 is compared as a literal.`+templatePairHelp),
		surfaceChange(ResourceTemplateOperatorChanged, SeverityBreaking, "input", "wire",
			"An expression's operator or modifier changed",
			`The encoding and shape of the expansion change ({x} vs {+x}, {/x}, {#x}, {.x}, {;x},
{?x}, {&x}; also the prefix ‵:n‵ and explode ‵*‵ modifiers).`+templatePairHelp),
		surfaceChange(ResourceTemplateNameChanged, SeverityMinor, "meta", "",
			"The template's name changed",
			`Identifier and display fallback.`),
		surfaceChange(ResourceTemplateTitleChanged, SeverityPatch, "meta", "",
			"The template's title changed",
			`Display only.`),
		surfaceChange(ResourceTemplateDescriptionChanged, SeverityPatch, "meta", "llm,sec",
			"The template's description was added, changed or removed",
			`A model-visible hint. The finding carries the text diff.`),
		surfaceChange(ResourceTemplateMimeTypeChanged, SeverityBreaking, "output", "wire",
			"The template's mimeType changed",
			`Clients parse content by MIME type.`),
		surfaceChange(ResourceTemplateMimeTypeAdded, SeverityMinor, "output", "",
			"The template now declares a mimeType",
			`A new guarantee.`),
		surfaceChange(ResourceTemplateMimeTypeRemoved, SeverityRisky, "output", "",
			"The template no longer declares a mimeType",
			`The guarantee is lost.`),
		surfaceChange(ResourceTemplateAudienceChanged, SeverityMinor, "meta", "llm",
			"annotations.audience changed",
			`As for resources: decides who sees the content.`),
		surfaceChange(ResourceTemplatePriorityChanged, SeverityInfo, "meta", "",
			"annotations.priority changed",
			`A ranking hint.`),
		surfaceChange(ResourceTemplateIconsChanged, SeverityPatch, "meta", "",
			"The template's icons changed",
			`Display only. A new icon origin or SVG is ‵tool-icon-origin-changed‵.`),
		surfaceChange(ResourceTemplateMetaChanged, SeverityInfo, "meta", "",
			"The template's _meta changed",
			`Opaque by default.`),
		surfaceChange(ResourceTemplateUnknownFieldChanged, SeverityInfo, "meta", "",
			"A template field the specification does not define changed",
			`Not in the catalog: reported rather than dropped (includes unknown keys of
‵annotations‵). Conforming clients ignore such fields.`),
	}
}
