package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// DuplicateError reports identities advertised more than once.
type DuplicateError struct {
	List string
	IDs  []string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s: identity listed more than once: %s (each %s must be unique; fix the server's list)",
		e.List, quoteList(e.IDs), identityOf(e.List))
}

// identityOf returns the member that identifies an item of a list.
func identityOf(list string) string {
	k, _ := KindOfList(list)
	return k.Identity
}

func quoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// Build reduces a capture to its canonical snapshot. Items are taken from
// the raw pages; an item without a string identity (*UnidentifiedError),
// or an identity listed twice, is refused with an error that names it.
func Build(c *capture.Capture) (*Manifest, error) { return build(c, false) }

// BuildPartial is Build for a snapshot that may be incomplete: an item
// without its identity is recorded in Manifest.Unidentified (raw, with its
// list and position) instead of refusing the whole server for it.
func BuildPartial(c *capture.Capture) (*Manifest, error) { return build(c, true) }

func build(c *capture.Capture, partial bool) (*Manifest, error) {
	if len(c.HandshakeResult) == 0 {
		return nil, errors.New("capture has no handshake result")
	}
	hs, err := decode(c.HandshakeResult)
	if err != nil {
		return nil, fmt.Errorf("handshake result: %w", err)
	}
	hm, ok := hs.(map[string]any)
	if !ok {
		return nil, errors.New("handshake result is not a JSON object")
	}
	m := &Manifest{
		SnapshotVersion: FormatVersion,
		ProtocolVersion: c.ProtocolVersion,
		Handshake:       c.Handshake,
	}
	serverInfo := hm["serverInfo"]
	if c.Handshake == capture.HandshakeDiscover {
		if meta, ok := hm["_meta"].(map[string]any); ok {
			serverInfo = meta["io.modelcontextprotocol/serverInfo"]
		}
	}
	// Listed in server/discover, even when the session went on with initialize.
	m.SupportedVersions = c.SupportedVersions()
	if serverInfo != nil {
		if m.ServerInfo, err = CanonicalizeValue(serverInfo); err != nil {
			return nil, fmt.Errorf("serverInfo: %w", err)
		}
	}
	if caps, ok := hm["capabilities"]; ok {
		if m.Capabilities, err = CanonicalizeValue(caps); err != nil {
			return nil, fmt.Errorf("capabilities: %w", err)
		}
	}
	if ins, ok := hm["instructions"]; ok {
		if m.Instructions, err = CanonicalizeValue(ins); err != nil {
			return nil, fmt.Errorf("instructions: %w", err)
		}
	}

	failed := m.partialOf(c)
	raw := map[string][]json.RawMessage{}
	for _, p := range c.Pages {
		kind, ok := KindOfMethod(p.Method)
		if !ok || failed[p.Method] {
			// The pages a failed list did answer are not the list: it
			// holds nothing, and Partial says why.
			continue
		}
		list := kind.List
		arr, err := splitItems(p.Result, list)
		if err != nil {
			return nil, fmt.Errorf("%s page %d: %w", p.Method, p.Index+1, err)
		}
		raw[list] = append(raw[list], arr...)
	}
	if partial {
		for _, list := range Lists {
			raw[list] = m.setAsideUnidentified(list, raw[list])
		}
	}
	// Before the items: setItems computes the manifest hash, which covers
	// failedMethods and partial (as it does when the file is read back).
	for _, d := range c.Diagnostics {
		if (d.Code == capture.DiagListError || d.Code == capture.DiagSubscribeError) && d.RPCCode != 0 && d.Method != "" && !failed[d.Method] {
			if m.FailedMethods == nil {
				m.FailedMethods = map[string]int64{}
			}
			m.FailedMethods[d.Method] = d.RPCCode
		}
	}
	if m.Ext, err = buildExtensions(c, m.DeclaredExtensions()); err != nil {
		return nil, err
	}
	if err := m.setItems(raw); err != nil {
		return nil, err
	}
	for _, t := range c.Trials {
		m.AddTrial(t)
	}
	for _, t := range c.CapabilityTrials {
		m.addCapabilityTrial(t)
	}
	return m, nil
}

// setAsideUnidentified moves the items of a list that have no string
// identity into m.Unidentified, and returns the others.
func (m *Manifest) setAsideUnidentified(list string, items []json.RawMessage) []json.RawMessage {
	key := identityOf(list)
	out := items[:0:0]
	for i, it := range items {
		var probe map[string]json.RawMessage
		var id string
		if json.Unmarshal(it, &probe) == nil && json.Unmarshal(probe[key], &id) == nil && probe[key] != nil {
			out = append(out, it)
			continue
		}
		canon, err := Canonicalize(it)
		if err != nil {
			canon, _ = json.Marshal(string(it)) // not JSON the canonical form reads: kept as a string
		}
		m.Unidentified = append(m.Unidentified, Unidentified{List: list, Index: i, Item: canon})
	}
	return out
}

// partialOf records the capture's failed lists (capture.ListFailures) in
// Partial and returns their methods.
func (m *Manifest) partialOf(c *capture.Capture) map[string]bool {
	failed := map[string]bool{}
	for _, f := range c.ListFailures() {
		if _, ok := KindOfMethod(f.Method); !ok || failed[f.Method] {
			continue
		}
		failed[f.Method] = true
		if m.Partial == nil {
			m.Partial = map[string]ListFailure{}
		}
		m.Partial[f.Method] = ListFailure{Page: f.Page, Code: f.Code, Message: f.Message}
	}
	return failed
}

// setItems canonicalizes, identifies, sorts and de-duplicates the raw
// items of every list, then computes the fingerprints. Every item is a
// copy: nothing of raw is kept.
func (m *Manifest) setItems(raw map[string][]json.RawMessage) error {
	return m.buildLists(raw, false, nil)
}

// setItemsShared is setItems for items that are sub-slices of a file
// read whole: an item already canonical is kept as it is, not copied,
// when every item is, as in a compact file. When only some are, those
// are copied too, so that a few items do not keep the whole file in
// memory.
//
// recorded are the definition hashes the file recorded (list → identity
// → jcs; not nil): an item read back keeps the one recorded when it was
// captured.
func (m *Manifest) setItemsShared(raw map[string][]json.RawMessage, recorded map[string]map[string]string) error {
	return m.buildLists(raw, true, recorded)
}

func (m *Manifest) buildLists(raw map[string][]json.RawMessage, share bool, recorded map[string]map[string]string) error {
	prints := map[string][]Prints{}
	var shared, total int
	for _, list := range Lists {
		var rec map[string]string
		if recorded != nil {
			rec = recorded[list]
			if rec == nil {
				rec = map[string]string{}
			}
		}
		items, ps, n, err := buildItems(list, raw[list], share, rec)
		if err != nil {
			return err
		}
		shared += n
		total += len(items)
		prints[list] = ps
		*ofList(list, &m.Tools, &m.Prompts, &m.Resources, &m.ResourceTemplates) = items
	}
	if shared > 0 && shared < total {
		for _, list := range Lists {
			for i, it := range m.Items(list) {
				if cap(it.Raw) == len(it.Raw) { // a sub-slice (copies are exact too, cloning them is harmless)
					m.Items(list)[i].Raw = bytes.Clone(it.Raw)
				}
			}
		}
	}
	return m.computeFingerprints(prints)
}

// canonicalizers keep the scratch space of item canonicalization between
// items.
var canonicalizers = sync.Pool{New: func() any { return new(canonjson.Canonicalizer) }}

// canonicalItem renders an item in canonical form. With share, an item
// already canonical is returned as it is (shared reports it); any other
// is a copy of exactly its length.
func canonicalItem(raw []byte, share bool) (canon []byte, shared bool, err error) {
	z := canonicalizers.Get().(*canonjson.Canonicalizer)
	defer canonicalizers.Put(z)
	buf := scratchItems.Get().(*[]byte)
	defer scratchItems.Put(buf)
	out, err := z.AppendOrdered((*buf)[:0], raw)
	if err != nil {
		return nil, false, err
	}
	if cap(out) <= 4<<20 { // a huge item's buffer is not worth keeping
		*buf = out
	}
	if share && bytes.Equal(out, raw) {
		return raw, true, nil
	}
	return bytes.Clone(out), false, nil
}

var scratchItems = sync.Pool{New: func() any { return new([]byte) }}

// buildItems returns the list's items sorted by identity, and their
// fingerprints in the same order. Each item is decoded once, on one of
// GOMAXPROCS workers, and its decoded form dropped as soon as it is hashed.
//
// Each item's definition hash (Prints.JCS) is taken from recorded (a
// file read back), or, when recorded is nil (a capture), computed from
// the item's bytes as served.
func buildItems(list string, raw []json.RawMessage, share bool, recorded map[string]string) ([]Item, []Prints, int, error) {
	key := identityOf(list)
	type entry struct {
		item   Item
		prints Prints
	}
	entries := make([]entry, len(raw))
	var shared atomic.Int64
	err := parallel(len(raw), func(i int) error {
		// Items keep the order of every array whose order is meaning;
		// only JSON Schema's sets (required, type) are sorted.
		canon, sh, err := canonicalItem(raw[i], share)
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", list, i, err)
		}
		if sh {
			shared.Add(1)
		}
		v, err := decode(canon)
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", list, i, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s[%d] is not a JSON object", list, i)
		}
		id, ok := obj[key].(string)
		if !ok {
			return &UnidentifiedError{List: list, Index: i}
		}
		p, err := printsOf(list, canon, obj)
		if err != nil {
			return fmt.Errorf("%s %q: %w", list, id, err)
		}
		if recorded != nil {
			p.JCS = recorded[id]
		} else if h, err := canonjson.JCSHash(raw[i]); err == nil {
			// An item without an RFC 8785 form (a repeated member
			// name) has no definition hash: it matches nothing.
			p.JCS = h
		}
		entries[i] = entry{Item{ID: id, Raw: canon}, p}
		return nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.item.ID, b.item.ID) })
	var dups []string
	for i := 1; i < len(entries); i++ {
		if entries[i].item.ID == entries[i-1].item.ID && (len(dups) == 0 || dups[len(dups)-1] != entries[i].item.ID) {
			dups = append(dups, entries[i].item.ID)
		}
	}
	if len(dups) > 0 {
		return nil, nil, 0, &DuplicateError{List: list, IDs: dups}
	}
	items := make([]Item, len(entries))
	prints := make([]Prints, len(entries))
	for i, e := range entries {
		items[i], prints[i] = e.item, e.prints
	}
	return items, prints, int(shared.Load()), nil
}

func (m *Manifest) computeFingerprints(itemPrints map[string][]Prints) error {
	fp := Fingerprints{
		Tools: map[string]Prints{}, Prompts: map[string]Prints{},
		Resources: map[string]Prints{}, ResourceTemplates: map[string]Prints{},
	}
	for _, list := range Lists {
		dst := map[string]map[string]Prints{
			ListTools: fp.Tools, ListPrompts: fp.Prompts,
			ListResources: fp.Resources, ListResourceTemplates: fp.ResourceTemplates,
		}[list]
		for i, it := range m.Items(list) {
			dst[it.ID] = itemPrints[list][i]
		}
	}
	var err error
	if fp.Skills, fp.Groups, err = m.Ext.extPrints(); err != nil {
		return err
	}
	h, err := m.manifestHash()
	if err != nil {
		return err
	}
	fp.Manifest = h
	fp.JCS = m.setDigests(itemPrints)
	m.Fingerprints = fp
	return nil
}

// ItemValue decodes an item's canonical JSON (numbers as json.Number).
func ItemValue(it Item) (map[string]any, error) {
	v, err := decode(it.Raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("item is not a JSON object")
	}
	return obj, nil
}

// Decode parses JSON keeping numbers exact (json.Number), as the manifest
// does internally; for packages that inspect items.
func Decode(data []byte) (any, error) { return decode(data) }

// parallel runs fn(0..n-1) on up to GOMAXPROCS goroutines and returns the
// error of the lowest index that failed, so errors are deterministic.
func parallel(n int, fn func(i int) error) error {
	workers := runtime.GOMAXPROCS(0)
	if n < 64 || workers < 2 {
		for i := 0; i < n; i++ {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = fn(i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
