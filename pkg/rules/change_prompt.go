package rules

// Section G of the rule catalog: prompts and prompt arguments. Prompt
// arguments are an input contract without a JSON Schema.

const (
	PromptRemoved                    = "prompt-removed"
	PromptRemovedAfterDeprecation    = "prompt-removed-after-deprecation"
	PromptAdded                      = "prompt-added"
	PromptRenamed                    = "prompt-renamed"
	PromptTitleChanged               = "prompt-title-changed"
	PromptDescriptionChanged         = "prompt-description-changed"
	PromptIconsChanged               = "prompt-icons-changed"
	PromptMetaChanged                = "prompt-meta-changed"
	PromptArgumentAddedRequired      = "prompt-argument-added-required"
	PromptArgumentAddedOptional      = "prompt-argument-added-optional"
	PromptArgumentRemoved            = "prompt-argument-removed"
	PromptArgumentBecameRequired     = "prompt-argument-became-required"
	PromptArgumentBecameOptional     = "prompt-argument-became-optional"
	PromptArgumentRenamed            = "prompt-argument-renamed"
	PromptArgumentOrderChanged       = "prompt-argument-order-changed"
	PromptArgumentDescriptionChanged = "prompt-argument-description-changed"
	PromptArgumentTitleChanged       = "prompt-argument-title-changed"
	PromptMessagesChanged            = "prompt-messages-changed"
	PromptUnknownFieldChanged        = "prompt-unknown-field-changed"
)

func promptChangeRules() []Rule {
	return []Rule{
		surfaceChange(PromptRemoved, SeverityBreaking, "surface", "wire",
			"A prompt is no longer listed",
			`‵prompts/get‵ for it fails and the slash command built on it disappears.`+lifecycleHelp),
		surfaceChange(PromptRemovedAfterDeprecation, SeverityRisky, "surface", "lifecycle",
			"A deprecated prompt was removed",
			`Replaces ‵prompt-removed‵; users were warned, but it still needs a major version.`+lifecycleHelp),
		surfaceChange(PromptAdded, SeverityMinor, "surface", "",
			"A new prompt is listed",
			`Additive.`),
		surfaceChange(PromptRenamed, SeverityBreaking, "surface", "heur",
			"A removed prompt and an added prompt look like a rename",
			`Paired when their names are the same words in another case style (‵codeReview‵ →
‵code_review‵: case, ‵-‵, ‵_‵, ‵.‵ and camelCase boundaries aside), whatever else changed, or
when both have the same arguments (names and required flags) and the same, or very similar,
description. Reported instead of the removal and the addition; ‵prompts/get‵ with
the old name still fails. The two prompts are then compared as one under the new name.`),
		surfaceChange(PromptTitleChanged, SeverityPatch, "meta", "",
			"The prompt's title was added, changed or removed",
			`Display only.`),
		surfaceChange(PromptDescriptionChanged, SeverityPatch, "meta", "llm,sec",
			"The prompt's description was added, changed or removed",
			`User- and model-visible text. The finding carries the text diff.`),
		surfaceChange(PromptIconsChanged, SeverityPatch, "meta", "",
			"The prompt's icons changed",
			`Display only. A new icon origin or SVG is ‵tool-icon-origin-changed‵ (subject prompt).`),
		surfaceChange(PromptMetaChanged, SeverityInfo, "meta", "",
			"The prompt's _meta changed",
			`Opaque by default. One finding per added, removed or changed key.`),
		surfaceChange(PromptArgumentAddedRequired, SeverityBreaking, "input", "wire",
			"A new required argument",
			`Existing invocations lack it and fail.`),
		surfaceChange(PromptArgumentAddedOptional, SeverityMinor, "input", "",
			"A new optional argument",
			`Additive.`),
		surfaceChange(PromptArgumentRemoved, SeverityRisky, "input", "",
			"An argument was removed",
			`Invocations that pass it usually still succeed but the value is ignored; strict servers
reject it.`),
		surfaceChange(PromptArgumentBecameRequired, SeverityBreaking, "input", "wire",
			"An argument became required",
			`Invocations that omitted it fail. An absent ‵required‵ means false.`),
		surfaceChange(PromptArgumentBecameOptional, SeverityMinor, "input", "",
			"An argument became optional",
			`Accepts more.`),
		surfaceChange(PromptArgumentRenamed, SeverityBreaking, "input", "heur",
			"A removed and an added argument look like a rename",
			`Paired when both have the same non-empty description. Reported instead of the removal and
the addition: the server no longer reads the old name.`),
		surfaceChange(PromptArgumentOrderChanged, SeverityRisky, "input", "",
			"The order of the prompt's arguments changed",
			`Some hosts expose prompts as slash commands and fill space-separated arguments by
position; reordering silently swaps values there. Compared on the arguments present in both.`),
		surfaceChange(PromptArgumentDescriptionChanged, SeverityPatch, "meta", "llm,sec",
			"An argument's description changed",
			`User- and model-visible text. The finding carries the text diff.`),
		surfaceChange(PromptArgumentTitleChanged, SeverityPatch, "meta", "",
			"An argument's title changed",
			`Display only.`),
		surfaceChange(PromptMessagesChanged, SeverityPatch, "output", "llm,sec",
			"The rendered messages of a prompt changed",
			`Prompt text goes straight into the conversation.

**Not observable yet.** This needs the rendered ‵prompts/get‵ result for recorded fixture
arguments (per-server ‵probes:‵ in ‵.mcp-surface.yaml‵), which snapshots do not record yet; the
diff never emits it today. The ID is reserved for that capture.`),
		surfaceChange(PromptUnknownFieldChanged, SeverityInfo, "meta", "",
			"A prompt or argument field the specification does not define changed",
			`Not in the catalog: reported rather than dropped. Conforming clients ignore such fields.`),
	}
}
