package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// toolsAdded reports new tools, and those whose names are confusable
// with a tool on both sides.
func (d *differ) toolsAdded(added []manifest.Item, both [][2]manifest.Item) {
	var existing map[string][]string // skeleton → names of tools in both
	for _, it := range added {
		if existing == nil {
			existing = map[string][]string{}
			for _, pair := range both {
				s := skeleton(pair[1].ID)
				existing[s] = append(existing[s], pair[1].ID)
			}
		}
		d.toolAdded(it, existing)
	}
}

func (d *differ) toolAdded(it manifest.Item, existing map[string][]string) {
	subj := subject(finding.KindTool, it.ID)
	d.emit(rules.ToolAdded, subj, "", fmt.Sprintf("tool %s was added", quote(it.ID)), nil, jsonString(it.ID))
	if names := existing[skeleton(it.ID)]; len(names) > 0 {
		d.emit(rules.ToolAddedConfusableName, subj, "/name",
			fmt.Sprintf("new tool %s is confusable with existing tool %s", quote(it.ID), quote(names[0])),
			jsonString(names[0]), jsonString(it.ID))
	}
	o := parseObject(it.Raw)
	for _, k := range slices.Sorted(maps.Keys(o)) {
		d.featureMismatch("tools", subj, k, o[k])
	}
	d.outputSchemaMismatch(subj, nil, o.get("outputSchema"))
	d.scanItemTexts(subj, nil, o)
}

// toolFields compare one tool present in both snapshots.
var toolFields = fieldRules{
	title: rules.ToolTitleChanged, icons: rules.ToolIconsChanged, unknown: rules.ToolUnknownFieldChanged,
	own: map[string]fieldFunc{
		"description": func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage) {
			switch {
			case isNull(bv):
				d.emitText(rules.ToolDescriptionAdded, subj, p, "description added", nil, hv)
			case isNull(hv):
				d.emitText(rules.ToolDescriptionRemoved, subj, p, "description removed", bv, nil)
			default:
				d.emitText(rules.ToolDescriptionChanged, subj, p, textChangedMsg("description", bv, hv), bv, hv)
			}
			d.scanText(subj, p, bv, hv, true)
		},
		"inputSchema": func(d *differ, subj finding.Subject, _ string, bv, hv json.RawMessage) {
			d.dialect(subj, "inputSchema", rules.ToolInputSchemaDialectChanged, bv, hv)
			d.schema(subj, "inputSchema", bv, hv, schemadiff.Input)
			d.scanSchemaTexts(subj, "inputSchema", bv, hv, true)
		},
		"outputSchema": func(d *differ, subj finding.Subject, p string, bv, hv json.RawMessage) {
			const k = "outputSchema"
			switch {
			case isNull(bv):
				d.emit(rules.ToolOutputSchemaAdded, subj, p, "outputSchema added: structuredContent is now promised", nil, hv)
			case isNull(hv):
				d.emit(rules.ToolOutputSchemaRemoved, subj, p, "outputSchema removed: structuredContent is no longer promised", bv, nil)
			default:
				d.dialect(subj, k, rules.ToolOutputSchemaDialectChanged, bv, hv)
				d.schema(subj, k, bv, hv, schemadiff.Output)
			}
			d.outputSchemaMismatch(subj, bv, hv)
			d.scanSchemaTexts(subj, k, bv, hv, true)
		},
		"annotations": objectField((*differ).annotations),
		"_meta":       objectField((*differ).toolMeta),
		"execution":   objectField((*differ).execution),
	},
}

// objectField compares a field whose value is an object with cmp.
func objectField(cmp func(d *differ, subj finding.Subject, b, h object)) fieldFunc {
	return func(d *differ, subj finding.Subject, _ string, bv, hv json.RawMessage) {
		cmp(d, subj, parseObject(bv), parseObject(hv))
	}
}

func (d *differ) toolLifecycle(subj finding.Subject, b, h object) {
	bl, hl := d.lifecycleOf(b), d.lifecycleOf(h)
	switch {
	case !bl.deprecated && hl.deprecated:
		d.emit(rules.ToolDeprecated, subj, hl.marker, "tool is now deprecated (marker at "+hl.marker+")", jsonBool(false), jsonBool(true))
	case bl.deprecated && !hl.deprecated:
		d.emit(rules.ToolReactivated, subj, bl.marker, "tool is no longer deprecated (marker was at "+bl.marker+")", jsonBool(true), jsonBool(false))
	case bl.deprecated && hl.deprecated && bl.sunsetRaw != nil && !rawEqual(bl.sunsetRaw, hl.sunsetRaw):
		sp := ptr("/_meta", d.sunsetKey)
		switch {
		case hl.sunsetRaw == nil:
			d.emit(rules.ToolSunsetMovedEarlier, subj, sp, "sunset date "+short(bl.sunsetRaw)+" was deleted", bl.sunsetRaw, nil)
		case bl.sunset.IsZero() || hl.sunset.IsZero():
			d.emit(rules.ToolSunsetMovedEarlier, subj, sp,
				fmt.Sprintf("sunset date changed from %s to %s and cannot be compared", short(bl.sunsetRaw), short(hl.sunsetRaw)), bl.sunsetRaw, hl.sunsetRaw)
		case hl.sunset.Before(bl.sunset):
			d.emit(rules.ToolSunsetMovedEarlier, subj, sp,
				fmt.Sprintf("sunset date moved earlier, from %s to %s", short(bl.sunsetRaw), short(hl.sunsetRaw)), bl.sunsetRaw, hl.sunsetRaw)
		}
	}
}

// execution compares execution.taskSupport (absent means forbidden) and
// reports other keys as unknown fields.
func (d *differ) execution(subj finding.Subject, b, h object) {
	support := func(o object) string {
		if s, ok := o.str("taskSupport"); ok {
			return s
		}
		return "forbidden"
	}
	bs, hs := support(b), support(h)
	p := "/execution/taskSupport"
	if bs != hs {
		msg := fmt.Sprintf("execution.taskSupport changed from %s to %s", bs, hs)
		switch hs {
		case "required":
			d.emit(rules.ToolExecutionTaskSupportRequired, subj, p, msg+": plain calls are rejected", jsonString(bs), jsonString(hs))
		case "forbidden":
			d.emit(rules.ToolExecutionTaskSupportForbidden, subj, p, msg+": task-augmented calls are rejected", jsonString(bs), jsonString(hs))
		case "optional":
			d.emit(rules.ToolExecutionTaskSupportOptional, subj, p, msg, jsonString(bs), jsonString(hs))
		default:
			d.emit(rules.ToolUnknownFieldChanged, subj, p, msg+" (not a value the specification defines)", jsonString(bs), jsonString(hs))
		}
	}
	for _, k := range unionKeys(b, h) {
		if k == "taskSupport" {
			continue
		}
		bv, hv := b.get(k), h.get(k)
		if !rawEqual(bv, hv) {
			d.emit(rules.ToolUnknownFieldChanged, subj, ptr("/execution", k), changedMsg("execution key "+quote(k), bv, hv), bv, hv)
		}
	}
}

const defaultDialect = "json-schema.org/draft/2020-12/schema"

// dialectOf returns a schema's normalized $schema URI: no scheme, no
// trailing #, lower case host; absent means 2020-12.
func dialectOf(schema json.RawMessage) string {
	if !bytes.Contains(schema, []byte(`"$schema"`)) {
		return defaultDialect // no need to read a large schema for it
	}
	s, ok := parseObject(schema).str("$schema")
	if !ok || s == "" {
		return defaultDialect
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), "#")
	for _, p := range []string{"https://", "http://"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
			break
		}
	}
	if i := strings.IndexByte(s, '/'); i > 0 {
		s = strings.ToLower(s[:i]) + s[i:]
	}
	return s
}

func (d *differ) dialect(subj finding.Subject, key, rule string, b, h json.RawMessage) {
	if dialectOf(b) == dialectOf(h) {
		return
	}
	bv, hv := parseObject(b).get("$schema"), parseObject(h).get("$schema")
	d.emit(rule, subj, "/"+key+"/$schema", changedMsg(key+" dialect ($schema)", bv, hv), bv, hv)
}

// encodeObject writes an object of canonical members canonically.
func encodeObject(o object) json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(o)) {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(jsonString(k))
		buf.WriteByte(':')
		buf.Write(o[k])
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
