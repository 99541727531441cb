package rules

import "strings"

// Section E of the rule catalog: changes inside a tool's inputSchema,
// reported by pkg/schemadiff in the input direction (BACKWARD: every call
// that was valid against base must stay valid against head).

// schemaChange builds one input-* or output-* rule; the direction follows
// from the prefix. tags is a comma-separated list; ‵ in help stands for a
// backtick.
func schemaChange(id string, sev Severity, tags, summary, help string) Rule {
	dir := "input"
	if strings.HasPrefix(id, "output-") {
		dir = "output"
	}
	var ts []string
	if tags != "" {
		ts = strings.Split(tags, ",")
	}
	return Rule{
		ID: id, Kind: KindChange, Severity: sev, Level: sev.Level(), Direction: dir, Tags: ts,
		Summary: summary, Help: strings.TrimSpace(strings.ReplaceAll(help, "‵", "`")),
	}
}

const inputDirHelp = `

**Direction.** Tool arguments are data clients send: a change is safe when every call that
was valid against the base schema is still valid against the head schema (L(base) ⊆ L(head)).
The finding's pointers point into both schemas as written (through ‵$ref‵s).`

const inputStrictHelp = `

**Profiles.** This rule carries the ‵strict‵ tag: its default severity is a compromise
between strict and lenient set semantics for open content models. The ‵strict‵ profile in
‵.mcp-surface.yaml‵ raises it, the ‵lenient‵ profile lowers it.`

const inputFailClosedHelp = `

**Fail closed.** mcp-surface never drops a difference it cannot classify and never calls it
harmless: it is reported here, with the reason in the message. Acknowledge it in
‵.mcp-surface.yaml‵ with a reason once you have checked it.`

const (
	InputSchemaUndecidable                  = "input-schema-undecidable"
	InputRefUnresolvable                    = "input-ref-unresolvable"
	InputSchemaEquivalentRewrite            = "input-schema-equivalent-rewrite"
	InputTypeChanged                        = "input-type-changed"
	InputTypeNarrowed                       = "input-type-narrowed"
	InputTypeWidened                        = "input-type-widened"
	InputTypeConstraintAdded                = "input-type-constraint-added"
	InputTypeConstraintRemoved              = "input-type-constraint-removed"
	InputBecameNotNullable                  = "input-became-not-nullable"
	InputBecameNullable                     = "input-became-nullable"
	InputEnumValueRemoved                   = "input-enum-value-removed"
	InputEnumValueAdded                     = "input-enum-value-added"
	InputEnumAdded                          = "input-enum-added"
	InputEnumRemoved                        = "input-enum-removed"
	InputConstAdded                         = "input-const-added"
	InputConstChanged                       = "input-const-changed"
	InputConstRemoved                       = "input-const-removed"
	InputDefaultChanged                     = "input-default-changed"
	InputDefaultAdded                       = "input-default-added"
	InputDefaultRemoved                     = "input-default-removed"
	InputExamplesChanged                    = "input-examples-changed"
	InputRequiredPropertyAdded              = "input-required-property-added"
	InputRequiredPropertyWithDefaultAdded   = "input-required-property-with-default-added"
	InputOptionalPropertyAdded              = "input-optional-property-added"
	InputPropertyBecameRequired             = "input-property-became-required"
	InputPropertyBecameOptional             = "input-property-became-optional"
	InputPropertyRemovedClosedSchema        = "input-property-removed-closed-schema"
	InputPropertyRemovedOpenSchema          = "input-property-removed-open-schema"
	InputPropertyRemovedCovered             = "input-property-removed-covered"
	InputPropertyRemovedNotCovered          = "input-property-removed-not-covered"
	InputPropertyRenamed                    = "input-property-renamed"
	InputAdditionalPropertiesDisallowed     = "input-additional-properties-disallowed"
	InputAdditionalPropertiesAllowed        = "input-additional-properties-allowed"
	InputAdditionalPropertiesSchemaNarrowed = "input-additional-properties-schema-narrowed"
	InputAdditionalPropertiesSchemaWidened  = "input-additional-properties-schema-widened"
	InputUnevaluatedPropertiesDisallowed    = "input-unevaluated-properties-disallowed"
	InputUnevaluatedPropertiesAllowed       = "input-unevaluated-properties-allowed"
	InputPatternPropertyAdded               = "input-pattern-property-added"
	InputPatternPropertyRemoved             = "input-pattern-property-removed"
	InputPropertyNamesConstraintAdded       = "input-property-names-constraint-added"
	InputPropertyNamesConstraintRemoved     = "input-property-names-constraint-removed"
	InputMinPropertiesIncreased             = "input-min-properties-increased"
	InputMinPropertiesDecreased             = "input-min-properties-decreased"
	InputMaxPropertiesDecreased             = "input-max-properties-decreased"
	InputMaxPropertiesIncreased             = "input-max-properties-increased"
	InputDependentRequiredAdded             = "input-dependent-required-added"
	InputDependentRequiredRemoved           = "input-dependent-required-removed"
	InputDependentSchemaAdded               = "input-dependent-schema-added"
	InputDependentSchemaRemoved             = "input-dependent-schema-removed"
	InputItemsSchemaAdded                   = "input-items-schema-added"
	InputItemsSchemaRemoved                 = "input-items-schema-removed"
	InputPrefixItemsAdded                   = "input-prefix-items-added"
	InputPrefixItemsRemoved                 = "input-prefix-items-removed"
	InputMinItemsIncreased                  = "input-min-items-increased"
	InputMinItemsDecreased                  = "input-min-items-decreased"
	InputMaxItemsDecreased                  = "input-max-items-decreased"
	InputMaxItemsIncreased                  = "input-max-items-increased"
	InputUniqueItemsEnabled                 = "input-unique-items-enabled"
	InputUniqueItemsDisabled                = "input-unique-items-disabled"
	InputContainsAdded                      = "input-contains-added"
	InputContainsRemoved                    = "input-contains-removed"
	InputContainsBoundsTightened            = "input-contains-bounds-tightened"
	InputContainsBoundsRelaxed              = "input-contains-bounds-relaxed"
	InputExtraItemsDisallowed               = "input-extra-items-disallowed"
	InputExtraItemsAllowed                  = "input-extra-items-allowed"
	InputMinLengthIncreased                 = "input-min-length-increased"
	InputMinLengthDecreased                 = "input-min-length-decreased"
	InputMaxLengthDecreased                 = "input-max-length-decreased"
	InputMaxLengthIncreased                 = "input-max-length-increased"
	InputPatternAdded                       = "input-pattern-added"
	InputPatternChanged                     = "input-pattern-changed"
	InputPatternRelaxed                     = "input-pattern-relaxed"
	InputPatternRemoved                     = "input-pattern-removed"
	InputFormatAdded                        = "input-format-added"
	InputFormatChanged                      = "input-format-changed"
	InputFormatRemoved                      = "input-format-removed"
	InputContentEncodingChanged             = "input-content-encoding-changed"
	InputContentMediaTypeChanged            = "input-content-media-type-changed"
	InputContentSchemaChanged               = "input-content-schema-changed"
	InputMinimumIncreased                   = "input-minimum-increased"
	InputMinimumDecreased                   = "input-minimum-decreased"
	InputMaximumDecreased                   = "input-maximum-decreased"
	InputMaximumIncreased                   = "input-maximum-increased"
	InputExclusiveMinimumIncreased          = "input-exclusive-minimum-increased"
	InputExclusiveMinimumDecreased          = "input-exclusive-minimum-decreased"
	InputExclusiveMaximumDecreased          = "input-exclusive-maximum-decreased"
	InputExclusiveMaximumIncreased          = "input-exclusive-maximum-increased"
	InputMultipleOfTightened                = "input-multiple-of-tightened"
	InputMultipleOfRelaxed                  = "input-multiple-of-relaxed"
	InputAnyOfBranchRemoved                 = "input-any-of-branch-removed"
	InputAnyOfBranchAdded                   = "input-any-of-branch-added"
	InputOneOfBranchRemoved                 = "input-one-of-branch-removed"
	InputOneOfBranchAdded                   = "input-one-of-branch-added"
	InputAllOfSubschemaAdded                = "input-all-of-subschema-added"
	InputAllOfSubschemaRemoved              = "input-all-of-subschema-removed"
	InputCompositionAnnotationOnlyChanged   = "input-composition-annotation-only-changed"
	InputCompositionKeywordNarrowed         = "input-composition-keyword-narrowed"
	InputCompositionKeywordWidened          = "input-composition-keyword-widened"
	InputWrappedInComposition               = "input-wrapped-in-composition"
	InputCompositionAdded                   = "input-composition-added"
	InputCompositionRemoved                 = "input-composition-removed"
	InputNotAdded                           = "input-not-added"
	InputNotRemoved                         = "input-not-removed"
	InputNotChanged                         = "input-not-changed"
	InputConditionalAdded                   = "input-conditional-added"
	InputConditionalRemoved                 = "input-conditional-removed"
	InputConditionalChanged                 = "input-conditional-changed"
	InputPropertyDescriptionChanged         = "input-property-description-changed"
	InputPropertyTitleChanged               = "input-property-title-changed"
	InputPropertyDeprecated                 = "input-property-deprecated"
	InputDeprecatedPropertyRemoved          = "input-deprecated-property-removed"
	InputReadWriteOnlyChanged               = "input-read-write-only-changed"
	InputMcpHeaderAdded                     = "input-mcp-header-added"
	InputMcpHeaderChanged                   = "input-mcp-header-changed"
	InputMcpHeaderRemoved                   = "input-mcp-header-removed"
)

func inputChangeRules() []Rule {
	return []Rule{
		schemaChange(InputSchemaUndecidable, SeverityRisky, "",
			"An input schema change could not be proven safe or unsafe",
			`The comparison found a difference it cannot judge: a keyword it does not model (vendor
extensions, ‵$dynamicRef‵, a keyword in an unsupported form), nesting deeper than the
recursion bound, overlapping ‵oneOf‵ branches, or any difference between the normalized
schemas that no other rule explains.

**What to do.** Read the message and the before/after values; if calls that used to work
still validate, acknowledge the finding.`+inputFailClosedHelp+inputDirHelp),
		schemaChange(InputRefUnresolvable, SeverityRisky, "",
			"A $ref in the input schema cannot be resolved",
			`The referenced subschema is missing, names an unknown anchor, or is external (external
references are not fetched). Whatever it constrains cannot be compared. The same unresolved
‵$ref‵ on both sides compares equal.

**What to do.** Inline the referenced schema or point the ‵$ref‵ at ‵#/$defs/...‵.`+inputDirHelp),
		schemaChange(InputSchemaEquivalentRewrite, SeverityInfo, "",
			"The input schema was rewritten without changing what it accepts",
			`The raw JSON differs but the normalized forms accept the same values: a ‵$ref‵ inlined or
extracted, ‵definitions‵ renamed to ‵$defs‵, draft-07 spellings (‵items‵ arrays,
‵additionalItems‵, ‵dependencies‵, boolean ‵exclusiveMinimum‵) turned into 2020-12 ones,
‵type: ["x"]‵ written as ‵"x"‵, one of the three null encodings replaced by another,
‵required‵/‵enum‵/‵type‵ reordered, integer bounds at ±(2^53−1) added or dropped, a
‵$comment‵ or ‵deprecated: false‵ changed. Also used when an ‵anyOf‵ branch is removed
whose values another branch still accepts. Reported at the highest place where nothing else
changed.

**What to do.** Nothing; hidden by default.`+inputDirHelp),
		schemaChange(InputTypeChanged, SeverityBreaking, "wire",
			"An input type was replaced by a disjoint type",
			`Every value of the old type is rejected now (for example ‵string‵ → ‵object‵), so every
call that set this argument fails validation.

**What to do.** Accept both types for a while (‵type: [old, new]‵ or ‵anyOf‵), or add a new
argument and deprecate the old one.`+inputDirHelp),
		schemaChange(InputTypeNarrowed, SeverityBreaking, "wire",
			"A type was removed from an input's type set, or number became integer",
			`Calls that sent a value of the removed type (or a non-integral number) are rejected.
When the type set lost some types and gained others, both this rule and
‵input-type-widened‵ are reported.

**What to do.** Keep accepting the removed type, or ship a major version.`+inputDirHelp),
		schemaChange(InputTypeWidened, SeverityMinor, "",
			"A type was added to an input's type set, or integer became number",
			`The argument accepts strictly more values; existing calls keep working.

**What to do.** Nothing for compatibility; make sure the server handles the new type.`+inputDirHelp),
		schemaChange(InputTypeConstraintAdded, SeverityBreaking, "wire",
			"An input that accepted any JSON type now has a type",
			`Previously any JSON value was accepted here; values of other types are now rejected.

**What to do.** Check what clients actually send; if they may send other types, accept them.`+inputDirHelp),
		schemaChange(InputTypeConstraintRemoved, SeverityMinor, "",
			"An input's type constraint was dropped",
			`Any JSON type is now accepted here: strictly more values.

**What to do.** Make sure the server copes with every type it may now receive.`+inputDirHelp),
		schemaChange(InputBecameNotNullable, SeverityBreaking, "wire",
			"An input no longer accepts null",
			`Calls that sent ‵null‵ are rejected. ‵type: [x, "null"]‵, an ‵anyOf‵/‵oneOf‵ branch
‵{type: "null"}‵ and OpenAPI's ‵nullable: true‵ are treated as the same thing, so moving
between them is not reported.

**What to do.** Keep accepting ‵null‵, or ship a major version.`+inputDirHelp),
		schemaChange(InputBecameNullable, SeverityMinor, "",
			"An input now accepts null",
			`Strictly more values are accepted. Wrapping a schema as ‵oneOf: [{type: "null"}, X]‵ is
reported here (not as ‵input-wrapped-in-composition‵), since it changes what is accepted.

**What to do.** Make sure the server handles ‵null‵.`+inputDirHelp),
		schemaChange(InputEnumValueRemoved, SeverityBreaking, "wire",
			"A value was removed from an input enum",
			`Calls that sent that value are rejected. The pointer names the removed value in the base
‵enum‵.

**What to do.** Keep accepting the value (map it to its replacement on the server), or ship
a major version.`+inputDirHelp),
		schemaChange(InputEnumValueAdded, SeverityMinor, "",
			"A value was added to an input enum",
			`The argument accepts one more value; existing calls keep working.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputEnumAdded, SeverityBreaking, "wire",
			"An input became an enum",
			`The argument used to accept any value of its type; now only the listed values.

**What to do.** Make sure every value clients send today is listed.`+inputDirHelp),
		schemaChange(InputEnumRemoved, SeverityMinor, "",
			"An input enum was dropped",
			`Any value of the type is accepted now: strictly more.

**What to do.** Make sure the server validates or handles the values it may now receive.`+inputDirHelp),
		schemaChange(InputConstAdded, SeverityBreaking, "wire",
			"An input was restricted to a single value",
			`A ‵const‵ was introduced, or an ‵enum‵ was narrowed to one of its values: every other value
is rejected.

**What to do.** Keep accepting the other values, or ship a major version.`+inputDirHelp),
		schemaChange(InputConstChanged, SeverityBreaking, "wire",
			"An input's const value changed",
			`The only value that used to be valid is rejected now. Also reported when a ‵const‵ is
replaced by an ‵enum‵ that does not contain it, or an ‵enum‵ by a ‵const‵ outside it.

**What to do.** Accept both values during a transition (‵enum: [old, new]‵).`+inputDirHelp),
		schemaChange(InputConstRemoved, SeverityMinor, "",
			"An input's const was dropped or replaced by an enum containing it",
			`Strictly more values are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputDefaultChanged, SeverityRisky, "",
			"An input's default value changed",
			`Not a validation change, but every call that omits the argument now behaves differently.

**What to do.** Confirm the new behaviour is intended and announce it; callers relying on
the old default should pass it explicitly.`+inputDirHelp),
		schemaChange(InputDefaultAdded, SeverityMinor, "",
			"An input gained a default value",
			`Documents what the server does when the argument is omitted.

**What to do.** Make sure the documented default is what the server really does.`+inputDirHelp),
		schemaChange(InputDefaultRemoved, SeverityRisky, "",
			"An input's default value was removed",
			`Behaviour for calls that omit the argument is no longer specified; the model may start
guessing values.

**What to do.** Keep documenting the default, or make the argument required in a major
version.`+inputDirHelp),
		schemaChange(InputExamplesChanged, SeverityInfo, "llm",
			"Input examples changed",
			`‵examples‵ (or OpenAPI's ‵example‵) is an annotation only, but models read it.

**What to do.** Nothing for compatibility; review the text like any model-visible change.`+inputDirHelp),
		schemaChange(InputRequiredPropertyAdded, SeverityBreaking, "wire",
			"A new required input property was added",
			`Calls written against base do not send it and are rejected.

**What to do.** Make the property optional (with a server-side default), or ship a major
version.`+inputDirHelp),
		schemaChange(InputRequiredPropertyWithDefaultAdded, SeverityBreaking, "wire",
			"A new required input property with a default was added",
			`A ‵default‵ is an annotation: it does not make a call that omits a required property
valid, so base calls are rejected by validating clients and servers. (Confluent's checker
treats this as compatible; mcp-surface follows JSON Schema validation, as oasdiff does.)

**What to do.** Drop the property from ‵required‵ and let the server apply the default.`+inputDirHelp),
		schemaChange(InputOptionalPropertyAdded, SeverityMinor, "strict",
			"A new optional input property was added",
			`Existing calls stay valid. If the object was open (no ‵additionalProperties: false‵),
clients could already send this name with any value; the new property's schema now
constrains it, which strict set semantics call incompatible. When the base schema gave the
name an explicit schema (‵additionalProperties‵ or ‵patternProperties‵) that the new
property does not cover, ‵input-additional-properties-schema-narrowed‵ is reported instead.

**What to do.** Nothing in the default profile.`+inputStrictHelp+inputDirHelp),
		schemaChange(InputPropertyBecameRequired, SeverityBreaking, "wire",
			"An existing input property became required",
			`Calls that omitted it are rejected.

**What to do.** Keep it optional and apply a default on the server, or ship a major version.`+inputDirHelp),
		schemaChange(InputPropertyBecameOptional, SeverityMinor, "",
			"An input property is no longer required",
			`Strictly more calls are accepted.

**What to do.** Make sure the server handles calls without it.`+inputDirHelp),
		schemaChange(InputPropertyRemovedClosedSchema, SeverityBreaking, "wire",
			"An input property was removed from an object that rejects unknown keys",
			`The head object has ‵additionalProperties: false‵ (or ‵unevaluatedProperties: false‵)
and no ‵patternProperties‵ matching the name, so calls that still send the property are
rejected.

**What to do.** Keep the property (deprecated, ignored by the server) until a major version.`+inputDirHelp),
		schemaChange(InputPropertyRemovedOpenSchema, SeverityRisky, "",
			"An input property was removed from an open object",
			`Calls that send it still validate, but the server now silently ignores the value: a
behaviour change nobody is told about.

**What to do.** Deprecate first (‵deprecated: true‵), or confirm ignoring it is harmless.`+inputDirHelp),
		schemaChange(InputPropertyRemovedCovered, SeverityMinor, "",
			"An input property was removed but the remaining content model still accepts its values",
			`A matching ‵patternProperties‵ or the ‵additionalProperties‵ schema accepts every value the
removed property accepted, so base calls still validate.

**What to do.** Make sure the server still handles the name.`+inputDirHelp),
		schemaChange(InputPropertyRemovedNotCovered, SeverityBreaking, "wire",
			"An input property was removed and the remaining content model rejects some of its values",
			`The name now falls under a ‵patternProperties‵ or ‵additionalProperties‵ schema that is
narrower than the removed property's, so some base calls are rejected.

**What to do.** Keep the property, or widen the covering schema.`+inputDirHelp),
		schemaChange(InputPropertyRenamed, SeverityBreaking, "heur",
			"An input property looks renamed",
			`A property was removed and another with an equal schema added in the same object.
Reported in addition to the removal and the addition (whose own severities still apply), so
reviewers see the rename; ‵before‵ and ‵after‵ hold the two names.

**What to do.** Accept both names for a while, or ship a major version.`+inputDirHelp),
		schemaChange(InputAdditionalPropertiesDisallowed, SeverityBreaking, "wire",
			"An input object now rejects unknown keys",
			`‵additionalProperties‵ became ‵false‵ (or a ‵patternProperties‵ entry was dropped so its
names fall under ‵false‵). Models often send extra keys; those calls are rejected now.

**What to do.** Keep the object open, or ship a major version.`+inputDirHelp),
		schemaChange(InputAdditionalPropertiesAllowed, SeverityMinor, "",
			"An input object now accepts keys it rejected",
			`‵additionalProperties: false‵ was dropped or relaxed, or a new ‵patternProperties‵ entry
admits names it rejected. Strictly more calls are accepted.

**What to do.** Make sure the server ignores or handles the extra keys.`+inputDirHelp),
		schemaChange(InputAdditionalPropertiesSchemaNarrowed, SeverityBreaking, "wire",
			"The schema for extra input keys was constrained",
			`‵additionalProperties‵ went from anything to a schema, names lost a wider
‵patternProperties‵ schema, or a new property's schema is narrower than what
‵additionalProperties‵/‵patternProperties‵ allowed under its name: calls with some extra
keys are rejected. Narrowing inside an existing ‵additionalProperties‵ schema is reported by
the nested rule under ‵/additionalProperties‵.

**What to do.** Keep accepting what base accepted, or ship a major version.`+inputDirHelp),
		schemaChange(InputAdditionalPropertiesSchemaWidened, SeverityMinor, "",
			"The schema for extra input keys was relaxed",
			`Extra keys accept more values than before.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputUnevaluatedPropertiesDisallowed, SeverityBreaking, "wire",
			"unevaluatedProperties was introduced or narrowed on an input object",
			`Keys that no subschema evaluates are rejected (or constrained) now, as
‵additionalProperties: false‵ does for composed schemas.

**What to do.** Keep the object open, or ship a major version.`+inputDirHelp),
		schemaChange(InputUnevaluatedPropertiesAllowed, SeverityMinor, "",
			"unevaluatedProperties was removed or relaxed on an input object",
			`Strictly more keys are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputPatternPropertyAdded, SeverityBreaking, "wire",
			"A patternProperties entry now constrains matching input keys",
			`Values under matching names that used to be accepted may be rejected now. (When the
object was closed, a new entry admits names instead: ‵input-additional-properties-allowed‵.)

**What to do.** Make sure the pattern's schema accepts everything clients send under those
names.`+inputDirHelp),
		schemaChange(InputPatternPropertyRemoved, SeverityMinor, "strict",
			"A patternProperties entry was removed from an input object",
			`Matching names are no longer constrained by it and fall back to ‵additionalProperties‵.
When that is ‵false‵ or a narrower schema, ‵input-additional-properties-disallowed‵ or
‵-schema-narrowed‵ is reported instead.

**What to do.** Nothing when the object is open.`+inputStrictHelp+inputDirHelp),
		schemaChange(InputPropertyNamesConstraintAdded, SeverityBreaking, "wire",
			"propertyNames was introduced on an input object",
			`Some key names that were accepted are rejected now. Narrowing inside an existing
‵propertyNames‵ schema is reported by the nested rule under ‵/propertyNames‵.

**What to do.** Make sure every key clients send still matches.`+inputDirHelp),
		schemaChange(InputPropertyNamesConstraintRemoved, SeverityMinor, "",
			"propertyNames was removed from an input object",
			`Any key name is accepted now.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMinPropertiesIncreased, SeverityBreaking, "wire",
			"minProperties increased on an input object (or was added)",
			`Objects with fewer keys than the new minimum are rejected.

**What to do.** Keep the old minimum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMinPropertiesDecreased, SeverityMinor, "",
			"minProperties decreased on an input object (or was removed)",
			`Strictly more objects are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMaxPropertiesDecreased, SeverityBreaking, "wire",
			"maxProperties decreased on an input object (or was added)",
			`Objects with more keys than the new maximum are rejected.

**What to do.** Keep the old maximum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMaxPropertiesIncreased, SeverityMinor, "",
			"maxProperties increased on an input object (or was removed)",
			`Strictly more objects are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputDependentRequiredAdded, SeverityBreaking, "wire",
			"A dependentRequired entry was added or extended",
			`When the trigger key is present, more keys are required now (draft-07 ‵dependencies‵
with an array value counts too): base calls that lack them are rejected.

**What to do.** Drop the new co-requirement, or ship a major version.`+inputDirHelp),
		schemaChange(InputDependentRequiredRemoved, SeverityMinor, "",
			"A dependentRequired entry was removed or narrowed",
			`Fewer keys are co-required: strictly more calls are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputDependentSchemaAdded, SeverityBreaking, "wire",
			"A dependentSchemas entry was added",
			`When the trigger key is present the object must also satisfy the new schema (draft-07
‵dependencies‵ with a schema value counts too). Changes inside an existing entry are
reported by the nested rules.

**What to do.** Make sure base calls satisfy it, or ship a major version.`+inputDirHelp),
		schemaChange(InputDependentSchemaRemoved, SeverityMinor, "",
			"A dependentSchemas entry was removed",
			`One constraint less: strictly more calls are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputItemsSchemaAdded, SeverityBreaking, "wire",
			"Array items of an input were constrained where they were free",
			`An ‵items‵ schema (or ‵items: false‵) appeared; arrays with other elements are rejected.
Changes inside an existing ‵items‵ schema are reported by the nested rules under ‵/items‵.

**What to do.** Make sure the items schema accepts what clients send.`+inputDirHelp),
		schemaChange(InputItemsSchemaRemoved, SeverityMinor, "",
			"The items constraint of an input array was dropped",
			`Elements are unconstrained now: strictly more arrays are accepted.

**What to do.** Make sure the server validates elements it may now receive.`+inputDirHelp),
		schemaChange(InputPrefixItemsAdded, SeverityBreaking, "wire",
			"A tuple (prefixItems) was introduced or lengthened on an input array",
			`Positions get their own schema (draft-07 array-form ‵items‵ counts as ‵prefixItems‵).
Arrays whose elements do not fit are rejected; where base had an ‵items‵ schema, the new
position is also compared with it. When base rejected the extra positions (‵items: false‵),
‵input-extra-items-allowed‵ is reported instead.

**What to do.** Make sure base arrays still fit, or ship a major version.`+inputDirHelp),
		schemaChange(InputPrefixItemsRemoved, SeverityMinor, "strict",
			"A tuple (prefixItems) was removed or shortened on an input array",
			`The dropped positions fall back to ‵items‵. When head rejects them (‵items: false‵ or
‵unevaluatedItems: false‵), ‵input-extra-items-disallowed‵ is reported instead; when ‵items‵
is a schema, the dropped positions are compared with it.

**What to do.** Nothing when the tail is open.`+inputStrictHelp+inputDirHelp),
		schemaChange(InputMinItemsIncreased, SeverityBreaking, "wire",
			"minItems increased on an input array (or was added)",
			`Shorter arrays are rejected.

**What to do.** Keep the old minimum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMinItemsDecreased, SeverityMinor, "",
			"minItems decreased on an input array (or was removed)",
			`Strictly more arrays are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMaxItemsDecreased, SeverityBreaking, "wire",
			"maxItems decreased on an input array (or was added)",
			`Longer arrays are rejected.

**What to do.** Keep the old maximum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMaxItemsIncreased, SeverityMinor, "",
			"maxItems increased on an input array (or was removed)",
			`Strictly more arrays are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputUniqueItemsEnabled, SeverityBreaking, "wire",
			"An input array must now hold unique items",
			`Arrays with duplicates are rejected.

**What to do.** De-duplicate on the server instead, or ship a major version.`+inputDirHelp),
		schemaChange(InputUniqueItemsDisabled, SeverityMinor, "",
			"An input array may now hold duplicates",
			`Strictly more arrays are accepted.

**What to do.** Make sure the server handles duplicates.`+inputDirHelp),
		schemaChange(InputContainsAdded, SeverityBreaking, "wire",
			"An input array must now contain a matching element",
			`Arrays without an element matching ‵contains‵ are rejected. Narrowing inside an existing
‵contains‵ is reported by the nested rules.

**What to do.** Make sure base arrays contain such an element, or ship a major version.`+inputDirHelp),
		schemaChange(InputContainsRemoved, SeverityMinor, "",
			"An input array's contains constraint was removed",
			`Strictly more arrays are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputContainsBoundsTightened, SeverityBreaking, "wire",
			"minContains increased or maxContains decreased on an input array",
			`Fewer arrays have an acceptable number of matching elements (‵minContains‵ defaults to 1).

**What to do.** Keep the old bounds, or ship a major version.`+inputDirHelp),
		schemaChange(InputContainsBoundsRelaxed, SeverityMinor, "",
			"minContains decreased or maxContains increased on an input array",
			`Strictly more arrays are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputExtraItemsDisallowed, SeverityBreaking, "wire",
			"An input tuple now rejects elements past its positions",
			`‵items: false‵ after ‵prefixItems‵, ‵additionalItems: false‵ or ‵unevaluatedItems‵
was introduced or narrowed, or the tuple was shortened under a closed tail: longer arrays are
rejected.

**What to do.** Keep the tail open, or ship a major version.`+inputDirHelp),
		schemaChange(InputExtraItemsAllowed, SeverityMinor, "",
			"An input tuple now accepts elements past its positions",
			`The closed tail was removed or relaxed, or the tuple was lengthened into positions base
rejected: strictly more arrays are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMinLengthIncreased, SeverityBreaking, "wire",
			"minLength increased on an input string (or was added)",
			`Shorter strings are rejected.

**What to do.** Keep the old minimum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMinLengthDecreased, SeverityMinor, "",
			"minLength decreased on an input string (or was removed)",
			`Strictly more strings are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMaxLengthDecreased, SeverityBreaking, "wire",
			"maxLength decreased on an input string (or was added)",
			`Longer strings are rejected. (oasdiff reports introducing a maximum separately as a
warning; here it is breaking, since the accepted set provably shrinks.)

**What to do.** Keep the old maximum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMaxLengthIncreased, SeverityMinor, "",
			"maxLength increased on an input string (or was removed)",
			`Strictly more strings are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputPatternAdded, SeverityBreaking, "wire",
			"A pattern now restricts an input string",
			`A ‵pattern‵ was introduced, or replaced by one that is provably narrower (anchors added),
or by one that rejects a value the base schema documents as valid (its ‵enum‵, ‵const‵,
‵default‵ or ‵examples‵; the witness is in the message). Strings that matched before may be
rejected.

**What to do.** Make sure every value clients send matches, or ship a major version.`+inputDirHelp),
		schemaChange(InputPatternChanged, SeverityRisky, "",
			"An input pattern was replaced and inclusion could not be proven",
			`Regular-expression inclusion is not decidable in general (ECMA-262 lookaround and
backreferences). The comparison proves the cheap cases (anchors added or removed, patterns
every string matches) and looks for witnesses among the base schema's documented values;
otherwise it reports this.

**What to do.** Check that every string the old pattern accepted still matches.`+inputDirHelp),
		schemaChange(InputPatternRelaxed, SeverityMinor, "",
			"An input pattern was replaced by a provably wider one",
			`For example anchors were removed, or the new pattern matches every string.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputPatternRemoved, SeverityMinor, "",
			"An input pattern was dropped",
			`Strictly more strings are accepted.

**What to do.** Make sure the server validates what it relied on the pattern for.`+inputDirHelp),
		schemaChange(InputFormatAdded, SeverityRisky, "",
			"A format was added to an input string",
			`2020-12 treats ‵format‵ as an annotation by default, but format-asserting validators and
generated SDK code reject or parse differently.

**What to do.** Make sure the values clients send today conform.`+inputDirHelp),
		schemaChange(InputFormatChanged, SeverityRisky, "",
			"An input string's format changed",
			`For example ‵date‵ → ‵date-time‵: clients that format values for the schema break.

**What to do.** Accept both forms during a transition, or ship a major version.`+inputDirHelp),
		schemaChange(InputFormatRemoved, SeverityMinor, "",
			"An input string's format was dropped",
			`Strictly more strings are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputContentEncodingChanged, SeverityBreaking, "wire",
			"An input's contentEncoding was added, changed or removed",
			`Clients must encode the value differently (for example none → ‵base64‵).

**What to do.** Accept both encodings, or ship a major version.`+inputDirHelp),
		schemaChange(InputContentMediaTypeChanged, SeverityBreaking, "wire",
			"An input's contentMediaType was added, changed or removed",
			`Clients must send a different embedded document type.

**What to do.** Accept both, or ship a major version.`+inputDirHelp),
		schemaChange(InputContentSchemaChanged, SeverityRisky, "",
			"An input's contentSchema was added, changed or removed",
			`An annotation in 2020-12, but it describes the decoded payload clients build.

**What to do.** Check that payloads built for the old schema still work.`+inputDirHelp),
		schemaChange(InputMinimumIncreased, SeverityBreaking, "wire",
			"minimum increased on an input number (or was added)",
			`Smaller numbers are rejected. Integer bounds at −(2^53−1), which generators add to mean
"any integer", count as absent.

**What to do.** Keep the old minimum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMinimumDecreased, SeverityMinor, "",
			"minimum decreased on an input number (or was removed)",
			`Strictly more numbers are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMaximumDecreased, SeverityBreaking, "wire",
			"maximum decreased on an input number (or was added)",
			`Larger numbers are rejected. Integer bounds at 2^53−1 count as absent.

**What to do.** Keep the old maximum, or ship a major version.`+inputDirHelp),
		schemaChange(InputMaximumIncreased, SeverityMinor, "",
			"maximum increased on an input number (or was removed)",
			`Strictly more numbers are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputExclusiveMinimumIncreased, SeverityBreaking, "wire",
			"exclusiveMinimum increased on an input number (or was added)",
			`The boundary and smaller values are rejected (draft-04 boolean ‵exclusiveMinimum: true‵
is read as moving ‵minimum‵ here).

**What to do.** Keep the old bound, or ship a major version.`+inputDirHelp),
		schemaChange(InputExclusiveMinimumDecreased, SeverityMinor, "",
			"exclusiveMinimum decreased on an input number (or was removed)",
			`Strictly more numbers are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputExclusiveMaximumDecreased, SeverityBreaking, "wire",
			"exclusiveMaximum decreased on an input number (or was added)",
			`The boundary and larger values are rejected.

**What to do.** Keep the old bound, or ship a major version.`+inputDirHelp),
		schemaChange(InputExclusiveMaximumIncreased, SeverityMinor, "",
			"exclusiveMaximum increased on an input number (or was removed)",
			`Strictly more numbers are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputMultipleOfTightened, SeverityBreaking, "wire",
			"multipleOf was added on an input number or no longer divides the old one",
			`Numbers on the old grid that are not on the new one are rejected. Also reported when
neither value divides the other.

**What to do.** Use a divisor of the old value, or ship a major version.`+inputDirHelp),
		schemaChange(InputMultipleOfRelaxed, SeverityMinor, "",
			"multipleOf was removed on an input number or now divides the old one",
			`Every old value is still on the grid: strictly more numbers are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputAnyOfBranchRemoved, SeverityBreaking, "wire",
			"An input anyOf branch was removed",
			`Values only that branch accepted are rejected. Branches are paired first by equality,
then by a maximum matching of compatible pairs, then by type, so a modified branch is
reported by what changed inside it; a removed branch whose values another head branch still
accepts is an equivalent rewrite.

**What to do.** Keep the branch, or ship a major version.`+inputDirHelp),
		schemaChange(InputAnyOfBranchAdded, SeverityMinor, "",
			"An input anyOf branch was added",
			`Strictly more values are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputOneOfBranchRemoved, SeverityBreaking, "wire",
			"An input oneOf branch was removed",
			`Values that matched only that branch are rejected.

**What to do.** Keep the branch, or ship a major version.`+inputDirHelp),
		schemaChange(InputOneOfBranchAdded, SeverityRisky, "",
			"An input oneOf branch was added",
			`If the new branch overlaps an existing one, base values now match two branches and
‵oneOf‵ rejects them. The message says whether the branches are provably disjoint (different
types, disjoint ‵const‵/‵enum‵ values, or a required discriminator property with disjoint
values). The catalog calls the disjoint case minor, but a rule has one severity, so it stays
risky: acknowledge it, or lower it in ‵.mcp-surface.yaml‵, when the message says disjoint.

**What to do.** Make the branches disjoint (a discriminator ‵const‵), or use ‵anyOf‵.`+inputDirHelp),
		schemaChange(InputAllOfSubschemaAdded, SeverityBreaking, "wire",
			"An input allOf subschema was added",
			`Every value must satisfy one more schema.

**What to do.** Make sure base calls satisfy it, or ship a major version.`+inputDirHelp),
		schemaChange(InputAllOfSubschemaRemoved, SeverityMinor, "",
			"An input allOf subschema was removed",
			`One constraint less: strictly more values are accepted (check that no meaning was lost).

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputCompositionAnnotationOnlyChanged, SeverityInfo, "",
			"An annotation-only allOf entry was added or removed",
			`An ‵allOf‵ entry that carries only annotations (‵description‵, ‵title‵, ‵examples‵)
constrains nothing. (An annotation-only ‵anyOf‵ branch accepts every value, so it is judged as
a real branch, not reported here.)

**What to do.** Nothing.`+inputDirHelp),
		schemaChange(InputCompositionKeywordNarrowed, SeverityBreaking, "wire",
			"An input combinator became stricter",
			`‵anyOf‵ → ‵oneOf‵ (values matching several branches are rejected), or ‵anyOf‵/‵oneOf‵ →
‵allOf‵ (values must match every branch); ‵allOf‵ → ‵oneOf‵ is reported here too.

**What to do.** Keep the looser combinator, or ship a major version.`+inputDirHelp),
		schemaChange(InputCompositionKeywordWidened, SeverityMinor, "",
			"An input combinator became looser",
			`‵oneOf‵ → ‵anyOf‵ or ‵allOf‵ → ‵anyOf‵: strictly more values are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputCompositionAdded, SeverityBreaking, "wire",
			"An input anyOf or oneOf was added where there was none",
			`An absent ‵anyOf‵/‵oneOf‵ constrains nothing; adding one means every value must now
match its branches (‵oneOf‵: exactly one). Values the schema accepted before and no branch
covers are rejected. When one branch provably accepts every base value (and, for ‵oneOf‵, no
other branch can match it too) the change is an equivalent rewrite instead.

**What to do.** Add a branch that covers the old values, or ship a major version.`+inputDirHelp),
		schemaChange(InputCompositionRemoved, SeverityMinor, "",
			"An input anyOf or oneOf was removed",
			`The values no longer need to match any of its branches: strictly more values are
accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputWrappedInComposition, SeverityInfo, "",
			"An input schema was wrapped in (or unwrapped from) a single-branch combinator",
			`‵X‵ and ‵{anyOf: [X]}‵ (or ‵oneOf‵/‵allOf‵) accept the same values; reported once instead
of as type, enum or branch noise. A nullable wrapper ‵oneOf: [{type: "null"}, X]‵ changes
what is accepted and is reported as ‵input-became-nullable‵.

**What to do.** Nothing.`+inputDirHelp),
		schemaChange(InputNotAdded, SeverityBreaking, "wire",
			"A not constraint was added to an input (or the schema became false)",
			`Values matching the ‵not‵ schema are excluded now. A subschema replaced by ‵false‵ (which
accepts nothing, like ‵{not: {}}‵) is reported here too.

**What to do.** Make sure base calls do not match it, or ship a major version.`+inputDirHelp),
		schemaChange(InputNotRemoved, SeverityMinor, "",
			"A not constraint was removed from an input (or a false schema now accepts values)",
			`Values it excluded are accepted now.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputNotChanged, SeverityRisky, "",
			"An input not subschema changed",
			`The effect is the reverse of the inner change and undecidable in general, so it is not
judged.

**What to do.** Check that base calls still do not match the new ‵not‵ schema.`+inputDirHelp),
		schemaChange(InputConditionalAdded, SeverityBreaking, "wire",
			"An if/then/else was added to an input",
			`Values meeting (or failing) the condition must now satisfy ‵then‵ (or ‵else‵).

**What to do.** Make sure base calls satisfy it, or ship a major version.`+inputDirHelp),
		schemaChange(InputConditionalRemoved, SeverityMinor, "",
			"An if/then/else was removed from an input",
			`Strictly more values are accepted.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputConditionalChanged, SeverityRisky, "",
			"An input if condition changed",
			`When ‵if‵ is unchanged, changes inside ‵then‵/‵else‵ are reported by the nested rules;
a changed condition moves values between the branches and is not judged.

**What to do.** Check which calls now take the other branch.`+inputDirHelp),
		schemaChange(InputPropertyDescriptionChanged, SeverityPatch, "llm,sec",
			"An input property's description was added, changed or removed",
			`Parameter descriptions are read by the model and are a known tool-poisoning location.
Descriptions anywhere inside the input schema are reported here (the root's too); the
‵text-*‵ rules look at the added text.

**What to do.** Review the text diff like code.`+inputDirHelp),
		schemaChange(InputPropertyTitleChanged, SeverityPatch, "",
			"An input property's title was added, changed or removed",
			`Display only.

**What to do.** Nothing for compatibility.`+inputDirHelp),
		schemaChange(InputPropertyDeprecated, SeverityMinor, "lifecycle",
			"An input property was marked deprecated",
			`‵deprecated: true‵ announces a future removal. (Removing the marker has no rule of its
own and is an equivalent rewrite.)

**What to do.** Tell clients what to use instead.`+inputDirHelp),
		schemaChange(InputDeprecatedPropertyRemoved, SeverityRisky, "lifecycle",
			"An input property that was deprecated was removed",
			`Replaces the property-removal rules: clients were warned, but the removal still needs a
major version.

**What to do.** Ship a major version.`+inputDirHelp),
		schemaChange(InputReadWriteOnlyChanged, SeverityInfo, "",
			"An input's readOnly or writeOnly changed",
			`Annotation only for tool arguments.

**What to do.** Nothing.`+inputDirHelp),
		schemaChange(InputMcpHeaderAdded, SeverityMinor, "",
			"An input property gained x-mcp-header",
			`From protocol revision 2026-07-28, clients must mirror the value into the
‵Mcp-Param-{name}‵ HTTP header.

**What to do.** Make sure clients you care about send the header.`+inputDirHelp),
		schemaChange(InputMcpHeaderChanged, SeverityRisky, "wire",
			"An input property's x-mcp-header name changed",
			`Gateways and servers that route on the header see a different name.

**What to do.** Update intermediaries together with the server.`+inputDirHelp),
		schemaChange(InputMcpHeaderRemoved, SeverityRisky, "wire",
			"An input property lost its x-mcp-header",
			`Intermediaries that routed on the header lose it.

**What to do.** Update intermediaries together with the server.`+inputDirHelp),
	}
}
