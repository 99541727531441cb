package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// A groups/get answer carries text the model reads (the group's
// instructions) and the items the group scopes (contents.tools, .prompts,
// .resources; tools and prompts at the top of the toolbox variant's
// result). Each scoped item is judged as a listed item of its kind is,
// and the instructions against the locked group's.

// scopedArray is one array of scoped items in a groups/get result.
type scopedArray struct {
	kind manifest.ItemKind
	at   span
}

// groupInstructions judges the instructions of group key as a groups/get
// answered them (raw, nil when none); nil when they are the locked ones.
func (j *judge) groupInstructions(key string, raw []byte) (*verdict, error) {
	var canon []byte
	if raw != nil && string(raw) != "null" {
		var err error
		if canon, err = canonjson.Canonicalize(raw); err != nil {
			return nil, fmt.Errorf("instructions: %w", err)
		}
	}
	locked, ok := j.entry.Snapshot.Ext.Group(key)
	if ok && string(canon) == string(locked.Instructions) {
		return nil, nil
	}
	if !ok && canon == nil {
		return nil, nil
	}
	g := locked
	if !ok {
		// A group the lock lacks: judged as added with these instructions.
		// key is the group's key (Group.Key): the toolbox variant's holds
		// the extension before the name.
		g = manifest.Group{Extension: j.groupExt(), Name: key}
		if g.Extension == capture.ExtToolbox {
			g.Name = strings.TrimPrefix(key, g.Extension+":")
		}
	}
	g.Instructions = canon
	x := j.headExt()
	putGroup(x, g)
	v := j.extVerdict(j.compareExt(x), finding.KindGroup, key)
	v.Status = statusChanged
	if !ok {
		v.Status = statusNew
	}
	return &v, nil
}

// groupGet checks a groups/get answer for group key.
func (s *Session) groupGet(msg []byte, h header, key string) Out {
	const method = capture.MethodGroupsGet
	res, ok, err := result(msg, h)
	if err == nil && !ok {
		return Out{Forward: msg}
	}
	var arrays []scopedArray
	var insAt = -1
	var insRaw []byte
	if err == nil {
		arrays, err = scopedArrays(msg, res)
	}
	if err == nil {
		if insAt = findAt(res, "instructions"); insAt >= 0 {
			insRaw = msg[res[insAt].Value.Start:res[insAt].Value.End]
		}
	}
	var ins *verdict
	if err == nil {
		ins, err = s.j.groupInstructions(key, insRaw)
	}
	type cut struct {
		arr  span
		keep []span
	}
	var cuts []cut
	var end error
	act := func(v verdict, what string) bool { return s.act(method, v, what, &end) }
	for _, a := range arrays {
		if err != nil {
			break
		}
		items := func(raws [][]byte) ([]verdict, error) { return s.j.items(a.kind, raws) }
		var elems, keep []span
		elems, keep, _, err = s.judged(msg, a.at, items, func(v verdict) bool {
			return act(v, fmt.Sprintf("%s %s %q of group %q", v.Status, v.Kind, v.Name, key))
		})
		if err == nil && len(keep) < len(elems) {
			cuts = append(cuts, cut{a.at, keep})
		}
	}
	if err != nil {
		return s.unreadable(msg, h.ID, method, err)
	}
	dropIns := ins != nil && insAt >= 0 && !act(*ins, fmt.Sprintf("the changed instructions of group %q", key))
	if end != nil {
		return ended(h.ID, end)
	}
	if len(cuts) == 0 && !dropIns {
		return Out{Forward: msg}
	}
	// Cut from the end of the message back, so that each cut's offsets
	// still hold.
	out := msg
	slices.SortFunc(cuts, func(a, b cut) int { return b.arr.Start - a.arr.Start })
	insDone := !dropIns
	for _, c := range cuts {
		if !insDone && res[insAt].Value.Start > c.arr.Start {
			out = withoutMember(out, res, insAt)
			insDone = true
		}
		out = withElements(out, c.arr, c.keep)
	}
	if !insDone {
		out = withoutMember(out, res, insAt)
	}
	return Out{Forward: out}
}

// scopedArrays are the arrays of scoped items of a groups/get result
// (members res).
func scopedArrays(msg []byte, res []member) ([]scopedArray, error) {
	var out []scopedArray
	add := func(ms []member, key, list string) {
		if m, found := find(ms, key); found && msg[m.Value.Start] == '[' {
			k, _ := manifest.KindOfList(list)
			out = append(out, scopedArray{k, m.Value})
		}
	}
	if c, found := find(res, "contents"); found && msg[c.Value.Start] == '{' {
		cm, err := objectMembers(msg, c.Value)
		if err != nil {
			return nil, fmt.Errorf("contents: %w", err)
		}
		add(cm, "tools", manifest.ListTools)
		add(cm, "prompts", manifest.ListPrompts)
		add(cm, "resources", manifest.ListResources)
	}
	add(res, "tools", manifest.ListTools)
	add(res, "prompts", manifest.ListPrompts)
	return out, nil
}
