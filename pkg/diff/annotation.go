package diff

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// The four behaviour hints and their spec defaults.
var hintKeys = []string{"destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"}

var hintDefault = map[string]bool{
	"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
}

// hint returns a hint's served value with the spec default applied; a
// non-boolean value counts as absent.
func hint(a object, k string) bool {
	if v, ok := a.flag(k); ok {
		return v
	}
	return hintDefault[k]
}

// effective is the meaning of a tool's hints: destructiveHint only counts
// when the tool is not read-only, and a read-only tool has no side effects
// to repeat, so it is idempotent.
type effective struct{ readOnly, destructive, idempotent, openWorld bool }

func effectiveHints(a object) effective {
	ro := hint(a, "readOnlyHint")
	return effective{
		readOnly:    ro,
		destructive: !ro && hint(a, "destructiveHint"),
		idempotent:  ro || hint(a, "idempotentHint"),
		openWorld:   hint(a, "openWorldHint"),
	}
}

// annotations compares a tool's annotations (the tool-annotation-* rules).
func (d *differ) annotations(subj finding.Subject, b, h object) {
	be, he := effectiveHints(b), effectiveHints(h)
	reported := map[string]bool{}
	report := func(key, rule, msg string, bv, hv bool) {
		reported[key] = true
		d.emit(rule, subj, ptr("/annotations", key), msg, jsonBool(bv), jsonBool(hv))
	}
	if be.readOnly != he.readOnly {
		// One flip, one finding: readOnlyHint decides whether
		// destructiveHint and idempotentHint count at all, so their
		// effective changes are named here rather than reported again.
		var effects []string
		if be.destructive != he.destructive {
			if he.destructive {
				effects = append(effects, "it may now perform destructive updates (effective destructiveHint false → true)")
			} else {
				effects = append(effects, "it no longer claims destructive updates (effective destructiveHint true → false)")
			}
		}
		if be.idempotent != he.idempotent {
			if he.idempotent {
				effects = append(effects, "it now counts as idempotent (effective idempotentHint false → true)")
			} else {
				effects = append(effects, "it is no longer idempotent (effective idempotentHint true → false): retries may repeat side effects")
			}
		}
		also := ""
		if len(effects) > 0 {
			also = "; in effect " + strings.Join(effects, ", and ")
		}
		reported["destructiveHint"], reported["idempotentHint"] = true, true
		if be.readOnly {
			report("readOnlyHint", rules.ToolAnnotationReadOnlyHintRemoved, "the tool is no longer read-only (readOnlyHint true → false)"+also, true, false)
		} else {
			report("readOnlyHint", rules.ToolAnnotationReadOnlyHintAdded, "the tool now claims to be read-only (readOnlyHint false → true)"+also, false, true)
		}
	} else {
		if be.destructive != he.destructive {
			if he.destructive {
				report("destructiveHint", rules.ToolAnnotationDestructiveHintEnabled, "the tool may now perform destructive updates (effective destructiveHint false → true)", false, true)
			} else {
				report("destructiveHint", rules.ToolAnnotationDestructiveHintDisabled, "the tool no longer claims destructive updates (effective destructiveHint true → false)", true, false)
			}
		}
		if be.idempotent != he.idempotent {
			if he.idempotent {
				report("idempotentHint", rules.ToolAnnotationIdempotentHintAdded, "the tool now claims to be idempotent (effective idempotentHint false → true)", false, true)
			} else {
				report("idempotentHint", rules.ToolAnnotationIdempotentHintRemoved, "the tool is no longer idempotent (effective idempotentHint true → false): retries may repeat side effects", true, false)
			}
		}
	}
	if be.openWorld != he.openWorld {
		if he.openWorld {
			report("openWorldHint", rules.ToolAnnotationOpenWorldHintEnabled, "the tool now reaches external entities (openWorldHint false → true)", false, true)
		} else {
			report("openWorldHint", rules.ToolAnnotationOpenWorldHintDisabled, "the tool no longer reaches external entities (openWorldHint true → false)", true, false)
		}
	}
	for _, k := range hintKeys {
		bv, hv := b.get(k), h.get(k)
		if reported[k] || rawEqual(bv, hv) {
			continue
		}
		p := ptr("/annotations", k)
		if (k == "destructiveHint" || k == "idempotentHint") && be.readOnly && he.readOnly {
			d.emit(rules.ToolAnnotationMaskedHintChanged, subj, p,
				fmt.Sprintf("%s changed from %s to %s on a read-only tool, where it has no meaning", k, short(bv), short(hv)), bv, hv)
			continue
		}
		d.emit(rules.ToolAnnotationExplicitDefaultChanged, subj, p,
			fmt.Sprintf("%s changed from %s to %s without changing its effective value", k, short(bv), short(hv)), bv, hv)
	}
	for _, k := range unionKeys(b, h) {
		if _, isHint := hintDefault[k]; isHint {
			continue
		}
		bv, hv := b.get(k), h.get(k)
		if rawEqual(bv, hv) {
			continue
		}
		p := ptr("/annotations", k)
		if k == "title" {
			d.emitText(rules.ToolAnnotationTitleChanged, subj, p, changedMsg("annotations.title", bv, hv), bv, hv)
			d.scanText(subj, p, bv, hv, true)
			continue
		}
		d.emit(rules.ToolAnnotationUnknownKeyChanged, subj, p, changedMsg("annotations key "+quote(k), bv, hv), bv, hv)
	}
}
