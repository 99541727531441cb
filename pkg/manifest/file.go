package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
)

// body returns the snapshot's top-level members except fingerprints, as
// canonical values keyed by name.
func (m *Manifest) body() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	put := func(k string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		c, err := Canonicalize(b)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		out[k] = c
		return nil
	}
	if err := put("snapshotVersion", m.SnapshotVersion); err != nil {
		return nil, err
	}
	if err := put("protocolVersion", m.ProtocolVersion); err != nil {
		return nil, err
	}
	if m.Handshake != "" {
		if err := put("handshake", m.Handshake); err != nil {
			return nil, err
		}
	}
	if len(m.SupportedVersions) > 0 {
		if err := put("supportedVersions", m.SupportedVersions); err != nil {
			return nil, err
		}
	}
	for k, v := range map[string]json.RawMessage{"serverInfo": m.ServerInfo, "capabilities": m.Capabilities, "instructions": m.Instructions} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	for _, section := range Sections {
		var buf bytes.Buffer
		n := 2
		for _, it := range m.Items(section) {
			n += len(it.Raw) + 1
		}
		buf.Grow(n)
		buf.WriteByte('[')
		for i, it := range m.Items(section) {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(it.Raw)
		}
		buf.WriteByte(']')
		out[section] = buf.Bytes()
	}
	return out, nil
}

// writeObject writes members (already canonical) with sorted keys.
func writeObject(members map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(&buf, k)
		buf.WriteByte(':')
		buf.Write(members[k])
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func (m *Manifest) canonicalBody() ([]byte, error) {
	b, err := m.body()
	if err != nil {
		return nil, err
	}
	return writeObject(b), nil
}

// CanonicalJSON is the whole snapshot, fingerprints included, in compact
// canonical form.
func (m *Manifest) CanonicalJSON() ([]byte, error) {
	b, err := m.body()
	if err != nil {
		return nil, err
	}
	fp, err := json.Marshal(m.Fingerprints)
	if err != nil {
		return nil, err
	}
	if b["fingerprints"], err = Canonicalize(fp); err != nil {
		return nil, err
	}
	return writeObject(b), nil
}

// Encode renders the snapshot file: canonical JSON, pretty-printed with
// two spaces, keys sorted, a trailing newline, no timestamps.
func Encode(m *Manifest) ([]byte, error) {
	c, err := m.CanonicalJSON()
	if err != nil {
		return nil, err
	}
	return Indent(c)
}

// fileShape is the snapshot file as read back.
type fileShape struct {
	SnapshotVersion   *int              `json:"snapshotVersion"`
	ProtocolVersion   string            `json:"protocolVersion"`
	Handshake         string            `json:"handshake"`
	SupportedVersions []string          `json:"supportedVersions"`
	ServerInfo        json.RawMessage   `json:"serverInfo"`
	Capabilities      json.RawMessage   `json:"capabilities"`
	Instructions      json.RawMessage   `json:"instructions"`
	Tools             []json.RawMessage `json:"tools"`
	Prompts           []json.RawMessage `json:"prompts"`
	Resources         []json.RawMessage `json:"resources"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
	Fingerprints      json.RawMessage   `json:"fingerprints"`
}

var knownTopLevel = map[string]bool{
	"snapshotVersion": true, "protocolVersion": true, "handshake": true, "supportedVersions": true,
	"serverInfo": true, "capabilities": true, "instructions": true, "tools": true, "prompts": true,
	"resources": true, "resourceTemplates": true, "fingerprints": true,
}

// FromCanonicalJSON reads a snapshot file (pretty-printed or compact). It
// re-canonicalizes every member, so a hand-edited file reads the same as a
// written one, refuses duplicate identities and unknown top-level keys,
// and recomputes the fingerprints from the content (the stored block is a
// convenience for reviewers, never trusted).
func FromCanonicalJSON(data []byte) (*Manifest, error) {
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
		SectionTools: f.Tools, SectionPrompts: f.Prompts,
		SectionResources: f.Resources, SectionResourceTemplates: f.ResourceTemplates,
	}
	if err := m.setItems(raw); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return m, nil
}

// ReadFile reads a snapshot file.
func ReadFile(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := FromCanonicalJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteFile writes the snapshot file atomically (temporary file, then
// rename), so an interrupted run never leaves half a snapshot.
func WriteFile(path string, m *Manifest) error {
	data, err := Encode(m)
	if err != nil {
		return err
	}
	dir, base := splitPath(path)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func splitPath(p string) (dir, base string) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == os.PathSeparator {
			return p[:i+1], p[i+1:]
		}
	}
	return ".", p
}
