package rules

// Section F of the rule catalog: changes inside a tool's outputSchema,
// reported by pkg/schemadiff in the output direction (FORWARD: every
// result valid against head must have been valid against base).

const outputDirHelp = `

**Direction.** ‵structuredContent‵ is data servers return: a change is safe when every
result the head schema allows was already allowed by the base schema
(L(head) ⊆ L(base)), so clients built against base still accept and understand it. Servers
MUST return conforming ‵structuredContent‵; clients SHOULD validate it.`

const outputStrictHelp = `

**Profiles.** This rule carries the ‵strict‵ tag: its default severity is a compromise
between strict and lenient set semantics for open content models. The ‵strict‵ profile in
‵.mcp-surface.yaml‵ raises it, the ‵lenient‵ profile lowers it.`

const outputAnnotationHelp = `

**Annotations in outputs.** The catalog has no output rules for ‵title‵, ‵examples‵,
‵readOnly‵/‵writeOnly‵ or ‵x-mcp-header‵: they cannot change what a server returns, so
a change to them alone is ‵output-schema-equivalent-rewrite‵.`

const (
	OutputSchemaUndecidable                   = "output-schema-undecidable"
	OutputRefUnresolvable                     = "output-ref-unresolvable"
	OutputSchemaEquivalentRewrite             = "output-schema-equivalent-rewrite"
	OutputTypeChanged                         = "output-type-changed"
	OutputTypeWidened                         = "output-type-widened"
	OutputTypeNarrowed                        = "output-type-narrowed"
	OutputTypeConstraintRemoved               = "output-type-constraint-removed"
	OutputTypeConstraintAdded                 = "output-type-constraint-added"
	OutputBecameNullable                      = "output-became-nullable"
	OutputBecameNotNullable                   = "output-became-not-nullable"
	OutputEnumValueAdded                      = "output-enum-value-added"
	OutputEnumValueRemoved                    = "output-enum-value-removed"
	OutputEnumAdded                           = "output-enum-added"
	OutputEnumRemoved                         = "output-enum-removed"
	OutputConstAdded                          = "output-const-added"
	OutputConstChanged                        = "output-const-changed"
	OutputConstRemoved                        = "output-const-removed"
	OutputDefaultChanged                      = "output-default-changed"
	OutputRequiredPropertyRemoved             = "output-required-property-removed"
	OutputPropertyBecameOptional              = "output-property-became-optional"
	OutputPropertyBecameRequired              = "output-property-became-required"
	OutputOptionalPropertyRemovedOpenSchema   = "output-optional-property-removed-open-schema"
	OutputOptionalPropertyRemovedClosedSchema = "output-optional-property-removed-closed-schema"
	OutputPropertyAdded                       = "output-property-added"
	OutputPropertyAddedToClosedSchema         = "output-property-added-to-closed-schema"
	OutputPropertyRenamed                     = "output-property-renamed"
	OutputAdditionalPropertiesAllowed         = "output-additional-properties-allowed"
	OutputAdditionalPropertiesDisallowed      = "output-additional-properties-disallowed"
	OutputAdditionalPropertiesSchemaWidened   = "output-additional-properties-schema-widened"
	OutputAdditionalPropertiesSchemaNarrowed  = "output-additional-properties-schema-narrowed"
	OutputUnevaluatedPropertiesAllowed        = "output-unevaluated-properties-allowed"
	OutputUnevaluatedPropertiesDisallowed     = "output-unevaluated-properties-disallowed"
	OutputPatternPropertyRemoved              = "output-pattern-property-removed"
	OutputPatternPropertyAdded                = "output-pattern-property-added"
	OutputPropertyNamesConstraintRemoved      = "output-property-names-constraint-removed"
	OutputPropertyNamesConstraintAdded        = "output-property-names-constraint-added"
	OutputMinPropertiesDecreased              = "output-min-properties-decreased"
	OutputMinPropertiesIncreased              = "output-min-properties-increased"
	OutputMaxPropertiesIncreased              = "output-max-properties-increased"
	OutputMaxPropertiesDecreased              = "output-max-properties-decreased"
	OutputDependentRequiredRemoved            = "output-dependent-required-removed"
	OutputDependentRequiredAdded              = "output-dependent-required-added"
	OutputDependentSchemaRemoved              = "output-dependent-schema-removed"
	OutputDependentSchemaAdded                = "output-dependent-schema-added"
	OutputItemsSchemaRemoved                  = "output-items-schema-removed"
	OutputItemsSchemaAdded                    = "output-items-schema-added"
	OutputPrefixItemsRemoved                  = "output-prefix-items-removed"
	OutputPrefixItemsAdded                    = "output-prefix-items-added"
	OutputMinItemsDecreased                   = "output-min-items-decreased"
	OutputMinItemsIncreased                   = "output-min-items-increased"
	OutputMaxItemsIncreased                   = "output-max-items-increased"
	OutputMaxItemsDecreased                   = "output-max-items-decreased"
	OutputUniqueItemsDisabled                 = "output-unique-items-disabled"
	OutputUniqueItemsEnabled                  = "output-unique-items-enabled"
	OutputContainsRemoved                     = "output-contains-removed"
	OutputContainsAdded                       = "output-contains-added"
	OutputContainsBoundsRelaxed               = "output-contains-bounds-relaxed"
	OutputContainsBoundsTightened             = "output-contains-bounds-tightened"
	OutputExtraItemsAllowed                   = "output-extra-items-allowed"
	OutputExtraItemsDisallowed                = "output-extra-items-disallowed"
	OutputMinLengthDecreased                  = "output-min-length-decreased"
	OutputMinLengthIncreased                  = "output-min-length-increased"
	OutputMaxLengthIncreased                  = "output-max-length-increased"
	OutputMaxLengthDecreased                  = "output-max-length-decreased"
	OutputPatternRemoved                      = "output-pattern-removed"
	OutputPatternChanged                      = "output-pattern-changed"
	OutputPatternAdded                        = "output-pattern-added"
	OutputFormatRemoved                       = "output-format-removed"
	OutputFormatChanged                       = "output-format-changed"
	OutputFormatAdded                         = "output-format-added"
	OutputContentEncodingChanged              = "output-content-encoding-changed"
	OutputContentMediaTypeChanged             = "output-content-media-type-changed"
	OutputMinimumDecreased                    = "output-minimum-decreased"
	OutputMinimumIncreased                    = "output-minimum-increased"
	OutputMaximumIncreased                    = "output-maximum-increased"
	OutputMaximumDecreased                    = "output-maximum-decreased"
	OutputExclusiveMinimumDecreased           = "output-exclusive-minimum-decreased"
	OutputExclusiveMinimumIncreased           = "output-exclusive-minimum-increased"
	OutputExclusiveMaximumIncreased           = "output-exclusive-maximum-increased"
	OutputExclusiveMaximumDecreased           = "output-exclusive-maximum-decreased"
	OutputMultipleOfRelaxed                   = "output-multiple-of-relaxed"
	OutputMultipleOfTightened                 = "output-multiple-of-tightened"
	OutputAnyOfBranchAdded                    = "output-any-of-branch-added"
	OutputAnyOfBranchRemoved                  = "output-any-of-branch-removed"
	OutputOneOfBranchAdded                    = "output-one-of-branch-added"
	OutputOneOfBranchRemoved                  = "output-one-of-branch-removed"
	OutputAllOfSubschemaRemoved               = "output-all-of-subschema-removed"
	OutputAllOfSubschemaAdded                 = "output-all-of-subschema-added"
	OutputCompositionAnnotationOnlyChanged    = "output-composition-annotation-only-changed"
	OutputCompositionKeywordWidened           = "output-composition-keyword-widened"
	OutputCompositionKeywordNarrowed          = "output-composition-keyword-narrowed"
	OutputWrappedInComposition                = "output-wrapped-in-composition"
	OutputCompositionAdded                    = "output-composition-added"
	OutputCompositionRemoved                  = "output-composition-removed"
	OutputNotRemoved                          = "output-not-removed"
	OutputNotAdded                            = "output-not-added"
	OutputNotChanged                          = "output-not-changed"
	OutputConditionalRemoved                  = "output-conditional-removed"
	OutputConditionalAdded                    = "output-conditional-added"
	OutputConditionalChanged                  = "output-conditional-changed"
	OutputPropertyDescriptionChanged          = "output-property-description-changed"
	OutputPropertyDeprecated                  = "output-property-deprecated"
	OutputDeprecatedPropertyRemoved           = "output-deprecated-property-removed"
)

func outputChangeRules() []Rule {
	return []Rule{
		schemaChange(OutputSchemaUndecidable, SeverityRisky, "",
			"An output schema change could not be proven safe or unsafe",
			`The comparison found a difference it cannot judge: a keyword it does not model (vendor
extensions, ‵$dynamicRef‵, a keyword in an unsupported form, ‵contentSchema‵), nesting deeper
than the recursion bound, overlapping ‵oneOf‵ branches, a combinator changed from ‵allOf‵ to
‵oneOf‵, or any difference between the normalized schemas that no other rule explains.

**Fail closed.** It is never dropped and never called harmless. Read the message and the
before/after values; acknowledge the finding once you have checked that clients still accept
every result.`+outputDirHelp),
		schemaChange(OutputRefUnresolvable, SeverityRisky, "",
			"A $ref in the output schema cannot be resolved",
			`The referenced subschema is missing, names an unknown anchor, or is external (external
references are not fetched); it cannot be compared. The same unresolved ‵$ref‵ on both sides
compares equal.

**What to do.** Inline the schema or point the ‵$ref‵ at ‵#/$defs/...‵.`+outputDirHelp),
		schemaChange(OutputSchemaEquivalentRewrite, SeverityInfo, "",
			"The output schema was rewritten without changing what it allows",
			`The raw JSON differs but the normalized forms allow the same results (‵$ref‵ inlined or
extracted, ‵definitions‵ → ‵$defs‵, draft-07 spellings, null encodings, reordered
‵required‵/‵enum‵/‵type‵, integer bounds at ±(2^53−1)), or only an annotation without an
output rule changed. Also used when an added ‵anyOf‵ branch only allows values a base branch
already allowed.

**What to do.** Nothing; hidden by default.`+outputAnnotationHelp+outputDirHelp),
		schemaChange(OutputTypeChanged, SeverityBreaking, "wire",
			"An output type was replaced by a disjoint type",
			`Clients parse the old type and fail on every result.

**What to do.** Return a new field instead, or ship a major version.`+outputDirHelp),
		schemaChange(OutputTypeWidened, SeverityBreaking, "wire",
			"An output may now have another type (or integer became number)",
			`Clients may receive a type they cannot handle. When the type set lost some types and
gained others, both this rule and ‵output-type-narrowed‵ are reported.

**What to do.** Keep the type set, or ship a major version.`+outputDirHelp),
		schemaChange(OutputTypeNarrowed, SeverityMinor, "",
			"An output's type set lost a type (or number became integer)",
			`Results are a subset of what clients handle.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputTypeConstraintRemoved, SeverityBreaking, "wire",
			"An output's type constraint was dropped",
			`Any JSON type may now be returned here.

**What to do.** Keep the type, or ship a major version.`+outputDirHelp),
		schemaChange(OutputTypeConstraintAdded, SeverityMinor, "",
			"An output that could be of any type now has a type",
			`Results are a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputBecameNullable, SeverityBreaking, "wire",
			"An output may now be null",
			`Clients that dereference the value break. The three null encodings (‵type: [x, "null"]‵,
a ‵{type: "null"}‵ branch, ‵nullable: true‵) are treated alike; wrapping a schema as
‵oneOf: [{type: "null"}, X]‵ is reported here.

**What to do.** Omit the field instead of returning ‵null‵, or ship a major version.`+outputDirHelp),
		schemaChange(OutputBecameNotNullable, SeverityMinor, "",
			"An output is no longer null",
			`Results are a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputEnumValueAdded, SeverityBreaking, "wire",
			"A value was added to an output enum",
			`Clients that handle the values exhaustively break on the new one.

**What to do.** Announce it and ship a major version, or acknowledge the finding for enums
that are documented as extensible.`+outputDirHelp),
		schemaChange(OutputEnumValueRemoved, SeverityMinor, "",
			"A value was removed from an output enum",
			`Results are a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputEnumAdded, SeverityMinor, "",
			"An output became an enum",
			`Results are a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputEnumRemoved, SeverityBreaking, "wire",
			"An output enum was dropped",
			`Arbitrary values may be returned.

**What to do.** Keep the enum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputConstAdded, SeverityMinor, "",
			"An output was restricted to a single value",
			`A ‵const‵ was introduced or an ‵enum‵ narrowed to one of its values: a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputConstChanged, SeverityBreaking, "wire",
			"An output's const value changed",
			`Clients expect the old constant. Also reported when a ‵const‵ becomes an ‵enum‵ without
it, or an ‵enum‵ a ‵const‵ outside it.

**What to do.** Keep the old value, or ship a major version.`+outputDirHelp),
		schemaChange(OutputConstRemoved, SeverityBreaking, "wire",
			"An output's const was dropped or widened to an enum",
			`Other values may be returned.

**What to do.** Keep the constant, or ship a major version.`+outputDirHelp),
		schemaChange(OutputDefaultChanged, SeverityInfo, "",
			"An output's default was added, changed or removed",
			`Annotation only for outputs.

**What to do.** Nothing.`+outputDirHelp),
		schemaChange(OutputRequiredPropertyRemoved, SeverityBreaking, "wire",
			"A required output property was removed",
			`Clients read a field that may be missing now. Stays breaking even when the property was
deprecated.

**What to do.** Keep returning it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPropertyBecameOptional, SeverityBreaking, "wire",
			"An output property is no longer required",
			`It may be absent now; clients that read it break.

**What to do.** Keep it required, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPropertyBecameRequired, SeverityMinor, "",
			"An output property became required",
			`A stronger guarantee.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputOptionalPropertyRemovedOpenSchema, SeverityRisky, "strict",
			"An optional output property was removed from an open object",
			`The name is no longer described, so head may return it with any value (also when head's
‵additionalProperties‵/‵patternProperties‵ schema allows values the property did not).

**What to do.** Close the object or keep describing the property.`+outputStrictHelp+outputDirHelp),
		schemaChange(OutputOptionalPropertyRemovedClosedSchema, SeverityMinor, "",
			"An optional output property was removed from a closed object",
			`It can no longer appear (or only with values it allowed): a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPropertyAdded, SeverityMinor, "",
			"A property was added to an open output object",
			`Base clients accept and ignore it: base was open, or its ‵additionalProperties‵/
‵patternProperties‵ schema already allowed the values.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPropertyAddedToClosedSchema, SeverityBreaking, "wire",
			"A property was added to an output object that forbade unknown keys",
			`Clients validating with the base schema (‵additionalProperties: false‵, or a partial
content model that does not cover the values) reject the new result.

**What to do.** Open the object in a release before adding the property, or ship a major
version.`+outputDirHelp),
		schemaChange(OutputPropertyRenamed, SeverityBreaking, "heur",
			"An output property looks renamed",
			`A property was removed and another with an equal schema added; clients read the old name.
Reported in addition to the removal and the addition; ‵before‵ and ‵after‵ hold the names.

**What to do.** Return both names for a while, or ship a major version.`+outputDirHelp),
		schemaChange(OutputAdditionalPropertiesAllowed, SeverityBreaking, "wire",
			"An output object may now carry unknown keys",
			`‵additionalProperties: false‵ was dropped or relaxed, or a new ‵patternProperties‵ entry
admits names base rejected: clients that forbid unknown keys reject results.

**What to do.** Keep the object closed, or ship a major version.`+outputDirHelp),
		schemaChange(OutputAdditionalPropertiesDisallowed, SeverityMinor, "",
			"An output object no longer carries unknown keys",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputAdditionalPropertiesSchemaWidened, SeverityBreaking, "wire",
			"The schema for extra output keys was relaxed",
			`Values outside the base schema may appear under extra keys (also when a ‵patternProperties‵
entry gives names a wider schema than ‵additionalProperties‵ did).

**What to do.** Keep the schema, or ship a major version.`+outputDirHelp),
		schemaChange(OutputAdditionalPropertiesSchemaNarrowed, SeverityMinor, "",
			"The schema for extra output keys was constrained",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputUnevaluatedPropertiesAllowed, SeverityBreaking, "wire",
			"unevaluatedProperties was removed or relaxed on an output object",
			`Unknown keys may appear where clients forbid them.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputUnevaluatedPropertiesDisallowed, SeverityMinor, "",
			"unevaluatedProperties was added or narrowed on an output object",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPatternPropertyRemoved, SeverityBreaking, "wire",
			"A patternProperties entry was removed from an output object",
			`Matching names become unconstrained (the object is open) or fall under a different
schema.

**What to do.** Keep the entry, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPatternPropertyAdded, SeverityMinor, "",
			"A patternProperties entry was added to an output object",
			`Values under matching names are constrained: a subset. (When base was closed the entry
admits names instead: ‵output-additional-properties-allowed‵.)

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPropertyNamesConstraintRemoved, SeverityBreaking, "wire",
			"propertyNames was removed from an output object",
			`Unexpected key names may appear.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPropertyNamesConstraintAdded, SeverityMinor, "",
			"propertyNames was added to an output object",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMinPropertiesDecreased, SeverityBreaking, "wire",
			"minProperties decreased on an output object (or was removed)",
			`Smaller objects may appear.

**What to do.** Keep the minimum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMinPropertiesIncreased, SeverityMinor, "",
			"minProperties increased on an output object (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMaxPropertiesIncreased, SeverityBreaking, "wire",
			"maxProperties increased on an output object (or was removed)",
			`Larger objects may appear.

**What to do.** Keep the maximum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMaxPropertiesDecreased, SeverityMinor, "",
			"maxProperties decreased on an output object (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputDependentRequiredRemoved, SeverityBreaking, "wire",
			"A dependentRequired entry was removed or narrowed on an output object",
			`The co-occurrence guarantee clients relied on is gone.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputDependentRequiredAdded, SeverityMinor, "",
			"A dependentRequired entry was added or extended on an output object",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputDependentSchemaRemoved, SeverityBreaking, "wire",
			"A dependentSchemas entry was removed from an output object",
			`The conditional guarantee is gone.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputDependentSchemaAdded, SeverityMinor, "",
			"A dependentSchemas entry was added to an output object",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputItemsSchemaRemoved, SeverityBreaking, "wire",
			"The items constraint of an output array was dropped",
			`Arbitrary elements may appear.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputItemsSchemaAdded, SeverityMinor, "",
			"Array items of an output were constrained",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPrefixItemsRemoved, SeverityBreaking, "wire",
			"A tuple (prefixItems) was removed or shortened on an output array",
			`Positional guarantees are lost.

**What to do.** Keep them, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPrefixItemsAdded, SeverityMinor, "",
			"A tuple (prefixItems) was added or lengthened on an output array",
			`A subset (where base had an ‵items‵ schema the new positions are also compared with it;
where base rejected them, ‵output-extra-items-allowed‵ is reported instead).

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMinItemsDecreased, SeverityBreaking, "wire",
			"minItems decreased on an output array (or was removed)",
			`Shorter arrays may appear.

**What to do.** Keep the minimum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMinItemsIncreased, SeverityMinor, "",
			"minItems increased on an output array (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMaxItemsIncreased, SeverityBreaking, "wire",
			"maxItems increased on an output array (or was removed)",
			`Longer arrays may appear.

**What to do.** Keep the maximum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMaxItemsDecreased, SeverityMinor, "",
			"maxItems decreased on an output array (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputUniqueItemsDisabled, SeverityBreaking, "wire",
			"An output array may now hold duplicates",
			`Clients that relied on uniqueness break.

**What to do.** Keep ‵uniqueItems‵, or ship a major version.`+outputDirHelp),
		schemaChange(OutputUniqueItemsEnabled, SeverityMinor, "",
			"An output array now holds unique items",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputContainsRemoved, SeverityBreaking, "wire",
			"An output array's contains guarantee was removed",
			`Clients can no longer count on a matching element.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputContainsAdded, SeverityMinor, "",
			"An output array must now contain a matching element",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputContainsBoundsRelaxed, SeverityBreaking, "wire",
			"minContains decreased or maxContains increased on an output array",
			`The guarantee on the number of matching elements is weaker.

**What to do.** Keep the bounds, or ship a major version.`+outputDirHelp),
		schemaChange(OutputContainsBoundsTightened, SeverityMinor, "",
			"minContains increased or maxContains decreased on an output array",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputExtraItemsAllowed, SeverityBreaking, "wire",
			"An output tuple may now be longer",
			`‵items: false‵, ‵additionalItems: false‵ or ‵unevaluatedItems: false‵ was removed or
relaxed, or the tuple was lengthened into positions base rejected.

**What to do.** Keep the tail closed, or ship a major version.`+outputDirHelp),
		schemaChange(OutputExtraItemsDisallowed, SeverityMinor, "",
			"An output tuple can no longer be longer",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMinLengthDecreased, SeverityBreaking, "wire",
			"minLength decreased on an output string (or was removed)",
			`Shorter strings may appear.

**What to do.** Keep the minimum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMinLengthIncreased, SeverityMinor, "",
			"minLength increased on an output string (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMaxLengthIncreased, SeverityBreaking, "wire",
			"maxLength increased on an output string (or was removed)",
			`Longer strings may appear.

**What to do.** Keep the maximum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMaxLengthDecreased, SeverityMinor, "",
			"maxLength decreased on an output string (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputPatternRemoved, SeverityBreaking, "wire",
			"An output pattern was dropped or provably widened",
			`Strings the base pattern rejected may appear. The catalog has no
‵output-pattern-relaxed‵; replacing the pattern by a provably wider one (anchors removed)
breaks like dropping it and is reported here. (oasdiff reports response pattern changes only
as INFO; this is a deliberate divergence.)

**What to do.** Keep the pattern, or ship a major version.`+outputDirHelp),
		schemaChange(OutputPatternChanged, SeverityRisky, "",
			"An output pattern was replaced and inclusion could not be proven",
			`Regular-expression inclusion is undecidable in general.

**What to do.** Check that every string the new pattern allows matched the old one.`+outputDirHelp),
		schemaChange(OutputPatternAdded, SeverityMinor, "",
			"An output pattern was introduced or provably narrowed",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputFormatRemoved, SeverityRisky, "",
			"An output string's format was dropped",
			`Clients that parse, for example, ‵date-time‵ or ‵uuid‵ may fail.

**What to do.** Keep the format, or check what clients do with the value.`+outputDirHelp),
		schemaChange(OutputFormatChanged, SeverityRisky, "",
			"An output string's format changed",
			`Clients that parse the old format may fail.

**What to do.** Return the old format in the old field, or ship a major version.`+outputDirHelp),
		schemaChange(OutputFormatAdded, SeverityMinor, "",
			"A format was added to an output string",
			`A stronger (annotation) guarantee.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputContentEncodingChanged, SeverityBreaking, "wire",
			"An output's contentEncoding was added, changed or removed",
			`Clients decode the value differently.

**What to do.** Keep the encoding, or ship a major version.`+outputDirHelp),
		schemaChange(OutputContentMediaTypeChanged, SeverityBreaking, "wire",
			"An output's contentMediaType was added, changed or removed",
			`Clients parse a different embedded type.

**What to do.** Keep the media type, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMinimumDecreased, SeverityBreaking, "wire",
			"minimum decreased on an output number (or was removed)",
			`Smaller numbers may appear. Integer bounds at −(2^53−1) count as absent.

**What to do.** Keep the minimum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMinimumIncreased, SeverityMinor, "",
			"minimum increased on an output number (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMaximumIncreased, SeverityBreaking, "wire",
			"maximum increased on an output number (or was removed)",
			`Larger numbers may appear. Integer bounds at 2^53−1 count as absent.

**What to do.** Keep the maximum, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMaximumDecreased, SeverityMinor, "",
			"maximum decreased on an output number (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputExclusiveMinimumDecreased, SeverityBreaking, "wire",
			"exclusiveMinimum decreased on an output number (or was removed)",
			`Smaller numbers may appear.

**What to do.** Keep the bound, or ship a major version.`+outputDirHelp),
		schemaChange(OutputExclusiveMinimumIncreased, SeverityMinor, "",
			"exclusiveMinimum increased on an output number (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputExclusiveMaximumIncreased, SeverityBreaking, "wire",
			"exclusiveMaximum increased on an output number (or was removed)",
			`Larger numbers may appear.

**What to do.** Keep the bound, or ship a major version.`+outputDirHelp),
		schemaChange(OutputExclusiveMaximumDecreased, SeverityMinor, "",
			"exclusiveMaximum decreased on an output number (or was added)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputMultipleOfRelaxed, SeverityBreaking, "wire",
			"multipleOf was removed on an output number or now divides the old one",
			`Values off the old grid may appear. Also reported when neither value divides the other.

**What to do.** Keep the grid, or ship a major version.`+outputDirHelp),
		schemaChange(OutputMultipleOfTightened, SeverityMinor, "",
			"multipleOf was added on an output number or is a multiple of the old one",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputAnyOfBranchAdded, SeverityBreaking, "wire",
			"An output anyOf branch was added",
			`New shapes may be returned. (oasdiff reports this as INFO; a deliberate divergence,
consistent with its ‵one-of-added‵ ERR.) Branches are paired by equality, then by a maximum
matching of compatible pairs, then by type; an added branch whose values a base branch
already allowed is an equivalent rewrite.

**What to do.** Ship a major version, or make sure clients handle the new shape.`+outputDirHelp),
		schemaChange(OutputAnyOfBranchRemoved, SeverityMinor, "",
			"An output anyOf branch was removed",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputOneOfBranchAdded, SeverityBreaking, "wire",
			"An output oneOf branch was added",
			`New shapes may be returned.

**What to do.** Ship a major version, or make sure clients handle the new shape.`+outputDirHelp),
		schemaChange(OutputOneOfBranchRemoved, SeverityMinor, "",
			"An output oneOf branch was removed",
			`A subset, unless the removed branch overlapped another: values that matched both were
invalid and may now be returned. That case is reported as well, as
‵output-schema-undecidable‵ (the catalog's "risky").

**What to do.** Nothing for compatibility when the branches were disjoint.`+outputDirHelp),
		schemaChange(OutputAllOfSubschemaRemoved, SeverityBreaking, "wire",
			"An output allOf subschema was removed",
			`Its guarantees are dropped.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputAllOfSubschemaAdded, SeverityMinor, "",
			"An output allOf subschema was added",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputCompositionAnnotationOnlyChanged, SeverityInfo, "",
			"An annotation-only allOf entry was added or removed in an output",
			`No effect on results. (An annotation-only ‵anyOf‵ branch allows anything and is judged
as a real branch.)

**What to do.** Nothing.`+outputDirHelp),
		schemaChange(OutputCompositionKeywordWidened, SeverityBreaking, "wire",
			"An output combinator became looser",
			`‵oneOf‵ → ‵anyOf‵ or ‵allOf‵ → ‵anyOf‵: more results are possible.

**What to do.** Keep the stricter combinator, or ship a major version.`+outputDirHelp),
		schemaChange(OutputCompositionKeywordNarrowed, SeverityMinor, "",
			"An output combinator became stricter",
			`‵anyOf‵ → ‵oneOf‵ or ‵anyOf‵/‵oneOf‵ → ‵allOf‵: a subset. (‵allOf‵ → ‵oneOf‵ is
‵output-schema-undecidable‵.)

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputCompositionAdded, SeverityMinor, "",
			"An output anyOf or oneOf was added where there was none",
			`Results must now match its branches as well: a subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputCompositionRemoved, SeverityBreaking, "wire",
			"An output anyOf or oneOf was removed",
			`Results no longer need to match any of its branches: shapes no branch described may be
returned. When one base branch provably allows every head value (and, for ‵oneOf‵, no other
base branch could match it too) the change is an equivalent rewrite instead.

**What to do.** Keep the branches, or ship a major version.`+outputDirHelp),
		schemaChange(OutputWrappedInComposition, SeverityInfo, "",
			"An output schema was wrapped in (or unwrapped from) a single-branch combinator",
			`Equivalent; reported once instead of as noise. The nullable wrapper
‵oneOf: [{type: "null"}, X]‵ is ‵output-became-nullable‵.

**What to do.** Nothing.`+outputDirHelp),
		schemaChange(OutputNotRemoved, SeverityBreaking, "wire",
			"A not constraint was removed from an output (or a false schema now allows values)",
			`Previously excluded values may appear.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputNotAdded, SeverityMinor, "",
			"A not constraint was added to an output (or the schema became false)",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputNotChanged, SeverityRisky, "",
			"An output not subschema changed",
			`Undecidable in general, so it is not judged.

**What to do.** Check that no result clients reject can now be returned.`+outputDirHelp),
		schemaChange(OutputConditionalRemoved, SeverityBreaking, "wire",
			"An if/then/else was removed from an output",
			`The conditional guarantees are dropped.

**What to do.** Keep it, or ship a major version.`+outputDirHelp),
		schemaChange(OutputConditionalAdded, SeverityMinor, "",
			"An if/then/else was added to an output",
			`A subset.

**What to do.** Nothing for compatibility.`+outputDirHelp),
		schemaChange(OutputConditionalChanged, SeverityRisky, "",
			"An output if condition changed",
			`When ‵if‵ is unchanged, changes inside ‵then‵/‵else‵ are reported by the nested rules; a
changed condition is not judged.

**What to do.** Check which results now take the other branch.`+outputDirHelp),
		schemaChange(OutputPropertyDescriptionChanged, SeverityPatch, "llm",
			"An output property's description was added, changed or removed",
			`Structured output may be fed back to the model; documentation only.

**What to do.** Review the text.`+outputDirHelp),
		schemaChange(OutputPropertyDeprecated, SeverityMinor, "lifecycle",
			"An output property was marked deprecated",
			`Announces its removal.

**What to do.** Tell clients what to read instead.`+outputDirHelp),
		schemaChange(OutputDeprecatedPropertyRemoved, SeverityRisky, "lifecycle",
			"An optional output property that was deprecated was removed",
			`Replaces the optional-property removal rules; a removed required property stays
‵output-required-property-removed‵ (breaking).

**What to do.** Ship a major version.`+outputDirHelp),
	}
}
