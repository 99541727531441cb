package rules

// Section C of the rule catalog: tools (existence, identity, metadata,
// execution, whole schemas). Changes inside inputSchema and outputSchema
// are the input-* and output-* rules.

const lifecycleHelp = `

**Deprecation markers.** MCP has no standard deprecation field. An item is deprecated when its
‵_meta‵ carries the configured key (default ‵deprecated‵, any value but ‵false‵/‵null‵) or
its description contains a configured marker (default ‵DEPRECATED‵, ‵@deprecated‵,
‵Deprecated:‵). An optional sunset date is read from the configured ‵_meta‵ key (default
‵sunset‵, RFC 3339 or YYYY-MM-DD). Set ‵lifecycle:‵ in ‵.mcp-surface.yaml‵ to change them.`

const renameHelp = `

**Heuristic.** A removed and an added tool are paired as a rename when their names are the
same words in another case style (case, ‵-‵, ‵_‵, ‵.‵ and camelCase boundaries aside:
‵getTinyImage‵ → ‵get-tiny-image‵), whatever else changed, or when their content is
similar enough: identical apart from the name, or a weighted similarity of schema properties,
description words and name of at least ‵rename.threshold‵ (default 0.8), where properties and
descriptions that both tools have must each agree to at least 0.7 (so ‵get_user‵ and
‵delete_user‵ taking the same id stay two tools). The pair is reported once under this rule
instead of as a removal plus an addition, and is never less severe than the removal it
replaces: callers of the old name still fail. The two tools are then compared as one, under the
new name, so whatever else changed (annotations, schemas, suspicious text) is reported too.`

const (
	ToolRemoved                       = "tool-removed"
	ToolRemovedAfterDeprecation       = "tool-removed-after-deprecation"
	ToolRemovedBeforeSunset           = "tool-removed-before-sunset"
	ToolAdded                         = "tool-added"
	ToolRenamed                       = "tool-renamed"
	ToolNameCaseChanged               = "tool-name-case-changed"
	ToolAddedConfusableName           = "tool-added-confusable-name"
	ToolDeprecated                    = "tool-deprecated"
	ToolReactivated                   = "tool-reactivated"
	ToolSunsetMovedEarlier            = "tool-sunset-moved-earlier"
	ToolTitleChanged                  = "tool-title-changed"
	ToolDescriptionAdded              = "tool-description-added"
	ToolDescriptionChanged            = "tool-description-changed"
	ToolDescriptionRemoved            = "tool-description-removed"
	ToolIconsChanged                  = "tool-icons-changed"
	ToolIconOriginChanged             = "tool-icon-origin-changed"
	ToolMetaKeyAdded                  = "tool-meta-key-added"
	ToolMetaKeyRemoved                = "tool-meta-key-removed"
	ToolMetaValueChanged              = "tool-meta-value-changed"
	ToolMetaReservedKeyChanged        = "tool-meta-reserved-key-changed"
	ToolExecutionTaskSupportRequired  = "tool-execution-task-support-required"
	ToolExecutionTaskSupportForbidden = "tool-execution-task-support-forbidden"
	ToolExecutionTaskSupportOptional  = "tool-execution-task-support-optional"
	ToolInputSchemaDialectChanged     = "tool-input-schema-dialect-changed"
	ToolOutputSchemaAdded             = "tool-output-schema-added"
	ToolOutputSchemaRemoved           = "tool-output-schema-removed"
	ToolOutputSchemaDialectChanged    = "tool-output-schema-dialect-changed"
	ToolInputEnumOrderChanged         = "tool-input-enum-order-changed"
	ToolOutputEnumOrderChanged        = "tool-output-enum-order-changed"
	ToolListOrderChanged              = "tool-list-order-changed"
	ToolUnknownFieldChanged           = "tool-unknown-field-changed"
)

func toolChangeRules() []Rule {
	return []Rule{
		surfaceChange(ToolRemoved, SeverityBreaking, "surface", "wire",
			"A tool is no longer listed",
			`Existing ‵tools/call‵ requests for it fail, and hosts' allowlists and saved agent plans
that name it break.

**What to do.** Keep the tool (deprecate it first, see ‵tool-deprecated‵), or ship a major
version.`+lifecycleHelp),
		surfaceChange(ToolRemovedAfterDeprecation, SeverityRisky, "surface", "lifecycle",
			"A deprecated tool was removed",
			`Clients were warned by the deprecation marker, so this replaces ‵tool-removed‵; the
removal still needs a major version.`+lifecycleHelp),
		surfaceChange(ToolRemovedBeforeSunset, SeverityBreaking, "surface", "lifecycle",
			"A deprecated tool was removed before its sunset date",
			`The server announced a grace period and broke it. Replaces ‵tool-removed‵. The date is
compared with the run's clock (an unknown clock counts as before the sunset: fail closed).`+lifecycleHelp),
		surfaceChange(ToolAdded, SeverityMinor, "surface", "llm",
			"A new tool is listed",
			`Additive. Every new tool also enlarges the model's prompt and competes with the existing
tools for selection; its description is checked by the ‵text-*‵ rules.`),
		surfaceChange(ToolRenamed, SeverityBreaking, "surface", "heur",
			"A removed tool and an added tool look like a rename",
			`Reported instead of the removal and the addition so that reviewers see what happened.
Callers of the old name still fail; the subject is the old name and ‵after‵ holds the new one.`+renameHelp),
		surfaceChange(ToolNameCaseChanged, SeverityBreaking, "surface", "heur",
			"Only the letter case of a tool name changed",
			`Tool names are case-sensitive, so calls with the old name fail. Reported instead of the
removal and the addition, whatever the content similarity; the two tools are then compared as
one under the new name.`),
		surfaceChange(ToolAddedConfusableName, SeverityRisky, "surface", "sec,heur",
			"A new tool's name is confusable with an existing tool's",
			`The new name equals an existing tool's after folding case, dropping separators
(‵_ - . space‵) and mapping common homoglyphs (Cyrillic and Greek look-alikes, ‵0/O‵,
‵1/l/I‵). This is tool shadowing: the model may pick the impostor. Rename one of them.`),
		surfaceChange(ToolDeprecated, SeverityMinor, "meta", "lifecycle",
			"A tool became deprecated",
			`Announces a future removal.`+lifecycleHelp),
		surfaceChange(ToolReactivated, SeverityInfo, "meta", "lifecycle",
			"A tool's deprecation marker was removed",
			`The tool is no longer deprecated.`+lifecycleHelp),
		surfaceChange(ToolSunsetMovedEarlier, SeverityRisky, "meta", "lifecycle",
			"A deprecated tool's sunset date moved earlier or was deleted",
			`Clients planned their migration against the old date.`+lifecycleHelp),
		surfaceChange(ToolTitleChanged, SeverityPatch, "meta", "",
			"The tool's title was added, changed or removed",
			`Display only (display-name precedence: ‵title‵, ‵annotations.title‵, ‵name‵).`),
		surfaceChange(ToolDescriptionAdded, SeverityPatch, "meta", "llm,sec",
			"The tool's description was added",
			`Model-visible text appears; review it. Suspicious content is reported by the ‵text-*‵
rules.`),
		surfaceChange(ToolDescriptionChanged, SeverityPatch, "meta", "llm,sec",
			"The tool's description changed",
			`Tool descriptions are read by the model on every turn: rewriting one is the classic
rug-pull and tool-poisoning vector. The finding always carries the text diff; the ‵text-*‵
rules escalate suspicious additions. Teams that pin prose can raise this rule to ‵breaking‵.`),
		surfaceChange(ToolDescriptionRemoved, SeverityMinor, "meta", "llm",
			"The tool's description was removed",
			`Nothing fails, but the model selects and fills the tool worse without it.`),
		surfaceChange(ToolIconsChanged, SeverityPatch, "meta", "",
			"The tool's icons were added, removed or changed (same origin)",
			`Display only.`),
		surfaceChange(ToolIconOriginChanged, SeverityMinor, "meta", "sec",
			"An icon is served from a new origin, or an SVG icon appeared",
			`The specification asks consumers to check icon origins and to be careful with SVG, which
can carry script. Reported instead of the plain icons change, for tools and, with their own
subject, for prompts, resources, templates and the server.`),
		surfaceChange(ToolMetaKeyAdded, SeverityInfo, "meta", "",
			"A _meta key was added to the tool",
			`Vendor metadata; opaque by default. Keys used as deprecation markers are reported by the
lifecycle rules instead.`),
		surfaceChange(ToolMetaKeyRemoved, SeverityMinor, "meta", "",
			"A _meta key was removed from the tool",
			`Clients or hosts may have depended on the vendor metadata.`),
		surfaceChange(ToolMetaValueChanged, SeverityInfo, "meta", "",
			"The value of a tool _meta key changed",
			`Opaque by default.`),
		surfaceChange(ToolMetaReservedKeyChanged, SeverityRisky, "meta", "",
			"A _meta key under a reserved or configured prefix changed",
			`Keys whose prefix the specification reserves (second label ‵modelcontextprotocol‵ or ‵mcp‵,
e.g. ‵io.modelcontextprotocol/‵, ‵dev.mcp/‵; or, in the 2025 wording, such a label followed by
another, e.g. ‵modelcontextprotocol.io/‵) and the configured prefixes
(default ‵ui/‵, ‵ui‵, ‵openai/‵: UI templates) carry protocol or host semantics. Reported
instead of the generic ‵tool-meta-*‵ rules; set ‵reservedMetaPrefixes‵ in ‵.mcp-surface.yaml‵.`),
		surfaceChange(ToolExecutionTaskSupportRequired, SeverityBreaking, "input", "wire",
			"execution.taskSupport became required",
			`Plain (non-task) ‵tools/call‵ requests are no longer accepted. An absent value means
‵forbidden‵ (2025-11-25).`),
		surfaceChange(ToolExecutionTaskSupportForbidden, SeverityBreaking, "input", "wire",
			"execution.taskSupport became forbidden",
			`Task-augmented calls are now rejected. An absent value means ‵forbidden‵.`),
		surfaceChange(ToolExecutionTaskSupportOptional, SeverityMinor, "input", "",
			"execution.taskSupport became optional",
			`The tool accepts strictly more call styles.`),
		surfaceChange(ToolInputSchemaDialectChanged, SeverityRisky, "input", "",
			"inputSchema.$schema changed",
			`Keyword semantics differ between dialects (array ‵items‵ vs ‵prefixItems‵,
‵dependencies‵, ‵$ref‵ siblings, ‵definitions‵/‵$defs‵). The comparison runs on a
normalized form, but validators may behave differently. An absent ‵$schema‵ means 2020-12;
URIs are compared without a trailing ‵#‵ and regardless of http/https.`),
		surfaceChange(ToolOutputSchemaAdded, SeverityMinor, "output", "",
			"The tool now declares an outputSchema",
			`A new guarantee: ‵structuredContent‵ is now promised and servers must conform to it.`),
		surfaceChange(ToolOutputSchemaRemoved, SeverityBreaking, "output", "wire",
			"The tool no longer declares an outputSchema",
			`Clients that validated or consumed ‵structuredContent‵ lose the guarantee, and usually
the data.`),
		surfaceChange(ToolOutputSchemaDialectChanged, SeverityRisky, "output", "",
			"outputSchema.$schema changed",
			`As for ‵tool-input-schema-dialect-changed‵, in the forward direction.`),
		surfaceChange(ToolInputEnumOrderChanged, SeverityPatch, "input", "llm",
			"An input enum lists the same values in another order",
			`Every call that was valid still is, but hosts show the values to the model in the order
served, and models favour the first ones: the change can shift which value a model picks.
The snapshot keeps enum order for this reason (only ‵required‵ and ‵type‵ are sorted).
Reported instead of ‵input-schema-equivalent-rewrite‵ when the reorder is the only edit of the
schema; when values were also added or removed, those are reported and the order is not.`),
		surfaceChange(ToolOutputEnumOrderChanged, SeverityPatch, "output", "llm",
			"An output enum lists the same values in another order",
			`The results allowed are the same; the model reads the schema's values in the new order.
As for ‵tool-input-enum-order-changed‵, in the forward direction.`),
		surfaceChange(ToolListOrderChanged, SeverityInfo, "meta", "llm",
			"The order of tools in tools/list changed",
			`The order changes the model's prompt prefix (cache invalidation, selection bias) but not
the contract.

**Not observable from snapshots.** A snapshot is canonical: items are sorted by name so that
the file is byte-identical however the server ordered its lists. Two snapshots therefore
cannot show an order change, and the diff never emits this rule; it is kept in the table
(IDs are a public contract) for a future capture-level comparison of the served order.`),
		surfaceChange(ToolUnknownFieldChanged, SeverityInfo, "meta", "",
			"A tool field the specification does not define changed",
			`Not in the catalog: the snapshot keeps every field as served, and a change the rules
cannot judge is reported rather than dropped (this includes unknown keys of ‵execution‵).
Conforming clients ignore such fields, hence info.`),
	}
}
