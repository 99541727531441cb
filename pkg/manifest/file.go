package manifest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// members returns the snapshot's small top-level members (all but the
// item lists and fingerprints), in canonical form, keyed by name.
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
	if len(m.FailedMethods) > 0 {
		fm := make(map[string]any, len(m.FailedMethods))
		for k, v := range m.FailedMethods {
			fm[k] = v
		}
		if err := put("failedMethods", fm); err != nil {
			return nil, err
		}
	}
	if len(m.Unidentified) > 0 {
		us := make([]any, len(m.Unidentified))
		for i, u := range m.Unidentified {
			item, err := decode(u.Item)
			if err != nil {
				return nil, fmt.Errorf("unidentified %s[%d]: %w", u.List, u.Index, err)
			}
			us[i] = map[string]any{"list": u.List, "index": json.Number(fmt.Sprint(u.Index)), "item": item}
		}
		if err := put("unidentified", us); err != nil {
			return nil, err
		}
	}
	if len(m.Partial) > 0 {
		pm := make(map[string]any, len(m.Partial))
		for k, f := range m.Partial {
			pm[k] = map[string]any{"page": f.Page, "code": f.Code, "message": f.Message}
		}
		if err := put("partial", pm); err != nil {
			return nil, err
		}
	}
	if m.Ext != nil {
		x, err := m.Ext.canonical()
		if err != nil {
			return nil, fmt.Errorf("extensions: %w", err)
		}
		out["extensions"] = x
	}
	for k, v := range map[string]json.RawMessage{"serverInfo": m.ServerInfo, "capabilities": m.Capabilities, "instructions": m.Instructions} {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out, nil
}

// writeCanonical writes the snapshot as one canonical object, keys sorted,
// item lists streamed from the items' canonical bytes (no copy of the
// whole surface is made). extra members (fingerprints) are added as given.
func (m *Manifest) writeCanonical(w io.Writer, extra map[string]json.RawMessage) error {
	small, err := m.members()
	if err != nil {
		return err
	}
	for k, v := range extra {
		small[k] = v
	}
	keys := make([]string, 0, len(small)+len(Lists))
	for k := range small {
		keys = append(keys, k)
	}
	keys = append(keys, Lists...)
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
	for _, list := range Lists {
		for _, it := range m.Items(list) {
			n += len(it.Raw) + 1
		}
	}
	return n
}

// CanonicalJSON is the whole snapshot, fingerprints included, in compact
// canonical form.
func (m *Manifest) CanonicalJSON() ([]byte, error) {
	extra, err := m.unhashed()
	if err != nil {
		return nil, err
	}
	cfp := extra["fingerprints"]
	var buf bytes.Buffer
	buf.Grow(m.size() + len(cfp))
	if err := m.writeCanonical(&buf, extra); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unhashed are the members outside the manifest hash, in canonical form.
func (m *Manifest) unhashed() (map[string]json.RawMessage, error) {
	extra := map[string]json.RawMessage{}
	for _, x := range []struct {
		key  string
		v    any
		keep bool
	}{
		{"fingerprints", m.Fingerprints, true},
		// Like the fingerprints, outside the manifest hash: a trial is
		// what one run observed, not what the server advertises; a
		// capability trial, whether a call worked in one run.
		{"protocolTrials", m.ProtocolTrials, len(m.ProtocolTrials) > 0},
		{"capabilityTrials", m.CapabilityTrials, len(m.CapabilityTrials) > 0},
	} {
		if !x.keep {
			continue
		}
		b, err := json.Marshal(x.v)
		if err != nil {
			return nil, err
		}
		if extra[x.key], err = Canonicalize(b); err != nil {
			return nil, err
		}
	}
	return extra, nil
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
	SnapshotVersion   *int                      `json:"snapshotVersion"`
	ProtocolVersion   string                    `json:"protocolVersion"`
	Handshake         string                    `json:"handshake"`
	SupportedVersions []string                  `json:"supportedVersions"`
	ServerInfo        json.RawMessage           `json:"serverInfo"`
	Capabilities      json.RawMessage           `json:"capabilities"`
	Instructions      json.RawMessage           `json:"instructions"`
	Tools             []json.RawMessage         `json:"tools"`
	Prompts           []json.RawMessage         `json:"prompts"`
	Resources         []json.RawMessage         `json:"resources"`
	ResourceTemplates []json.RawMessage         `json:"resourceTemplates"`
	Fingerprints      json.RawMessage           `json:"fingerprints"`
	ProtocolTrials    []capture.Trial           `json:"protocolTrials"`
	CapabilityTrials  []capture.CapabilityTrial `json:"capabilityTrials"`
	Unidentified      []Unidentified            `json:"unidentified"`
	FailedMethods     map[string]int64          `json:"failedMethods"`
	Partial           map[string]*struct {
		Page    *int   `json:"page"`
		Code    *int64 `json:"code"`
		Message string `json:"message"`
	} `json:"partial"`
}

var knownTopLevel = map[string]bool{
	"snapshotVersion": true, "protocolVersion": true, "handshake": true, "supportedVersions": true,
	"serverInfo": true, "capabilities": true, "instructions": true, "tools": true, "prompts": true,
	"resources": true, "resourceTemplates": true, "fingerprints": true, "protocolTrials": true, "failedMethods": true, "capabilityTrials": true, "unidentified": true,
	"partial": true, "extensions": true,
}

// FromCanonicalJSON reads a snapshot file (pretty-printed or compact). It
// re-canonicalizes every member, so a hand-edited file reads the same as a
// written one, refuses duplicate keys, duplicate identities and unknown
// top-level keys, and recomputes the fingerprints from the content (the stored block is a
// convenience for reviewers, never trusted).
//
// It reads data in one pass (canonjson.OutlineOf) that checks it and
// finds where each member and item lies; the items are canonicalized
// from their spans, and the small members decoded from theirs, so the
// file is never decoded whole. An item that is already canonical (a
// compact file) is kept as a sub-slice of data when every item is;
// otherwise nothing of data is kept. Errors are those of the reader
// that decoded the file whole, in the same order: a syntax error first
// (as encoding/json words it), then a repeated key, then the members.
func FromCanonicalJSON(data []byte) (*Manifest, error) {
	o, err := canonjson.OutlineOf(data)
	if err != nil {
		return nil, fmt.Errorf("snapshot is not a JSON object: %w", syntaxError(data, err))
	}
	// A repeated key reads differently in different parsers: a reviewer's
	// tool could see another value than ours.
	if o.Duplicate != nil {
		return nil, fmt.Errorf("snapshot refused: %w", o.Duplicate)
	}
	if !o.Object {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, fmt.Errorf("snapshot is not a JSON object: %w", err)
		}
		return nil, errNoVersion // null
	}
	for _, mb := range o.Members {
		if !knownTopLevel[mb.Name] {
			return nil, fmt.Errorf("snapshot has unknown top-level key %q (written by a newer mcp-surface?)", mb.Name)
		}
	}
	// The small members are decoded through fileShape, as a whole file
	// was, so that a value of the wrong type is worded the same. The
	// members that cannot have the wrong type (raw values, lists that
	// are arrays) stay out of it: they are the bulk of the file.
	var small bytes.Buffer
	small.WriteByte('{')
	var spans = map[string]canonjson.Member{}
	for _, mb := range o.Members {
		switch mb.Name {
		case "serverInfo", "capabilities", "instructions", "fingerprints", "extensions":
			spans[mb.Name] = mb
			continue
		case ListTools, ListPrompts, ListResources, ListResourceTemplates:
			if mb.Array {
				spans[mb.Name] = mb
				continue
			}
		}
		if small.Len() > 1 {
			small.WriteByte(',')
		}
		small.Write(canonjson.AppendString(nil, mb.Name))
		small.WriteByte(':')
		small.Write(data[mb.Start:mb.End])
	}
	small.WriteByte('}')
	var f fileShape
	if err := json.Unmarshal(small.Bytes(), &f); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if f.SnapshotVersion == nil {
		return nil, errNoVersion
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
	for _, x := range []struct {
		name string
		dst  *json.RawMessage
	}{{"serverInfo", &m.ServerInfo}, {"capabilities", &m.Capabilities}, {"instructions", &m.Instructions}} {
		mb, ok := spans[x.name]
		if !ok {
			continue
		}
		if *x.dst, err = Canonicalize(data[mb.Start:mb.End]); err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", x.name, err)
		}
	}
	raw := map[string][]json.RawMessage{}
	for _, list := range Lists {
		mb, ok := spans[list]
		if !ok {
			continue
		}
		items := make([]json.RawMessage, len(mb.Elements))
		for i, e := range mb.Elements {
			items[i] = data[e[0]:e[1]:e[1]]
		}
		raw[list] = items
	}
	if err := m.readPartial(f, raw); err != nil {
		return nil, err
	}
	for _, u := range f.Unidentified {
		if _, ok := KindOfList(u.List); !ok || u.Index < 0 || len(u.Item) == 0 {
			return nil, fmt.Errorf("snapshot unidentified: an entry needs a known list, an index and the item (got list %q, index %d)", u.List, u.Index)
		}
		c, err := Canonicalize(u.Item)
		if err != nil {
			return nil, fmt.Errorf("snapshot unidentified %s[%d]: %w", u.List, u.Index, err)
		}
		m.Unidentified = append(m.Unidentified, Unidentified{List: u.List, Index: u.Index, Item: c})
	}
	if mb, ok := spans["extensions"]; ok {
		if m.Ext, err = readExtensions(data[mb.Start:mb.End]); err != nil {
			return nil, err
		}
	}
	var block []byte
	if mb, ok := spans["fingerprints"]; ok {
		block = data[mb.Start:mb.End]
	}
	recorded, err := recordedJCS(block)
	if err != nil {
		return nil, err
	}
	if err := m.setItemsShared(raw, recorded); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	for _, t := range f.ProtocolTrials {
		if t.Revision == "" {
			return nil, errors.New("snapshot protocolTrials: a trial without a revision")
		}
		m.AddTrial(t)
	}
	for _, t := range f.CapabilityTrials {
		if t.Method != capture.MethodResourcesSubscribe && t.Method != capture.MethodCompletionComplete {
			return nil, fmt.Errorf("snapshot capabilityTrials: method %q is not resources/subscribe or completion/complete", t.Method)
		}
		m.addCapabilityTrial(t)
	}
	return m, nil
}

// readPartial takes the failed lists of a partial snapshot, refusing
// what a written one never holds: a method that is not a list, a failure
// without its page or code, and items in a list that failed.
func (m *Manifest) readPartial(f fileShape, raw map[string][]json.RawMessage) error {
	for _, method := range slices.Sorted(maps.Keys(f.Partial)) {
		p := f.Partial[method]
		k, ok := KindOfMethod(method)
		switch {
		case !ok:
			return fmt.Errorf("snapshot partial: %q is not a list method (%s, %s, %s or %s)", method,
				capture.MethodToolsList, capture.MethodPromptsList, capture.MethodResourcesList, capture.MethodResourceTemplatesList)
		case p == nil || p.Page == nil || p.Code == nil || *p.Page < 1:
			return fmt.Errorf("snapshot partial: %s needs a page (from 1) and a code", method)
		case len(raw[k.List]) > 0:
			return fmt.Errorf("snapshot partial: %s failed, yet %s holds %d item(s): a failed list holds nothing; capture the server again", method, k.List, len(raw[k.List]))
		}
		if m.Partial == nil {
			m.Partial = map[string]ListFailure{}
		}
		m.Partial[method] = ListFailure{Page: *p.Page, Code: *p.Code, Message: p.Message}
	}
	return nil
}

var errNoVersion = errors.New(`snapshot has no "snapshotVersion"; is this an mcp-surface.json file?`)

// syntaxError words a syntax error as encoding/json does (the reader
// that decoded the file whole reported its words), or, should it see
// none, as the outline does.
func syntaxError(data []byte, err error) error {
	if json.Valid(data) {
		return err
	}
	var top map[string]json.RawMessage
	return json.Unmarshal(data, &top)
}

// DefaultMaxFileBytes bounds the snapshot files ReadFile reads: four
// times the default capture budget, far above any snapshot a default
// capture writes, and far below what would exhaust a runner's memory.
const DefaultMaxFileBytes int64 = 256 << 20

// FileLimit is what a *infile.TooLargeError from ReadFileContext names.
const FileLimit = "a snapshot file"

// ReadFile reads a snapshot file of at most DefaultMaxFileBytes.
func ReadFile(path string) (*Manifest, error) {
	return ReadFileContext(context.Background(), path, 0)
}

// ReadFileContext reads a snapshot file of at most maxBytes
// (DefaultMaxFileBytes when 0); cancelling ctx stops a read that waits,
// on a FIFO for one.
func ReadFileContext(ctx context.Context, path string, maxBytes int64) (*Manifest, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFileBytes
	}
	data, err := infile.Read(ctx, path, FileLimit, maxBytes)
	if err != nil {
		return nil, err
	}
	m, err := FromCanonicalJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteFile writes the snapshot file whole: an interrupted run never
// leaves half a snapshot, and a device or FIFO is written in place
// (outfile). It streams (EncodeTo): the file's bytes are never all in
// memory.
func WriteFile(path string, m *Manifest) error {
	return WriteFileContext(context.Background(), path, m)
}

// WriteFileContext is WriteFile with a context that bounds the wait for a
// FIFO's reader and interrupts a write that blocks.
func WriteFileContext(ctx context.Context, path string, m *Manifest) error {
	f, err := outfile.Create(ctx, path)
	if err != nil {
		return err
	}
	w := &errWriter{w: f}
	if err := EncodeTo(w, m); err != nil {
		if w.err != nil {
			return f.Commit() // reports the write's error, with the path, and drops the file
		}
		f.Abort()
		return err
	}
	return f.Commit()
}

// errWriter remembers whether a write failed, to tell a failed write from
// a failed encoding.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// recordedJCS reads the definition hashes a file's fingerprints block
// recorded (list → identity → jcs). The rest of the block is recomputed
// from the content and never read; the definition hashes cannot be (they
// hash the items as served, which the canonical items do not keep), so
// they are read, and refused when they are not SHA-256 hex digests.
// A file without them (written before them), or whose block is not an
// object, records none. The result is never nil.
func recordedJCS(fingerprints []byte) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	var block map[string]json.RawMessage
	if json.Unmarshal(fingerprints, &block) != nil {
		return out, nil
	}
	for _, list := range Lists {
		raw, ok := block[list]
		if !ok {
			continue
		}
		var byID map[string]struct {
			JCS *string `json:"jcs"`
		}
		if json.Unmarshal(raw, &byID) != nil {
			continue
		}
		for id, p := range byID {
			if p.JCS == nil {
				continue
			}
			if !isHexDigest(*p.JCS) {
				return nil, fmt.Errorf("snapshot fingerprints.%s[%q].jcs is not a SHA-256 hex digest: remove it, or capture the server again", list, id)
			}
			if out[list] == nil {
				out[list] = map[string]string{}
			}
			out[list][id] = *p.JCS
		}
	}
	return out, nil
}

func isHexDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && (s[i] < 'a' || s[i] > 'f') {
			return false
		}
	}
	return true
}
