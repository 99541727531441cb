package rules

// Section I of the rule catalog: resource templates (RFC 6570), matched by
// uriTemplate and, for modified templates, by name.

const templatePairHelp = `

**Pairing.** Templates are matched by ‵uriTemplate‵. A removed and an added template with the
same ‵name‵ (unique on both sides) are compared as one modified template, and their RFC 6570
expressions are compared: literals, operators and modifiers, path and query variables. The
subject is the base template.`

func init() {
	register([]Rule{
		surfaceChange("resource-template-removed", SeverityBreaking, "surface", "wire",
			"A resource template is no longer listed",
			`Clients can no longer construct or resolve those URIs.`+templatePairHelp),
		surfaceChange("resource-template-added", SeverityMinor, "surface", "",
			"A new resource template is listed",
			`Additive.`),
		surfaceChange("resource-template-variable-added", SeverityBreaking, "input", "wire",
			"A variable was added to a path or simple expression",
			`Previously constructed URIs no longer match and clients must supply a new value.`+templatePairHelp),
		surfaceChange("resource-template-variable-removed", SeverityBreaking, "input", "wire",
			"A variable was removed from a path or simple expression",
			`URIs built with it no longer match.`+templatePairHelp),
		surfaceChange("resource-template-variable-renamed", SeverityRisky, "input", "",
			"A variable has a different name at the same position",
			`Existing URIs still match, but name-based filling and ‵completion/complete‵ references
break.`+templatePairHelp),
		surfaceChange("resource-template-query-variable-added", SeverityMinor, "input", "",
			"A variable was added to a query expression",
			`An optional query parameter ({?…} or {&…}).`+templatePairHelp),
		surfaceChange("resource-template-query-variable-removed", SeverityRisky, "input", "",
			"A variable was removed from a query expression",
			`Old URIs still match but the parameter is ignored.`+templatePairHelp),
		surfaceChange("resource-template-literal-changed", SeverityBreaking, "input", "wire",
			"A literal part of the template changed",
			`Scheme, host or a path segment changed: every previously constructed URI changes. A
template that is not valid RFC 6570 is compared as a literal.`+templatePairHelp),
		surfaceChange("resource-template-operator-changed", SeverityBreaking, "input", "wire",
			"An expression's operator or modifier changed",
			`The encoding and shape of the expansion change ({x} vs {+x}, {/x}, {#x}, {.x}, {;x},
{?x}, {&x}; also the prefix ‵:n‵ and explode ‵*‵ modifiers).`+templatePairHelp),
		surfaceChange("resource-template-name-changed", SeverityMinor, "meta", "",
			"The template's name changed",
			`Identifier and display fallback.`),
		surfaceChange("resource-template-title-changed", SeverityPatch, "meta", "",
			"The template's title changed",
			`Display only.`),
		surfaceChange("resource-template-description-changed", SeverityPatch, "meta", "llm,sec",
			"The template's description was added, changed or removed",
			`A model-visible hint. The finding carries the text diff.`),
		surfaceChange("resource-template-mime-type-changed", SeverityBreaking, "output", "wire",
			"The template's mimeType changed",
			`Clients parse content by MIME type.`),
		surfaceChange("resource-template-mime-type-added", SeverityMinor, "output", "",
			"The template now declares a mimeType",
			`A new guarantee.`),
		surfaceChange("resource-template-mime-type-removed", SeverityRisky, "output", "",
			"The template no longer declares a mimeType",
			`The guarantee is lost.`),
		surfaceChange("resource-template-audience-changed", SeverityMinor, "meta", "llm",
			"annotations.audience changed",
			`As for resources: decides who sees the content.`),
		surfaceChange("resource-template-priority-changed", SeverityInfo, "meta", "",
			"annotations.priority changed",
			`A ranking hint.`),
		surfaceChange("resource-template-icons-changed", SeverityPatch, "meta", "",
			"The template's icons changed",
			`Display only. A new icon origin or SVG is ‵tool-icon-origin-changed‵.`),
		surfaceChange("resource-template-meta-changed", SeverityInfo, "meta", "",
			"The template's _meta changed",
			`Opaque by default.`),
		surfaceChange("resource-template-unknown-field-changed", SeverityInfo, "meta", "",
			"A template field the specification does not define changed",
			`Not in the catalog: reported rather than dropped (includes unknown keys of
‵annotations‵). Conforming clients ignore such fields.`),
	})
}
