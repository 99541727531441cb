package manifest

import (
	"encoding/json"
	"fmt"
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

// Prints are the hashes of one item (hex SHA-256).
type Prints struct {
	Full     string `json:"full"`
	Contract string `json:"contract"`
	Prose    string `json:"prose"`
	// JCS is the interoperable definition hash ("tool definition hash
	// v1"): SHA-256 of the RFC 8785 form of the item exactly as served
	// (canonjson.JCSHash), nothing dropped or defaulted. It is recorded
	// when the server is captured: the snapshot's own canonical form
	// (which sorts required and type, and reads numbers exactly) cannot
	// give it back in general. "" when the item had no RFC 8785 form (a
	// repeated member name) or the snapshot was written before it was
	// recorded.
	JCS string `json:"jcs,omitempty"`
}

// Fingerprints is the snapshot's fingerprints block.
type Fingerprints struct {
	Manifest          string            `json:"manifest"`
	Tools             map[string]Prints `json:"tools"`
	Prompts           map[string]Prints `json:"prompts"`
	Resources         map[string]Prints `json:"resources"`
	ResourceTemplates map[string]Prints `json:"resourceTemplates"`
	// Skills (by uri) and Groups (by Group.Key) of the extensions the
	// server declares; absent when it declares none.
	Skills map[string]Prints `json:"skills,omitempty"`
	Groups map[string]Prints `json:"groups,omitempty"`
	// JCS are the interoperable set digests of the lists (SetDigest) and
	// the instructions hash; nil for a snapshot written before them.
	JCS *SetDigests `json:"jcs,omitempty"`
}

// SetDigests are the set digests of "tool definition hash v1", one per
// list, and its instructions hash. A list's digest is "" when one of its
// items has no definition hash or no string name (the recipe gives such
// a listing none); Instructions is nil when the server sent no string.
type SetDigests struct {
	Tools             string  `json:"tools,omitempty"`
	Prompts           string  `json:"prompts,omitempty"`
	Resources         string  `json:"resources,omitempty"`
	ResourceTemplates string  `json:"resourceTemplates,omitempty"`
	Instructions      *string `json:"instructions"`
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
	// Partial maps each advertised list that failed otherwise (see
	// capture.ListFailures) to its failure: the snapshot is incomplete,
	// and the list of that kind holds nothing because what it holds is
	// unknown, not because it is empty. Inside the manifest hash, so that
	// a partial snapshot never equals a complete one. nil when none.
	Partial map[string]ListFailure
	// Items, sorted by ID.
	Tools             []Item
	Prompts           []Item
	Resources         []Item
	ResourceTemplates []Item
	// Ext is what the server serves through the extensions it declares
	// (skills, groups), nil when it declares none: see Extensions.
	Ext          *Extensions
	Fingerprints Fingerprints
	// ProtocolTrials are handshakes tried at other revisions (sorted by
	// revision): evidence about the server, not part of its surface, so
	// they are written to the file but kept out of the manifest hash.
	ProtocolTrials []capture.Trial
	// CapabilityTrials are the capture's calls to learn whether
	// resources.subscribe and completions work (sorted by method), outside
	// the manifest hash like ProtocolTrials. nil in a snapshot written
	// before they were recorded: then no trial is known.
	CapabilityTrials []capture.CapabilityTrial
	// Unidentified are the items served without identity (BuildPartial),
	// in list order then position; inside the manifest hash. nil when
	// none.
	Unidentified []Unidentified
}

// CapabilityTrial returns the recorded trial of a method, if one was made.
func (m *Manifest) CapabilityTrial(method string) (capture.CapabilityTrial, bool) {
	return first(m.CapabilityTrials, func(t capture.CapabilityTrial) bool { return t.Method == method })
}

// addCapabilityTrial records a trial, replacing an earlier one of the same
// method.
func (m *Manifest) addCapabilityTrial(t capture.CapabilityTrial) {
	m.CapabilityTrials = slices.DeleteFunc(m.CapabilityTrials, func(x capture.CapabilityTrial) bool { return x.Method == t.Method })
	m.CapabilityTrials = append(m.CapabilityTrials, t)
	slices.SortFunc(m.CapabilityTrials, func(a, b capture.CapabilityTrial) int { return strings.Compare(a.Method, b.Method) })
}

// Trial returns the trial of a revision, if one was made.
func (m *Manifest) Trial(revision string) (capture.Trial, bool) {
	return first(m.ProtocolTrials, func(t capture.Trial) bool { return t.Revision == revision })
}

// first is the first element of xs that match accepts, if there is one.
func first[T any](xs []T, match func(T) bool) (T, bool) {
	if i := slices.IndexFunc(xs, match); i >= 0 {
		return xs[i], true
	}
	var zero T
	return zero, false
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
	if p := ofList(list, &m.Tools, &m.Prompts, &m.Resources, &m.ResourceTemplates); p != nil {
		return *p
	}
	return nil
}

// ofList is the one of tools, prompts, resources and templates that
// holds list, for the types kept once per list; nil for a list that is
// none of them (templates is nil where there are none).
func ofList[T any](list string, tools, prompts, resources, templates *T) *T {
	switch list {
	case ListTools:
		return tools
	case ListPrompts:
		return prompts
	case ListResources:
		return resources
	case ListResourceTemplates:
		return templates
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

// Unidentified is an item a list served without its identity (a resource
// with no uri, a tool with no name: `[{}]`), kept as served by a snapshot
// built with BuildPartial. It cannot be keyed, so it is recorded where it
// was and never compared.
type Unidentified struct {
	// List is the item list (ListTools, ...); Index the item's position in
	// it as served, pages concatenated, from 0.
	List  string          `json:"list"`
	Index int             `json:"index"`
	Item  json.RawMessage `json:"item"`
}

// UnidentifiedError refuses an item without its identity when the
// snapshot is built whole (Build).
type UnidentifiedError struct {
	List  string
	Index int
}

func (e *UnidentifiedError) Error() string {
	return fmt.Sprintf("%s[%d] has no string %q, so it cannot be identified", e.List, e.Index, identityOf(e.List))
}

// ListFailure is how one list of a partial snapshot failed.
type ListFailure struct {
	// Page is the page (from 1) whose request failed.
	Page int `json:"page"`
	// Code and Message are the JSON-RPC error's, the message bounded
	// (capture.MaxFailureMessage) and as the server wrote it: escape it
	// before printing.
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// Incomplete reports whether the snapshot is partial: a list it
// advertises failed, so what that list holds is unknown.
// A nil snapshot is not.
func (m *Manifest) Incomplete() bool { return m != nil && len(m.Partial) > 0 }

// FailedList returns the failure of the list method that fills a list
// (ListTools, ...), when the snapshot says it failed (never for a nil
// snapshot).
func (m *Manifest) FailedList(list string) (method string, f ListFailure, failed bool) {
	k, ok := KindOfList(list)
	if !ok || m == nil {
		return k.Method, ListFailure{}, false
	}
	f, failed = m.Partial[k.Method]
	return k.Method, f, failed
}

// PartialSummary describes the failed lists of a partial snapshot in one
// line, in list order ("" when complete). It holds server text: escape it
// before a terminal or log.
func (m *Manifest) PartialSummary() string {
	var parts []string
	for _, k := range ItemKinds {
		if f, ok := m.Partial[k.Method]; ok {
			parts = append(parts, fmt.Sprintf("%s page %d answered with error %d %q", k.Method, f.Page, f.Code, f.Message))
		}
	}
	return strings.Join(parts, "; ")
}
