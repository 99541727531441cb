package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// identityKey is the field that identifies an item of each section.
var identityKey = map[string]string{
	SectionTools:             "name",
	SectionPrompts:           "name",
	SectionResources:         "uri",
	SectionResourceTemplates: "uriTemplate",
}

// sectionOfMethod maps list methods onto snapshot sections.
var sectionOfMethod = map[string]string{
	capture.MethodToolsList:             SectionTools,
	capture.MethodPromptsList:           SectionPrompts,
	capture.MethodResourcesList:         SectionResources,
	capture.MethodResourceTemplatesList: SectionResourceTemplates,
}

// DuplicateError reports identities advertised more than once.
type DuplicateError struct {
	Section string
	IDs     []string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s: identity listed more than once: %s (each %s must be unique; fix the server's list)",
		e.Section, quoteList(e.IDs), identityKey[e.Section])
}

func quoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// Build reduces a capture to its canonical snapshot. Items are taken from
// the raw pages; an item without a string identity, or an identity listed
// twice, is refused with an error that names it.
func Build(c *capture.Capture) (*Manifest, error) {
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
		if sv, ok := hm["supportedVersions"].([]any); ok {
			for _, v := range sv {
				if s, ok := v.(string); ok {
					m.SupportedVersions = append(m.SupportedVersions, s)
				}
			}
			slices.Sort(m.SupportedVersions)
		}
	}
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

	raw := map[string][]any{}
	for _, p := range c.Pages {
		section, ok := sectionOfMethod[p.Method]
		if !ok {
			continue
		}
		v, err := decode(p.Result)
		if err != nil {
			return nil, fmt.Errorf("%s page %d: %w", p.Method, p.Index+1, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s page %d: result is not a JSON object", p.Method, p.Index+1)
		}
		key := capture.ItemsKey[p.Method]
		list, present := obj[key]
		if !present || list == nil {
			continue
		}
		arr, ok := list.([]any)
		if !ok {
			return nil, fmt.Errorf("%s page %d: %q is not an array", p.Method, p.Index+1, key)
		}
		for i, it := range arr {
			if _, ok := it.(map[string]any); !ok {
				return nil, fmt.Errorf("%s page %d: %s[%d] is not a JSON object", p.Method, p.Index+1, key, i)
			}
		}
		raw[section] = append(raw[section], arr...)
	}
	if err := m.setItems(raw); err != nil {
		return nil, err
	}
	if err := m.computeFingerprints(); err != nil {
		return nil, err
	}
	return m, nil
}

// setItems canonicalizes, identifies, sorts and de-duplicates the decoded
// items of every section.
func (m *Manifest) setItems(raw map[string][]any) error {
	for _, section := range Sections {
		items, err := buildItems(section, raw[section])
		if err != nil {
			return err
		}
		switch section {
		case SectionTools:
			m.Tools = items
		case SectionPrompts:
			m.Prompts = items
		case SectionResources:
			m.Resources = items
		case SectionResourceTemplates:
			m.ResourceTemplates = items
		}
	}
	return nil
}

func buildItems(section string, raw []any) ([]Item, error) {
	key := identityKey[section]
	items := make([]Item, 0, len(raw))
	for i, v := range raw {
		obj := v.(map[string]any)
		id, ok := obj[key].(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d] has no string %q, so it cannot be identified", section, i, key)
		}
		b, err := CanonicalizeValue(obj)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", section, id, err)
		}
		items = append(items, Item{ID: id, Raw: b})
	}
	slices.SortStableFunc(items, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	var dups []string
	for i := 1; i < len(items); i++ {
		if items[i].ID == items[i-1].ID && (len(dups) == 0 || dups[len(dups)-1] != items[i].ID) {
			dups = append(dups, items[i].ID)
		}
	}
	if len(dups) > 0 {
		return nil, &DuplicateError{Section: section, IDs: dups}
	}
	return items, nil
}

func (m *Manifest) computeFingerprints() error {
	fp := Fingerprints{
		Tools: map[string]Prints{}, Prompts: map[string]Prints{},
		Resources: map[string]Prints{}, ResourceTemplates: map[string]Prints{},
	}
	for _, section := range Sections {
		dst := map[string]map[string]Prints{
			SectionTools: fp.Tools, SectionPrompts: fp.Prompts,
			SectionResources: fp.Resources, SectionResourceTemplates: fp.ResourceTemplates,
		}[section]
		for _, it := range m.Items(section) {
			v, err := decode(it.Raw)
			if err != nil {
				return err
			}
			p, err := printsOf(section, it.Raw, v.(map[string]any))
			if err != nil {
				return fmt.Errorf("%s %q: %w", section, it.ID, err)
			}
			dst[it.ID] = p
		}
	}
	body, err := m.canonicalBody()
	if err != nil {
		return err
	}
	fp.Manifest = Hash(body)
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

var _ = json.Valid
