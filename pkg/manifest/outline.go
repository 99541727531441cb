package manifest

import (
	"fmt"
	"sort"
	"strings"
)

// Outline summarizes how two snapshots differ, item by item, from their
// fingerprints: a short list for people (at most ten names per line), nil
// when they are the same. It judges nothing; pkg/diff does.
func Outline(base, head *Manifest) []string {
	if base.Fingerprints.Manifest == head.Fingerprints.Manifest {
		return nil
	}
	var lines []string
	field := func(name string, a, b []byte) {
		if string(a) != string(b) {
			lines = append(lines, name+" changed")
		}
	}
	field("protocolVersion", []byte(base.ProtocolVersion), []byte(head.ProtocolVersion))
	field("serverInfo", base.ServerInfo, head.ServerInfo)
	field("capabilities", base.Capabilities, head.Capabilities)
	field("instructions", base.Instructions, head.Instructions)
	prints := func(m *Manifest, list string) map[string]Prints {
		f := &m.Fingerprints
		return *ofList(list, &f.Tools, &f.Prompts, &f.Resources, &f.ResourceTemplates)
	}
	for _, list := range Lists {
		b, h := prints(base, list), prints(head, list)
		var added, removed, contract, prose, other []string
		for id, hp := range h {
			bp, ok := b[id]
			switch {
			case !ok:
				added = append(added, id)
			case bp.Contract != hp.Contract:
				contract = append(contract, id)
			case bp.Prose != hp.Prose:
				prose = append(prose, id)
			case bp.Full != hp.Full:
				other = append(other, id)
			}
		}
		for id := range b {
			if _, ok := h[id]; !ok {
				removed = append(removed, id)
			}
		}
		for _, g := range []struct {
			what string
			ids  []string
		}{{"added", added}, {"removed", removed}, {"contract changed", contract}, {"descriptions changed", prose}, {"metadata changed", other}} {
			if len(g.ids) == 0 {
				continue
			}
			sort.Strings(g.ids)
			shown := g.ids
			more := ""
			if len(shown) > 10 {
				more = fmt.Sprintf(" and %d more", len(shown)-10)
				shown = shown[:10]
			}
			lines = append(lines, fmt.Sprintf("%s %s: %s%s", list, g.what, strings.Join(shown, ", "), more))
		}
	}
	if len(lines) == 0 {
		lines = append(lines, "snapshot content changed")
	}
	return lines
}
