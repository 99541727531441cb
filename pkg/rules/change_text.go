package rules

// Section J of the rule catalog: escalations on model-visible text.

const textHelp = `

**Where.** Evaluated on the text each model-visible field gains: tool, prompt, resource and
template ‵title‵ and ‵description‵, ‵annotations.title‵, every ‵title‵/‵description‵ inside
‵inputSchema‵ and ‵outputSchema‵, prompt-argument titles and descriptions, ‵instructions‵
and ‵serverInfo.description‵. A match is reported when head's text has it and base's text
(of the same field; empty for new items) does not. These findings add to the plain
‵*-description-changed‵ finding, never replace it, and ‵after‵ holds the offending span.
Patterns are configurable under ‵text:‵ in ‵.mcp-surface.yaml‵.`

const (
	TextHiddenCharactersAdded   = "text-hidden-characters-added"
	TextInjectionMarkerAdded    = "text-injection-marker-added"
	TextSensitiveReferenceAdded = "text-sensitive-reference-added"
	TextEncodedPayloadAdded     = "text-encoded-payload-added"
	TextCrossToolReferenceAdded = "text-cross-tool-reference-added"
	TextUrlAdded                = "text-url-added"
	TextLengthSpike             = "text-length-spike"
)

func textChangeRules() []Rule {
	return []Rule{
		surfaceChange(TextHiddenCharactersAdded, SeverityRisky, "meta", "sec",
			"Invisible characters were added to model-visible text",
			`Zero-width characters, bidi controls, Unicode tag characters (U+E0000–E007F, which can
spell out a hidden ASCII message: it is decoded in the finding), variation selectors and
other format or control characters: text the reviewer cannot see but the model reads.`+textHelp),
		surfaceChange(TextInjectionMarkerAdded, SeverityRisky, "meta", "sec,heur",
			"Instructions aimed at the model were added",
			`Markers such as ‵<IMPORTANT>‵, "ignore previous instructions", "do not tell the user",
"before using any tool": the classic tool-poisoning payload shape.`+textHelp),
		surfaceChange(TextSensitiveReferenceAdded, SeverityRisky, "meta", "sec,heur",
			"References to credentials, secret files or environment variables were added",
			`‵~/.ssh‵, ‵id_rsa‵, ‵.env‵, API keys, tokens, ‵$*_TOKEN‵: setting up exfiltration.`+textHelp),
		surfaceChange(TextEncodedPayloadAdded, SeverityRisky, "meta", "sec,heur",
			"A long base64, hex or percent-encoded run was added",
			`Obfuscated instructions hide in encoded runs. Runs shorter than ‵text.encodedMinLength‵
(default 40 characters) are ignored; a base64 run must mix cases and contain a digit or
‵+‵/‵/‵.`+textHelp),
		surfaceChange(TextCrossToolReferenceAdded, SeverityMinor, "meta", "sec,heur",
			"The text now mentions other tools or tells the model how to use them",
			`Shadowing: one tool's description steering calls to another. Other tools' and prompts'
names are matched when they look like identifiers (contain ‵_ - .‵, a digit or an inner capital)
or are quoted; phrases like "instead of using", "other tools" are matched too.`+textHelp),
		surfaceChange(TextUrlAdded, SeverityMinor, "meta", "sec",
			"A new URL or domain appeared in model-visible text",
			`A possible exfiltration endpoint or phishing link.`+textHelp),
		surfaceChange(TextLengthSpike, SeverityMinor, "meta", "sec,heur",
			"Model-visible text grew sharply",
			`Reported when a field of an existing item grew by at least ‵text.lengthSpikeMinChars‵
characters (default 200) and to at least ‵text.lengthSpikeRatio‵ times its base length
(default 2). Large silent additions deserve review. Not evaluated on new items.`+textHelp),
	}
}
