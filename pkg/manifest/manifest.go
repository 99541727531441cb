package manifest

import "encoding/json"

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
	// Items, sorted by ID.
	Tools             []Item
	Prompts           []Item
	Resources         []Item
	ResourceTemplates []Item
	Fingerprints      Fingerprints
}

// Section names, as top-level keys of the snapshot file.
const (
	SectionTools             = "tools"
	SectionPrompts           = "prompts"
	SectionResources         = "resources"
	SectionResourceTemplates = "resourceTemplates"
)

// Sections lists the item sections in file order.
var Sections = []string{SectionPrompts, SectionResourceTemplates, SectionResources, SectionTools}

// Items returns the items of a section.
func (m *Manifest) Items(section string) []Item {
	switch section {
	case SectionTools:
		return m.Tools
	case SectionPrompts:
		return m.Prompts
	case SectionResources:
		return m.Resources
	case SectionResourceTemplates:
		return m.ResourceTemplates
	}
	return nil
}

// Find returns the item with the given identity in a section.
func (m *Manifest) Find(section, id string) (Item, bool) {
	items := m.Items(section)
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
