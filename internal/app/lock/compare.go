package lock

import (
	"slices"

	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Status is what a check found for one server.
type Status string

// The statuses, from the quietest.
const (
	// StatusUnchanged: the server's surface is the locked one.
	StatusUnchanged Status = "unchanged"
	// StatusDrifted: the configuration entry is the one locked, but the
	// surface the server advertises changed under it.
	StatusDrifted Status = "drifted"
	// StatusReconfigured: the configuration entry (command, arguments,
	// URL, headers) changed since it was locked: re-lock it.
	StatusReconfigured Status = "reconfigured"
	// StatusUnlocked: the configuration declares a server the lock lacks.
	StatusUnlocked Status = "unlocked"
	// StatusGone: the lock holds a server no configuration declares.
	StatusGone Status = "gone"
	// StatusSkipped: the server needs variables that are unset.
	StatusSkipped Status = "skipped"
)

// Fails reports whether a status fails `lock --check`: every status but
// unchanged and skipped (a skipped server is its own error).
func (s Status) Fails() bool { return s != StatusUnchanged && s != StatusSkipped }

// Outcome is the check of one server.
type Outcome struct {
	Config, Name string
	// Launch is the command line or URL as the configuration writes it
	// (placeholders not filled).
	Launch string
	Status Status
	// Missing are the unset variables of a skipped server.
	Missing []string
	// Section holds the drift (its changes, the consumer's levels
	// applied) for a drifted server, and for an unlocked one what it adds
	// (compared with nothing).
	Section report.Section
	// Head is the live surface of a drifted, unlocked or re-configured
	// (and captured) server.
	Head *manifest.Manifest
	// EntryChange says in one line how a re-configured server's entry
	// changed (EntryChange); "" for any other status.
	EntryChange string
	// PackageNote says why the package a server launches was not checked
	// against its registry ("" when it was, or it launches none).
	PackageNote string
}

// Key names the server for people.
func (o *Outcome) Key() string { return Key(o.Config, o.Name) }

// Compare compares a server's captured surface with its lock entry, for a
// team that consumes the server: every change is reported, and a change
// to text the model reads (tagged llm: descriptions, titles,
// instructions) is at least a warning, since that is where a rug pull
// hides. Status is StatusDrifted when the surface's manifest hash differs
// from the locked one, whatever the levels.
func Compare(e *Entry, head *manifest.Manifest, version string) *Outcome {
	out := &Outcome{Config: e.Config, Name: e.Name, Status: StatusUnchanged}
	label := e.Key()
	res := check.Diff(e.Snapshot, head, "the lock", "the live server", check.Options{Version: version})
	sec := res.Report.Servers[0]
	sec.Command = "lock --check"
	sec.Server = label
	for i := range sec.Findings {
		if report.CategoryOf(sec.Findings[i].Rule) == report.CategoryChange {
			ConsumerLevel(&sec.Findings[i])
		}
	}
	out.Section, out.Head = sec, head
	if sec.Base.ManifestHash != sec.Head.ManifestHash {
		out.Status = StatusDrifted
	}
	return out
}

// ConsumerLevel raises a finding about text the model reads to at least
// a warning: what an author may call a patch is, for the team whose
// agents read it, a change to review before it reaches them.
func ConsumerLevel(f *finding.Finding) {
	if slices.Contains(f.Tags, "llm") && f.Level.Rank() < rules.LevelWarning.Rank() {
		f.Level = rules.LevelWarning
	}
}

// Added is what a server the lock lacks puts in front of the agents: its
// surface compared with an empty one, so that every tool is an addition
// and the text rules read every description in full.
func Added(config, name string, head *manifest.Manifest, version string) *Outcome {
	empty := &Entry{Config: config, Name: name, Snapshot: &manifest.Manifest{ProtocolVersion: head.ProtocolVersion}}
	out := Compare(empty, head, version)
	out.Status = StatusUnlocked
	out.Section.Base.Label = "no lock entry"
	return out
}
