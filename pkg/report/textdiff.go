package report

import (
	"encoding/json"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// textDiff is textdiff.Diff: a compact, raw (unescaped) diff of two texts.
func textDiff(a, b string) string { return textdiff.Diff(a, b) }

// isLineDiff is textdiff.isLineDiff.
func isLineDiff(a, b string) bool { return textdiff.IsLineDiff(a, b) }

// proseRules are the rules whose before and after are model-visible text
// (a description, title or instructions) worth a text diff.
var proseRules = map[string]bool{
	rules.DescriptionMissing:                 true,
	rules.GroupDescriptionChanged:            true,
	rules.GroupInstructionsChanged:           true,
	rules.SkillDescriptionChanged:            true,
	rules.InputPropertyDescriptionChanged:    true,
	rules.InputPropertyTitleChanged:          true,
	rules.OutputPropertyDescriptionChanged:   true,
	rules.PromptArgumentDescriptionChanged:   true,
	rules.PromptArgumentTitleChanged:         true,
	rules.PromptDescriptionChanged:           true,
	rules.PromptTitleChanged:                 true,
	rules.ResourceDescriptionChanged:         true,
	rules.ResourceTemplateDescriptionChanged: true,
	rules.ResourceTemplateTitleChanged:       true,
	rules.ResourceTitleChanged:               true,
	rules.ServerDescriptionChanged:           true,
	rules.ServerInstructionsAdded:            true,
	rules.ServerInstructionsChanged:          true,
	rules.ServerInstructionsRemoved:          true,
	rules.ServerTitleChanged:                 true,
	rules.ToolAnnotationTitleChanged:         true,
	rules.ToolDescriptionAdded:               true,
	rules.ToolDescriptionChanged:             true,
	rules.ToolDescriptionRemoved:             true,
	rules.ToolTitleChanged:                   true,
}

// spanRules are the text detectors: tagged llm, but their before and after
// hold the suspicious span, not the text.
var spanRules = map[string]bool{
	rules.TextAnsiEscape:              true,
	rules.TextCrossToolReferenceAdded: true,
	rules.TextEncodedPayloadAdded:     true,
	rules.TextHiddenCharacters:        true,
	rules.TextHiddenCharactersAdded:   true,
	rules.TextInjectionMarker:         true,
	rules.TextInjectionMarkerAdded:    true,
	rules.TextLengthSpike:             true,
	rules.TextSensitiveReferenceAdded: true,
	rules.TextUrlAdded:                true,
}

// proseFinding reports whether a finding's before/after are model-visible
// text worth a text diff: the prose rules, or any other finding tagged llm.
func proseFinding(f finding.Finding) bool {
	return proseRules[f.Rule] || (slices.Contains(f.Tags, "llm") && !spanRules[f.Rule])
}

// textStrings returns before and after as strings when both are JSON
// strings (an absent side counts as "").
func textStrings(f finding.Finding) (before, after string, ok bool) {
	if f.Before == nil && f.After == nil {
		return "", "", false
	}
	for _, x := range []struct {
		raw json.RawMessage
		dst *string
	}{{f.Before, &before}, {f.After, &after}} {
		if x.raw == nil {
			continue
		}
		if err := json.Unmarshal(x.raw, x.dst); err != nil {
			return "", "", false
		}
	}
	return before, after, true
}

// FindingTextDiff is the text diff of a prose finding's before and after,
// "" when the finding is not about text or nothing changed.
func FindingTextDiff(f finding.Finding) string {
	if !proseFinding(f) || f.Before == nil || f.After == nil {
		return ""
	}
	a, b, ok := textStrings(f)
	if !ok {
		return ""
	}
	return textDiff(a, b)
}
