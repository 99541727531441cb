package guard

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// verdict is the judgement of one listed item (or of the instructions)
// against the lock entry.
type verdict struct {
	Kind string // the finding subject kind: tool, prompt, ..., server for the instructions
	Name string // its identity as served
	// Status is statusUnchanged, statusChanged or statusNew.
	Status string
	// Risky: the consumer ranking calls the change a danger or a break,
	// or the engine rates it risky.
	Risky bool
	// Rules are the rules of the findings, ranked, each once.
	Rules []string
	// Why is one line saying what changed, server text as written: escape
	// it where it is printed.
	Why string
	// Threat names the danger of a risky change in the guard's own words
	// ("possible tool poisoning", "breaking change"): what the client is
	// told, which never quotes the changed text.
	Threat string
}

const (
	statusUnchanged = "unchanged"
	statusChanged   = "changed"
	statusNew       = "new"
)

// judge compares what a server lists with its lock entry, through the
// same engine and consumer ranking as `lock --check`.
type judge struct {
	entry   *lock.Entry
	all     *lock.Lock // every locked server, for shadowing across them
	version string
	// same holds the items served exactly as locked, by their bytes as
	// served (kind's list and the item) → identity: a server serves the
	// same bytes listing after listing, and those need no canonical form.
	// Bounded by sameBytes.
	same      map[string]map[string]string
	sameBytes int
}

// maxSameBytes bounds what judge.same holds.
const maxSameBytes = 16 << 20

// listed is one item of a listing page: its canonical form and identity.
type listed struct {
	id    string
	canon []byte
	ok    bool // it has a string identity
}

// items judges the items of one listing page (raw, as served), one
// verdict each, in page order. An item that is not JSON the canonical
// form reads is an error: the page cannot be checked.
func (j *judge) items(k manifest.ItemKind, raws [][]byte) ([]verdict, error) {
	out := make([]verdict, len(raws))
	page := make([]listed, len(raws))
	var changed []int
	for i, raw := range raws {
		if id, ok := j.same[k.List][string(raw)]; ok {
			out[i] = verdict{Kind: k.Subject, Name: id, Status: statusUnchanged}
			continue
		}
		canon, err := canonjson.CanonicalizeOrdered(raw)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", k.List, i, err)
		}
		ms, err := objectMembers(canon, span{0, len(canon)})
		if err != nil {
			return nil, fmt.Errorf("%s[%d] is not a JSON object", k.List, i)
		}
		page[i] = listed{canon: canon}
		if m, found := find(ms, k.Identity); found && canon[m.Value.Start] == '"' {
			sc := canonjson.NewScanner(canon[:m.Value.End])
			sc.Pos = m.Value.Start
			if id, err := sc.String(); err == nil {
				page[i].id, page[i].ok = id, true
			}
		}
		if !page[i].ok {
			out[i] = verdict{Kind: k.Subject, Status: statusNew, Risky: true,
				Why: fmt.Sprintf("a %s served without its %s cannot be compared with the lock", k.Noun, k.Identity)}
			continue
		}
		if locked, ok := j.locked(k.List, page[i].id); ok && bytes.Equal(locked, canon) {
			out[i] = verdict{Kind: k.Subject, Name: page[i].id, Status: statusUnchanged}
			j.remember(k.List, raw, page[i].id)
			continue
		}
		changed = append(changed, i)
	}
	if len(changed) == 0 {
		return out, nil
	}
	snap := j.entry.Snapshot
	items := slices.Clone(snap.Items(k.List))
	for _, i := range changed {
		it := manifest.Item{ID: page[i].id, Raw: page[i].canon}
		at, found := slices.BinarySearchFunc(items, it.ID, func(x manifest.Item, id string) int { return strings.Compare(x.ID, id) })
		if found {
			items[at] = it
		} else {
			items = slices.Insert(items, at, it)
		}
	}
	head := *snap
	switch k.List {
	case manifest.ListTools:
		head.Tools = items
	case manifest.ListPrompts:
		head.Prompts = items
	case manifest.ListResources:
		head.Resources = items
	case manifest.ListResourceTemplates:
		head.ResourceTemplates = items
	}
	o := j.compare(&head)
	for _, i := range changed {
		v := j.verdictOf(o, k.Subject, page[i].id, func(f *finding.Finding) bool {
			return f.Subject.Kind == k.Subject && f.Subject.Name == page[i].id
		})
		v.Status = statusChanged
		if _, ok := snap.Find(k.List, page[i].id); !ok {
			v.Status = statusNew
		}
		out[i] = v
	}
	return out, nil
}

// remember records an item served as locked.
func (j *judge) remember(list string, raw []byte, id string) {
	if j.sameBytes+len(raw) > maxSameBytes {
		j.same, j.sameBytes = nil, 0
	}
	if j.same == nil {
		j.same = map[string]map[string]string{}
	}
	if j.same[list] == nil {
		j.same[list] = map[string]string{}
	}
	j.same[list][string(raw)] = id
	j.sameBytes += len(raw) + len(id)
}

// instructions judges the instructions of a handshake result (raw, nil
// when it has none); nil when they are the locked ones.
func (j *judge) instructions(raw []byte) (*verdict, error) {
	var canon []byte
	if raw != nil {
		var err error
		if canon, err = canonjson.Canonicalize(raw); err != nil {
			return nil, fmt.Errorf("instructions: %w", err)
		}
	}
	snap := j.entry.Snapshot
	if bytes.Equal(canon, snap.Instructions) {
		return nil, nil
	}
	head := *snap
	head.Instructions = canon
	o := j.compare(&head)
	v := j.verdictOf(o, finding.KindServer, "instructions", func(f *finding.Finding) bool {
		return f.Subject.Kind == finding.KindServer && (f.Pointer == "/instructions" || strings.HasPrefix(f.Pointer, "/instructions/"))
	})
	v.Status = statusChanged
	if snap.Instructions == nil {
		v.Status = statusNew
	}
	return &v, nil
}

// locked is the canonical form of a locked item: in the list, or scoped
// to one of the server's groups.
func (j *judge) locked(list, id string) ([]byte, bool) {
	snap := j.entry.Snapshot
	if it, ok := snap.Find(list, id); ok {
		return it.Raw, true
	}
	if snap.Ext != nil {
		for _, g := range snap.Ext.Groups {
			for _, it := range g.Scoped(list) {
				if it.ID == id {
					return it.Raw, true
				}
			}
		}
	}
	return nil, false
}

// compare judges a head that differs from the locked snapshot only where
// the server served something else, as `lock --check` judges a drifted
// server: the consumer's levels, and shadowing of the other locked
// servers' tools.
func (j *judge) compare(head *manifest.Manifest) *lock.Outcome {
	o := lock.Compare(j.entry, head, j.version)
	o.Status = lock.StatusDrifted
	if j.all != nil {
		lock.Shadowing(o, j.all)
	}
	return o
}

// guardRisky are the rules the guard holds risky beyond the consumer
// ranking: a change that passes has to be one the model reads as prose,
// and these give the model somewhere new to go (a URL added to its text),
// room for instructions the text rules may miss (a text far longer than
// the locked one), or a skill more tools to run. lock --check reports
// them for review; at run time, with no one reviewing, they are held.
var guardRisky = map[string]bool{
	rules.TextUrlAdded:             true,
	rules.TextLengthSpike:          true,
	rules.SkillAllowedToolsChanged: true,
}

// guardThreat says each of guardRisky in the guard's words, for the client.
var guardThreat = map[string]string{
	rules.TextUrlAdded:             "a URL added to text the model reads",
	rules.TextLengthSpike:          "text the model reads grown far beyond the locked one",
	rules.SkillAllowedToolsChanged: "a skill's allowed tools changed",
}

// verdictOf is the verdict on the findings of o that mine selects.
func (j *judge) verdictOf(o *lock.Outcome, kind, name string, mine func(*finding.Finding) bool) verdict {
	v := verdict{Kind: kind, Name: name}
	one := *o
	one.Section.Findings = nil
	for i := range o.Section.Findings {
		if mine(&o.Section.Findings[i]) {
			one.Section.Findings = append(one.Section.Findings, o.Section.Findings[i])
		}
	}
	ranked := lock.Ranked(&one)
	for i := range ranked {
		f := &ranked[i]
		if !slices.Contains(v.Rules, f.Rule) {
			v.Rules = append(v.Rules, f.Rule)
		}
		if c := lock.ClassOf(f); c == lock.ClassDanger || c == lock.ClassBreak || f.Severity == rules.SeverityRisky || f.Severity == rules.SeverityBreaking || guardRisky[f.Rule] {
			v.Risky = true
		}
	}
	switch {
	case v.Risky:
		where := one.Key()
		if kind != finding.KindServer {
			where += " › " + name
		}
		// The headline names a danger or a break; a change the engine
		// rates risky that is neither is said by its own message.
		v.Why, v.Threat = ranked[0].Message, "a risky change"
		if h := lock.Headline([]*lock.Outcome{&one}); strings.Contains(h, " in "+where+": ") {
			v.Threat, _, _ = strings.Cut(h, " in "+where+": ")
			v.Why = h
		} else if i := slices.IndexFunc(ranked, func(f finding.Finding) bool { return f.Severity == rules.SeverityRisky }); i >= 0 {
			v.Why = ranked[i].Message
		} else if i := slices.IndexFunc(ranked, func(f finding.Finding) bool { return guardRisky[f.Rule] }); i >= 0 {
			v.Why, v.Threat = ranked[i].Message, guardThreat[ranked[i].Rule]
		}
	case len(ranked) > 0:
		v.Why = ranked[0].Message
	default:
		// Only what a consumer does not act on changed (or the change
		// was only in form the engine does not report).
		v.Why = "changed in a way that reaches no rule a consumer acts on"
	}
	return v
}
