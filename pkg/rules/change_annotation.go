package rules

// Section D of the rule catalog: tool annotations, compared by effective
// value.

const effectiveHelp = `

**Effective values.** Hints are compared after applying the specification's defaults:
‵readOnlyHint‵ false, ‵destructiveHint‵ true, ‵idempotentHint‵ false, ‵openWorldHint‵ true.
‵destructiveHint‵ only means something when the tool is not read-only, so the effective
destructive value of a read-only tool is false; a read-only tool has no side effects, so its
effective idempotent value is true. A non-boolean hint counts as absent. Clients must treat
annotations as untrusted unless the server is trusted, so both directions are reported:
withdrawn promises change what automation relied on, relaxed ones make clients skip
confirmations (the classic rug-pull lever).`

const (
	ToolAnnotationReadOnlyHintRemoved     = "tool-annotation-read-only-hint-removed"
	ToolAnnotationReadOnlyHintAdded       = "tool-annotation-read-only-hint-added"
	ToolAnnotationDestructiveHintEnabled  = "tool-annotation-destructive-hint-enabled"
	ToolAnnotationDestructiveHintDisabled = "tool-annotation-destructive-hint-disabled"
	ToolAnnotationIdempotentHintRemoved   = "tool-annotation-idempotent-hint-removed"
	ToolAnnotationIdempotentHintAdded     = "tool-annotation-idempotent-hint-added"
	ToolAnnotationOpenWorldHintEnabled    = "tool-annotation-open-world-hint-enabled"
	ToolAnnotationOpenWorldHintDisabled   = "tool-annotation-open-world-hint-disabled"
	ToolAnnotationExplicitDefaultChanged  = "tool-annotation-explicit-default-changed"
	ToolAnnotationMaskedHintChanged       = "tool-annotation-masked-hint-changed"
	ToolAnnotationTitleChanged            = "tool-annotation-title-changed"
	ToolAnnotationUnknownKeyChanged       = "tool-annotation-unknown-key-changed"
)

func annotationChangeRules() []Rule {
	return []Rule{
		surfaceChange(ToolAnnotationReadOnlyHintRemoved, SeverityRisky, "meta", "sec",
			"The tool is no longer read-only",
			`The tool may now modify its environment: read-only allowlists, dry-run agents and
auto-approval rules no longer hold. One finding per flip: its message also names what the
flip does to the effective ‵destructiveHint‵ and ‵idempotentHint‵ (a tool that keeps the default
‵destructiveHint‵ may now perform destructive updates), which are not reported again.`+effectiveHelp),
		surfaceChange(ToolAnnotationReadOnlyHintAdded, SeverityRisky, "meta", "sec",
			"The tool now claims to be read-only",
			`A relaxation: clients may stop asking for confirmation. Verify that the implementation
really became read-only. The message names the effect on the effective ‵destructiveHint‵ and
‵idempotentHint‵, which are not reported again.`+effectiveHelp),
		surfaceChange(ToolAnnotationDestructiveHintEnabled, SeverityRisky, "meta", "sec",
			"The tool may now perform destructive updates",
			`Effective ‵destructiveHint‵ went from false to true while ‵readOnlyHint‵ stayed as it was
(a flip of ‵readOnlyHint‵ is one ‵tool-annotation-read-only-hint-*‵ finding that names this
effect). The tool may now delete or overwrite; gate security-relevant
changes with ‵--fail-on-tag sec‵.`+effectiveHelp),
		surfaceChange(ToolAnnotationDestructiveHintDisabled, SeverityRisky, "meta", "sec",
			"The tool no longer claims destructive updates",
			`A relaxation that suppresses destructive-action confirmations; verify it.`+effectiveHelp),
		surfaceChange(ToolAnnotationIdempotentHintRemoved, SeverityRisky, "meta", "",
			"The tool is no longer idempotent",
			`Automatic retries on timeout may now duplicate side effects.`+effectiveHelp),
		surfaceChange(ToolAnnotationIdempotentHintAdded, SeverityMinor, "meta", "",
			"The tool now claims to be idempotent",
			`A stronger guarantee.`+effectiveHelp),
		surfaceChange(ToolAnnotationOpenWorldHintEnabled, SeverityRisky, "meta", "sec",
			"The tool now reaches an open world of external entities",
			`New exfiltration and indirect-prompt-injection surface: the tool's output may now carry
text from the outside world.`+effectiveHelp),
		surfaceChange(ToolAnnotationOpenWorldHintDisabled, SeverityMinor, "meta", "sec",
			"The tool no longer reaches external entities",
			`Narrower reach; clients may trust its outputs more. Verify.`+effectiveHelp),
		surfaceChange(ToolAnnotationExplicitDefaultChanged, SeverityInfo, "meta", "",
			"A hint was added or removed without changing its effective value",
			`For example absent → ‵destructiveHint: true‵. No semantic change.`+effectiveHelp),
		surfaceChange(ToolAnnotationMaskedHintChanged, SeverityInfo, "meta", "",
			"destructiveHint or idempotentHint changed on a tool that is read-only in both",
			`The specification says these hints are meaningful only when ‵readOnlyHint‵ is false.`+effectiveHelp),
		surfaceChange(ToolAnnotationTitleChanged, SeverityPatch, "meta", "",
			"annotations.title was added, changed or removed",
			`Display only.`),
		surfaceChange(ToolAnnotationUnknownKeyChanged, SeverityInfo, "meta", "",
			"A non-standard key inside annotations was added, removed or changed",
			`Not defined by the specification.`),
	}
}
