package rules

const (
	ToolNameInvalid         = "tool-name-invalid"
	DuplicateIdentity       = "duplicate-identity"
	DescriptionMissing      = "description-missing"
	SchemaRequiredUndefined = "schema-required-undefined"
	TextHiddenCharacters    = "text-hidden-characters"
	TextAnsiEscape          = "text-ansi-escape"
	TextInjectionMarker     = "text-injection-marker"
)

// Lint rules: SHOULDs of the MCP specification and practices that keep a
// surface usable and safe for the models that read it. Reported by
// pkg/spec.
func lintRules() []Rule {
	return []Rule{
		{
			ID: ToolNameInvalid, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "A tool name is not 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot",
			Help: `Since 2025-11-25 the specification says tool names SHOULD be 1 to 128 characters long
and use only ASCII letters, digits, ` + "`_`" + `, ` + "`-`" + ` and ` + "`.`" + ` (no spaces, commas or other
characters). Hosts build function names for the model from tool names, and several
model APIs refuse names outside a similar set, so such a tool may be dropped or renamed by
the host.

Rename the tool (a rename is a breaking change for existing callers: ship it with a
deprecation period if the tool is in use).`,
		},
		{
			ID: DuplicateIdentity, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "Two items of one list share an identity (tool or prompt name, resource URI, template)",
			Help: `A tool or prompt is addressed by its name, a resource by its URI and a resource template
by its URI template. When a list (over all its pages) repeats one, clients keep one of the
two at random, and calls may reach a different item than the one the model read.

Give every item a unique identity. A repeated item across pages is often a pagination bug
(a cursor that does not advance).`,
		},
		{
			ID: DescriptionMissing, Kind: KindLint, Level: LevelNote,
			Tags:    []string{"lint", "llm"},
			Summary: "A tool, prompt, resource or resource template has no description",
			Help: `The description is what the model reads to decide whether and how to use an item. Without
one it guesses from the name, and picks the wrong tool or none.

Add a short description that says what the item does, when to use it and what it returns.`,
		},
		{
			ID: SchemaRequiredUndefined, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "wire"},
			Summary: "A schema requires a property it does not define",
			Help: `A ` + "`required`" + ` list in a tool's ` + "`inputSchema`" + ` or ` + "`outputSchema`" + ` (at any depth) names a property
that the schema does not define under ` + "`properties`" + ` (nor under ` + "`patternProperties`" + `, a
composition branch, or the parent a branch constrains). The model is told the argument is
mandatory but not what it is; usually it is a typo or a renamed property, and every call
then fails validation.

Define the property, or remove it from ` + "`required`" + `.`,
		},
		{
			ID: TextHiddenCharacters, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "sec", "llm"},
			Summary: "Model-visible text contains invisible or bidirectional-control characters",
			Help: `A description, title, schema description, prompt argument description or the server's
instructions contain characters a reviewer does not see but the model reads: zero-width
characters, bidirectional controls (which reorder what a reviewer sees), Unicode tag
characters (U+E0000 to U+E007F, which can spell out a whole hidden instruction) and other
invisible code points. This is how instructions are smuggled into tool metadata.

Remove them. If the text is generated, strip format characters before serving it.`,
		},
		{
			ID: TextAnsiEscape, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "sec", "llm"},
			Summary: "Model-visible text contains ANSI terminal escape sequences",
			Help: `Terminal escape sequences in a description can hide or rewrite text when a person reviews
the server in a terminal, while the model still reads all of it. Legitimate metadata has
no reason to carry them.

Remove the escape sequences (they often come from colored log or CLI output pasted into a
description).`,
		},
		{
			ID: TextInjectionMarker, Kind: KindLint, Level: LevelWarning,
			Tags:    []string{"lint", "sec", "llm", "heur"},
			Summary: "Model-visible text contains instructions aimed at the model",
			Help: `A description or the server's instructions contain text shaped like a prompt injection:
"ignore previous instructions", pseudo-tags such as ` + "`<IMPORTANT>`" + ` or ` + "`<system>`" + `, "do not tell
the user", or directions to read secrets such as ` + "`~/.ssh`" + ` or ` + "`.env`" + ` before using a tool. This
is the shape of tool poisoning: metadata that the user never sees steers the model.

This check is a heuristic and may fire on honest text; reword it so that it describes the
tool instead of commanding the model, and never ask for credentials or files unrelated to
the tool's job.`,
		},
	}
}
