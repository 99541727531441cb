package diff

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// promptFields compare one prompt present in both snapshots.
var promptFields = fieldRules{
	title: rules.PromptTitleChanged, description: rules.PromptDescriptionChanged,
	icons: rules.PromptIconsChanged, meta: rules.PromptMetaChanged, unknown: rules.PromptUnknownFieldChanged,
	own: map[string]fieldFunc{
		"arguments": func(d *differ, subj finding.Subject, _ string, bv, hv json.RawMessage) {
			d.arguments(subj, parseArray(bv), parseArray(hv))
		},
	},
}

// promptArg is one argument with its position.
type promptArg struct {
	idx  int
	name string
	o    object
}

func promptArgs(raw []json.RawMessage) ([]promptArg, map[string]int) {
	var args []promptArg
	byName := map[string]int{}
	for i, a := range raw {
		o := parseObject(a)
		name, _ := o.str("name")
		if _, dup := byName[name]; dup {
			continue // the first one counts; duplicates are a lint matter
		}
		byName[name] = len(args)
		args = append(args, promptArg{idx: i, name: name, o: o})
	}
	return args, byName
}

func argPtr(i int) string { return "/arguments/" + strconv.Itoa(i) }

// arguments compares prompt arguments by name (input direction).
func (d *differ) arguments(subj finding.Subject, braw, hraw []json.RawMessage) {
	bargs, bidx := promptArgs(braw)
	hargs, hidx := promptArgs(hraw)
	var removed, added []promptArg
	for _, a := range bargs {
		if _, ok := hidx[a.name]; !ok {
			removed = append(removed, a)
		}
	}
	for _, a := range hargs {
		if _, ok := bidx[a.name]; !ok {
			added = append(added, a)
		}
	}

	// Renames: a removed and an added argument with the same non-empty
	// description, unique on both sides.
	descCount := func(as []promptArg) map[string]int {
		n := map[string]int{}
		for _, a := range as {
			if s, ok := a.o.str("description"); ok && s != "" {
				n[s]++
			}
		}
		return n
	}
	rc, ac := descCount(removed), descCount(added)
	renamedFrom := map[string]bool{}
	renamedTo := map[string]bool{}
	for _, r := range removed {
		desc, _ := r.o.str("description")
		if desc == "" || rc[desc] != 1 || ac[desc] != 1 {
			continue
		}
		for _, a := range added {
			if ad, _ := a.o.str("description"); ad == desc {
				renamedFrom[r.name], renamedTo[a.name] = true, true
				d.emitMoved(rules.PromptArgumentRenamed, subj, argPtr(r.idx), argPtr(a.idx), true, true,
					fmt.Sprintf("argument %s looks renamed to %s: the server no longer reads the old name", quote(r.name), quote(a.name)),
					jsonString(r.name), jsonString(a.name))
				if req, _ := a.o.flag("required"); req {
					if breq, _ := r.o.flag("required"); !breq {
						d.emitMoved(rules.PromptArgumentBecameRequired, subj, argPtr(r.idx), argPtr(a.idx), true, true,
							fmt.Sprintf("renamed argument %s is now required", quote(a.name)), jsonBool(false), jsonBool(true))
					}
				}
				break
			}
		}
	}

	for _, r := range removed {
		if renamedFrom[r.name] {
			continue
		}
		d.emitMoved(rules.PromptArgumentRemoved, subj, argPtr(r.idx), "", true, false,
			fmt.Sprintf("argument %s was removed: values passed for it are ignored", quote(r.name)), jsonString(r.name), nil)
	}
	for _, a := range added {
		if renamedTo[a.name] {
			continue
		}
		p := argPtr(a.idx)
		if req, _ := a.o.flag("required"); req {
			d.emitMoved(rules.PromptArgumentAddedRequired, subj, "", p, false, true,
				fmt.Sprintf("required argument %s was added: existing invocations lack it", quote(a.name)), nil, jsonString(a.name))
		} else {
			d.emitMoved(rules.PromptArgumentAddedOptional, subj, "", p, false, true,
				fmt.Sprintf("optional argument %s was added", quote(a.name)), nil, jsonString(a.name))
		}
		d.scanArgTexts(subj, p, nil, a.o)
	}

	// Arguments in both.
	var bOrder, hOrder []string
	for _, ba := range bargs {
		j, ok := hidx[ba.name]
		if !ok {
			continue
		}
		bOrder = append(bOrder, ba.name)
		ha := hargs[j]
		bp, hp := argPtr(ba.idx), argPtr(ha.idx)
		for _, k := range unionKeys(ba.o, ha.o) {
			bv, hv := ba.o.get(k), ha.o.get(k)
			if rawEqual(bv, hv) {
				continue
			}
			kb, kh := ptr(bp, k), ptr(hp, k)
			switch k {
			case "name":
			case "required":
				br, _ := ba.o.flag(k)
				hr, _ := ha.o.flag(k)
				switch {
				case !br && hr:
					d.emitMoved(rules.PromptArgumentBecameRequired, subj, kb, kh, true, true,
						fmt.Sprintf("argument %s became required: invocations that omit it fail", quote(ba.name)), jsonBool(false), jsonBool(true))
				case br && !hr:
					d.emitMoved(rules.PromptArgumentBecameOptional, subj, kb, kh, true, true,
						fmt.Sprintf("argument %s became optional", quote(ba.name)), jsonBool(true), jsonBool(false))
				}
			case "description":
				d.emitMoved(rules.PromptArgumentDescriptionChanged, subj, kb, kh, !isNull(bv), !isNull(hv),
					textChangedMsg(fmt.Sprintf("argument %s description", quote(ba.name)), bv, hv), bv, hv)
				d.scanText(subj, kh, bv, hv, true)
			case "title":
				d.emitMoved(rules.PromptArgumentTitleChanged, subj, kb, kh, !isNull(bv), !isNull(hv),
					changedMsg(fmt.Sprintf("argument %s title", quote(ba.name)), bv, hv), bv, hv)
				d.scanText(subj, kh, bv, hv, true)
			default:
				d.emitMoved(rules.PromptUnknownFieldChanged, subj, kb, kh, !isNull(bv), !isNull(hv),
					changedMsg(fmt.Sprintf("argument %s field %s", quote(ba.name), quote(k)), bv, hv), bv, hv)
			}
		}
	}
	for _, ha := range hargs {
		if _, ok := bidx[ha.name]; ok {
			hOrder = append(hOrder, ha.name)
		}
	}
	if !slices.Equal(bOrder, hOrder) {
		d.emit(rules.PromptArgumentOrderChanged, subj, "/arguments",
			"the order of arguments changed: hosts that fill arguments by position swap values",
			canonStrings(bOrder), canonStrings(hOrder))
	}
}

// canonStrings renders an ordered list of names canonically: canonical
// form sorts arrays of primitives, so each name is wrapped in an object,
// and arrays of objects keep their order.
func canonStrings(ss []string) json.RawMessage {
	list := make([]any, len(ss))
	for i, s := range ss {
		list[i] = map[string]any{"name": s}
	}
	return canon(list)
}
