package manifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/canonjson"
)

// members returns the snapshot's small top-level members (all but the
// item sections and fingerprints), in canonical form, keyed by name.
func (m *Manifest) members() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	put := func(k string, v any) error {
		c, err := CanonicalizeValue(v)
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
		vs := make([]any, len(m.SupportedVersions))
		for i, v := range m.SupportedVersions {
			vs[i] = v
		}
		if err := put("supportedVersions", vs); err != nil {
			return nil, err
		}
	}
	for k, v := range map[string]json.RawMessage{"serverInfo": m.ServerInfo, "capabilities": m.Capabilities, "instructions": m.Instructions} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out, nil
}

// writeCanonical writes the snapshot as one canonical object, keys sorted,
// item sections streamed from the items' canonical bytes (no copy of the
// whole surface is made). extra members (fingerprints) are added as given.
func (m *Manifest) writeCanonical(w io.Writer, extra map[string]json.RawMessage) error {
	small, err := m.members()
	if err != nil {
		return err
	}
	for k, v := range extra {
		small[k] = v
	}
	keys := make([]string, 0, len(small)+len(Sections))
	for k := range small {
		keys = append(keys, k)
	}
	keys = append(keys, Sections...)
	slices.Sort(keys)
	bw := bufio.NewWriterSize(w, 64<<10)
	var kb []byte
	bw.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			bw.WriteByte(',')
		}
		kb = canonjson.AppendString(kb[:0], k)
		bw.Write(kb)
		bw.WriteByte(':')
		if v, ok := small[k]; ok {
			bw.Write(v)
			continue
		}
		bw.WriteByte('[')
		for j, it := range m.Items(k) {
			if j > 0 {
				bw.WriteByte(',')
			}
			bw.Write(it.Raw)
		}
		bw.WriteByte(']')
	}
	bw.WriteByte('}')
	return bw.Flush()
}

// manifestHash is Hash of the canonical snapshot without fingerprints,
// computed as a stream.
func (m *Manifest) manifestHash() (string, error) {
	h := sha256.New()
	if err := m.writeCanonical(h, nil); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// size estimates the canonical size, for buffer preallocation.
func (m *Manifest) size() int {
	n := 4096
	for _, section := range Sections {
		for _, it := range m.Items(section) {
			n += len(it.Raw) + 1
		}
	}
	return n
}

// CanonicalJSON is the whole snapshot, fingerprints included, in compact
// canonical form.
func (m *Manifest) CanonicalJSON() ([]byte, error) {
	fp, err := json.Marshal(m.Fingerprints)
	if err != nil {
		return nil, err
	}
	cfp, err := Canonicalize(fp)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(m.size() + len(cfp))
	if err := m.writeCanonical(&buf, map[string]json.RawMessage{"fingerprints": cfp}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
