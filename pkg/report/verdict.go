package report

import (
	"fmt"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// sectionVerdict is one server's answer in words.
type sectionVerdict struct {
	icon, text string
	failed     bool
	breaking   bool // unacknowledged breaking changes
	unchanged  bool
	acked      bool // breaking changes, all acknowledged
}

// breakingByKind counts the subjects with unacknowledged (or, with
// acked, acknowledged) breaking changes, per kind.
func breakingByKind(items []Item, acked bool) map[string]int {
	seen := map[finding.Subject]bool{}
	out := map[string]int{}
	for _, it := range items {
		if it.Category != CategoryChange || (it.Severity != rules.SeverityBreaking && it.Level != rules.LevelError) {
			continue
		}
		if (it.Acknowledged != "") != acked || seen[it.Subject] {
			continue
		}
		seen[it.Subject] = true
		out[it.Subject.Kind]++
	}
	return out
}

// breakPhrase is "11 tools break existing clients (also 3 prompts, 100
// resources)": the first kind leads, tools first.
func breakPhrase(byKind map[string]int) string {
	var parts []string
	lead := ""
	for _, k := range kindOrder {
		n := byKind[k]
		if n == 0 {
			continue
		}
		if lead == "" {
			verb := " break existing clients"
			if n == 1 {
				verb = " breaks existing clients"
			}
			lead = kindNoun(k, n) + verb
			continue
		}
		parts = append(parts, kindNoun(k, n))
	}
	if len(parts) > 0 {
		lead += " (also " + strings.Join(parts, ", ") + ")"
	}
	return lead
}

func (b *mdBuilder) verdict(i int) sectionVerdict {
	s, o := b.secs[i], b.o
	items := b.all[i]
	failed := s.Failed(o.FailOn)
	brk := breakingByKind(items, false)
	sv := sectionVerdict{failed: failed, breaking: len(brk) > 0}
	changed := false
	for _, it := range items {
		if it.Category == CategoryChange {
			changed = true
			break
		}
	}
	if s.Base != nil && s.Head != nil && s.Base.ManifestHash != "" && s.Base.ManifestHash == s.Head.ManifestHash {
		changed = false
	}
	// The stale snapshot is said on its own, never counted as a spec or
	// lint finding.
	specLint := withoutStale(ofCategory(b.items[i], ""))
	stale := b.stale(i)
	other := countsPhrase(summaryOf(unacknowledged(specLint)), o.ShowInfo)
	switch {
	case len(incompleteLists(b.items[i])) > 0:
		// A list that failed leads: the rest of the verdict is about what
		// could be compared, and the check cannot pass on it.
		sv.icon, sv.text = "❌", "incomplete: "+strings.Join(incompleteLists(b.items[i]), "; ")
		other = ""
		if sv.breaking {
			sv.text += " · " + breakPhrase(brk)
		}
	case failed && sv.breaking:
		sv.icon, sv.text = "❌", breakPhrase(brk)
		if n := countFailing(specLint, o.FailOn); n > 0 {
			if o.FailOn == rules.LevelError {
				sv.text += " · " + plural(n, "spec or lint error", "spec or lint errors")
			} else {
				sv.text += " · " + plural(n, "spec or lint finding", "spec or lint findings") + " at or above " + string(o.FailOn)
			}
		}
	case failed && stale != "" && countFailing(withoutStale(b.items[i]), o.FailOn) == 0:
		sv.icon, sv.text = "❌", stale+": this check fails"
		stale = ""
	case failed:
		sv.icon, sv.text = "❌", fmt.Sprintf("%s at or above %s: this check fails", plural(countFailing(withoutStale(b.items[i]), o.FailOn), "finding", "findings"), o.FailOn)
	case sv.breaking:
		sv.icon, sv.text = "⚠️", breakPhrase(brk)+" (the check does not fail on them)"
	case len(breakingByKind(items, true)) > 0:
		sv.acked = true
		sv.icon, sv.text = "✅", "breaking changes acknowledged: "+strings.TrimSuffix(strings.TrimSuffix(breakPhrase(breakingByKind(items, true)), " break existing clients"), " breaks existing clients")
		if o.AcceptedByLabel && o.AcceptLabel != "" {
			sv.text = "breaking changes accepted by label " + b.code(o.AcceptLabel)
		}
	case !changed && s.Base == nil:
		// A validation compared nothing: "unchanged" would claim a
		// comparison.
		sv.icon, sv.text = "✅", "no errors"
		if o.FailOn != "" && o.FailOn != rules.LevelError {
			sv.text = "nothing at or above " + string(o.FailOn)
		}
	case !changed:
		sv.unchanged = true
		sv.icon, sv.text = "✅", "surface unchanged"
	default:
		sv.icon, sv.text = "✅", "no breaking changes"
		if p := b.changePhrase(i); p != "" {
			sv.text += " (" + p + ")"
		}
	}
	if stale != "" {
		sv.text += " · " + stale
	}
	if !failed && other != "" {
		sv.text += " · " + other + " to review"
	}
	return sv
}

// incompleteLists says, for each list that failed at base or head, what
// was not compared ("tools/list failed at head, so no tool was compared"):
// the lead of its finding's message, which is ours; the server's error
// follows it there and is left to the table.
func incompleteLists(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Rule != rules.SurfaceListFailed {
			continue
		}
		lead, _, _ := strings.Cut(it.Message, " (")
		out = append(out, Markdown(lead, maxCellMessage))
	}
	return out
}

// isStale reports whether an item says the committed snapshot is out of
// date: the pull request forgot to refresh it.
func isStale(it Item) bool { return it.Rule == rules.SnapshotOutOfDate }

// withoutStale leaves out the stale snapshot finding.
func withoutStale(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if !isStale(it) {
			out = append(out, it)
		}
	}
	return out
}

// stale is "the committed snapshot `mcp-surface.json` is out of date"
// when an unacknowledged finding says so, else "".
func (b *mdBuilder) stale(i int) string {
	for _, it := range unacknowledged(b.items[i]) {
		if isStale(it) {
			if f := b.secs[i].Snapshot; f != "" {
				return "the committed snapshot " + b.code(f) + " is out of date"
			}
			return "the committed snapshot is out of date"
		}
	}
	return ""
}

// needsRefresh reports whether the section's committed snapshot must be
// written again: it is out of date, or the surface changed and nobody
// compared the snapshot with the head surface. A pull request that
// refreshed it hears no word of refreshing, nor does a validation, which
// compares nothing.
func (b *mdBuilder) needsRefresh(i int) bool {
	if b.stale(i) != "" {
		return true
	}
	s := b.secs[i]
	return !s.SnapshotCurrent && s.Base != nil && len(ofCategory(b.all[i], CategoryChange)) > 0
}

// summaryOf counts items per level.
func summaryOf(items []Item) Summary {
	var s Summary
	for _, it := range items {
		s.add(it.Finding)
	}
	return s
}

// changePhrase is "3 tools added, 2 text edits": the first few non-zero
// change counts, tools first.
func (b *mdBuilder) changePhrase(i int) string {
	var parts []string
	for k, c := range changedKinds(b.items[i]) {
		if k == finding.KindServer {
			parts = append(parts, kindNoun(k, serverChanges(b.items[i])))
			continue
		}
		for cl, n := range c {
			if n == 0 {
				continue
			}
			switch {
			case cl == classEdited && k == finding.KindTool:
				parts = append(parts, plural(n, "text edit", "text edits"))
			case cl == classEdited:
				parts = append(parts, plural(n, shortKind(k)+" text edit", shortKind(k)+" text edits"))
			default:
				parts = append(parts, kindNoun(k, n)+" "+classNames[cl])
			}
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:3], "…")
	}
	return strings.Join(parts, ", ")
}

// shortKind names a subject kind in a count line ("template" for a
// resource template).
func shortKind(k string) string {
	if k == finding.KindResourceTemplate {
		return "template"
	}
	return k
}

// serverChanges counts the change findings about the server itself (one
// subject, many fields).
func serverChanges(items []Item) int {
	n := 0
	for _, it := range items {
		if it.Category == CategoryChange && it.Subject.Kind == finding.KindServer {
			n++
		}
	}
	return n
}

// countLines is one line per kind with changes: "**Tools**: 7 removed ·
// 3 renamed · 9 added", then the spec and lint findings and the
// acknowledged ones.
//
// The changes are counted whether shown or not (info findings the
// comment leaves out included), so the comment, the job summary and the
// terminal say the same numbers.
func (b *mdBuilder) countLines(i int) []string {
	title := map[string]string{
		finding.KindTool: "Tools", finding.KindPrompt: "Prompts", finding.KindResource: "Resources",
		finding.KindResourceTemplate: "Templates", finding.KindSkill: "Skills", finding.KindGroup: "Groups", finding.KindServer: "Server",
	}
	out := kindCountLines(b.all[i], func(k string) string { return "**" + title[k] + "**" })
	if p := countsPhrase(summaryOf(withoutStale(ofCategory(b.items[i], ""))), b.o.ShowInfo); p != "" {
		out = append(out, "**Spec and lint**: "+p)
	}
	if b.stale(i) != "" {
		file := "the committed snapshot"
		if f := b.secs[i].Snapshot; f != "" {
			file = b.code(f)
		}
		out = append(out, "**Snapshot**: "+file+" no longer matches the server: refresh it and commit it (below)")
	}
	if n := len(acknowledged(b.all[i])); n > 0 {
		out = append(out, "**Acknowledged**: "+plural(n, "finding", "findings")+" (they do not fail the check)")
	}
	return out
}

// caution warns when the change calls for a version bump the server did
// not make: the versioning findings say so even when they are hidden.
func (b *mdBuilder) caution(i int) string {
	sum := b.secs[i].Summary()
	for _, it := range b.all[i] {
		if it.Acknowledged != "" || (it.Rule != rules.ServerVersionNotBumped && it.Rule != rules.ServerMajorVersionNotBumped) {
			continue
		}
		msg := Markdown(it.Message, MaxMessage)
		if sum.SuggestedBump != "" {
			msg += fmt.Sprintf(": the worst change is %s, which calls for a **%s** version bump", Markdown(string(sum.WorstSeverity), 20), sum.SuggestedBump)
		}
		return msg + "."
	}
	return ""
}

// headline is the report's answer in words.
func (b *mdBuilder) headline(vs []sectionVerdict) string {
	switch len(vs) {
	case 0:
		return "⚪ No server was checked"
	case 1:
		h := vs[0].icon + " " + vs[0].text
		if name := b.secs[0].Server; name != "" {
			h += " · " + Code(name, MaxName)
		}
		return h
	}
	var failing, breaking []string
	unchanged, acked := 0, 0
	allBreaking := true
	for i, v := range vs {
		if v.failed && !v.breaking {
			allBreaking = false
		}
		name := Code(nonEmpty(b.secs[i].Server, "(unnamed)"), MaxName)
		switch {
		case v.failed:
			failing = append(failing, name)
		case v.breaking:
			breaking = append(breaking, name)
		case v.unchanged:
			unchanged++
		case v.acked:
			acked++
		}
	}
	n := len(vs)
	names := func(l []string) string {
		if len(l) > 3 {
			return strings.Join(l[:3], ", ") + fmt.Sprintf(" and %d more", len(l)-3)
		}
		return joinAnd(l)
	}
	switch {
	case len(failing) > 0 && allBreaking:
		return fmt.Sprintf("❌ %s break%s existing clients (%d of %d servers)", names(failing), verbEnding(len(failing)), len(failing), n)
	case len(failing) > 0:
		return fmt.Sprintf("❌ %s fail%s this check (%d of %d servers)", names(failing), verbEnding(len(failing)), len(failing), n)
	case len(breaking) > 0:
		return fmt.Sprintf("⚠️ %s break%s existing clients (%d of %d servers)", names(breaking), verbEnding(len(breaking)), len(breaking), n)
	case unchanged == n:
		return fmt.Sprintf("✅ surface unchanged (%d servers)", n)
	case acked > 0:
		return fmt.Sprintf("✅ breaking changes acknowledged (%d servers)", n)
	}
	return fmt.Sprintf("✅ no breaking changes (%d servers)", n)
}

// verbEnding is the ending of a verb in the present for n subjects:
// "1 tool breaks", "2 tools break".
func verbEnding(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func joinAnd(l []string) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}
