package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// The reader FromCanonicalJSON replaced, kept as the oracle of
// reader_test.go: it checked the whole file for repeated keys, decoded it
// whole into a map (for the unknown keys) and again into fileShape, then
// canonicalized the items from those copies. Unchanged but for its name
// and this comment.

// oldFromCanonicalJSON reads a snapshot file (pretty-printed or compact). It
// re-canonicalizes every member, so a hand-edited file reads the same as a
// written one, refuses duplicate keys, duplicate identities and unknown
// top-level keys, and recomputes the fingerprints from the content (the stored block is a
// convenience for reviewers, never trusted).
func oldFromCanonicalJSON(data []byte) (*Manifest, error) {
	// A repeated key reads differently in different parsers: a reviewer's
	// tool could see another value than ours.
	if err := canonjson.CheckUnique(data); err != nil {
		return nil, fmt.Errorf("snapshot refused: %w", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("snapshot is not a JSON object: %w", err)
	}
	for k := range top {
		if !knownTopLevel[k] {
			return nil, fmt.Errorf("snapshot has unknown top-level key %q (written by a newer mcp-surface?)", k)
		}
	}
	var f fileShape
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if f.SnapshotVersion == nil {
		return nil, errors.New(`snapshot has no "snapshotVersion"; is this an mcp-surface.json file?`)
	}
	if *f.SnapshotVersion > FormatVersion || *f.SnapshotVersion < 1 {
		return nil, fmt.Errorf("snapshot format version %d is not supported by this mcp-surface (reads up to %d); upgrade mcp-surface", *f.SnapshotVersion, FormatVersion)
	}
	m := &Manifest{
		SnapshotVersion:   *f.SnapshotVersion,
		ProtocolVersion:   f.ProtocolVersion,
		Handshake:         f.Handshake,
		SupportedVersions: slices.Sorted(slices.Values(f.SupportedVersions)),
	}
	if len(f.FailedMethods) > 0 {
		m.FailedMethods = f.FailedMethods
	}
	var err error
	for _, x := range []struct {
		name string
		src  json.RawMessage
		dst  *json.RawMessage
	}{{"serverInfo", f.ServerInfo, &m.ServerInfo}, {"capabilities", f.Capabilities, &m.Capabilities}, {"instructions", f.Instructions, &m.Instructions}} {
		if len(x.src) == 0 {
			continue
		}
		if *x.dst, err = Canonicalize(x.src); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", x.name, err)
		}
	}
	raw := map[string][]json.RawMessage{
		ListTools: f.Tools, ListPrompts: f.Prompts,
		ListResources: f.Resources, ListResourceTemplates: f.ResourceTemplates,
	}
	recorded, err := recordedJCS(f.Fingerprints)
	if err != nil {
		return nil, err
	}
	if err := m.buildLists(raw, false, recorded); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	for _, t := range f.ProtocolTrials {
		if t.Revision == "" {
			return nil, errors.New("snapshot protocolTrials: a trial without a revision")
		}
		m.AddTrial(t)
	}
	return m, nil
}
