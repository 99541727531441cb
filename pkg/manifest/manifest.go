package manifest

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// FormatVersion is the snapshot format written by this version; readers
// refuse a newer one.
const FormatVersion = 1

// Item is one tool, prompt, resource or resource template.
type Item struct {
	// ID is the identity: name for tools and prompts, uri for resources,
	// uriTemplate for resource templates.
	ID string
	// Raw is the item exactly as served, in canonical (compact) form.
	Raw json.RawMessage
}

// Prints are the three hashes of one item (hex SHA-256).
type Prints struct {
	Full     string `json:"full"`
	Contract string `json:"contract"`
	Prose    string `json:"prose"`
}

// Fingerprints is the snapshot's fingerprints block.
type Fingerprints struct {
	Manifest          string            `json:"manifest"`
	Tools             map[string]Prints `json:"tools"`
	Prompts           map[string]Prints `json:"prompts"`
	Resources         map[string]Prints `json:"resources"`
	ResourceTemplates map[string]Prints `json:"resourceTemplates"`
}

// Manifest is the canonical snapshot of one server's surface at one
// negotiated protocol revision.
type Manifest struct {
	// SnapshotVersion is the file format version (FormatVersion).
	SnapshotVersion int
	// ServerInfo is the Implementation object the server sent (raw, canonical).
	ServerInfo json.RawMessage
	// ProtocolVersion is the negotiated revision.
	ProtocolVersion string
	// Handshake is "initialize" or "server/discover".
	Handshake string
	// SupportedVersions is set when the server listed them (server/discover).
	SupportedVersions []string
	// Capabilities is the ServerCapabilities object (raw, canonical).
	Capabilities json.RawMessage
	// Instructions is the raw instructions value, nil when absent.
	Instructions json.RawMessage
	// FailedMethods maps each advertised list (or resources/subscribe)
	// that answered with a JSON-RPC error to the error's code: a
	// capability that was advertised but never worked. nil when none.
	FailedMethods map[string]int64
	// Items, sorted by ID.
	Tools             []Item
	Prompts           []Item
	Resources         []Item
	ResourceTemplates []Item
	Fingerprints      Fingerprints
	// ProtocolTrials are handshakes tried at other revisions (sorted by
	// revision): evidence about the server, not part of its surface, so
	// they are written to the file but kept out of the manifest hash.
	ProtocolTrials []capture.Trial
}

// Trial returns the trial of a revision, if one was made.
func (m *Manifest) Trial(revision string) (capture.Trial, bool) {
	for _, t := range m.ProtocolTrials {
		if t.Revision == revision {
			return t, true
		}
	}
	return capture.Trial{}, false
}

// AddTrial records a trial, replacing an earlier one of the same revision.
func (m *Manifest) AddTrial(t capture.Trial) {
	for i := range m.ProtocolTrials {
		if m.ProtocolTrials[i].Revision == t.Revision {
			m.ProtocolTrials[i] = t
			return
		}
	}
	m.ProtocolTrials = append(m.ProtocolTrials, t)
	slices.SortFunc(m.ProtocolTrials, func(a, b capture.Trial) int { return strings.Compare(a.Revision, b.Revision) })
}

// List names, as top-level keys of the snapshot file.
const (
	ListTools             = "tools"
	ListPrompts           = "prompts"
	ListResources         = "resources"
	ListResourceTemplates = "resourceTemplates"
)

// Lists lists the item lists in file order.
var Lists = []string{ListPrompts, ListResourceTemplates, ListResources, ListTools}

// Items returns the items of a list.
func (m *Manifest) Items(list string) []Item {
	switch list {
	case ListTools:
		return m.Tools
	case ListPrompts:
		return m.Prompts
	case ListResources:
		return m.Resources
	case ListResourceTemplates:
		return m.ResourceTemplates
	}
	return nil
}

// Find returns the item with the given identity in a list.
func (m *Manifest) Find(list, id string) (Item, bool) {
	items := m.Items(list)
	lo, hi := 0, len(items)
	for lo < hi {
		mid := (lo + hi) / 2
		if items[mid].ID < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(items) && items[lo].ID == id {
		return items[lo], true
	}
	return Item{}, false
}
