package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
)

// The interoperable digests of "tool definition hash v1" (the recipe
// mcp-pin publishes with test vectors, and the Tool Manifests proposal
// builds on): beside the snapshot's own fingerprints, which hash its
// canonical form, so that a lock written by mcp-surface can be checked
// by other tools and theirs by us.
//
//   - a definition hash (Prints.JCS): SHA-256 of the RFC 8785 form of one
//     item exactly as served;
//   - a set digest (SetDigest) per list: SHA-256 of the lines
//     "name:hash", sorted by name in UTF-16 code units (ties by hash),
//     joined by "\n" without a final one; an empty list hashes "";
//   - the instructions hash (InstructionsHash): SHA-256 of their UTF-8.

// namedHash is one line of a set digest: a definition's name member and
// its definition hash.
type namedHash struct{ Name, Hash string }

// errNoSetDigest is setDigestOf's error for a listing that has none: an
// item without a string name or without a definition hash.
var errNoSetDigest = errors.New("a definition has no string name or no RFC 8785 form: the listing has no set digest")

// setDigest is the set digest of the definitions' names and hashes, and
// the lines it hashed.
func setDigest(defs []namedHash) (string, []string) {
	sorted := slices.Clone(defs)
	slices.SortFunc(sorted, func(a, b namedHash) int {
		if c := slices.Compare(utf16.Encode([]rune(a.Name)), utf16.Encode([]rune(b.Name))); c != 0 {
			return c
		}
		return strings.Compare(a.Hash, b.Hash)
	})
	lines := make([]string, len(sorted))
	for i, d := range sorted {
		lines[i] = d.Name + ":" + d.Hash
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:]), lines
}

// setDigestOf is the set digest of a listing served over one or more
// pages (each a JSON array of definitions, as a list result holds them).
func setDigestOf(pages ...[]byte) (string, error) {
	var defs []namedHash
	for _, page := range pages {
		var items []json.RawMessage
		if err := json.Unmarshal(page, &items); err != nil {
			return "", err
		}
		for _, it := range items {
			var named struct {
				Name json.RawMessage `json:"name"`
			}
			var name string
			if json.Unmarshal(it, &named) != nil || json.Unmarshal(named.Name, &name) != nil || !isJSONString(named.Name) {
				return "", errNoSetDigest
			}
			h, err := canonjson.JCSHash(it)
			if err != nil {
				return "", errNoSetDigest
			}
			defs = append(defs, namedHash{name, h})
		}
	}
	d, _ := setDigest(defs)
	return d, nil
}

func isJSONString(raw json.RawMessage) bool {
	return len(raw) > 0 && raw[0] == '"'
}

// instructionsHash is the instructions hash of a server's instructions
// value (raw JSON): SHA-256 of the string's UTF-8, nil when the value is
// absent or not a string. An unpaired surrogate reads as U+FFFD, as the
// recipe's UTF-8 encoding writes it.
func instructionsHash(raw json.RawMessage) *string {
	var s string
	if !isJSONString(raw) || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:])
	return &h
}

// setDigests computes the snapshot's set digests from its items' prints:
// nil for a snapshot that has items and recorded no definition hash (one
// written before them), which reads and writes back as it was.
func (m *Manifest) setDigests(itemPrints map[string][]Prints) *SetDigests {
	items, recorded := 0, 0
	for _, ps := range itemPrints {
		for _, p := range ps {
			items++
			if p.JCS != "" {
				recorded++
			}
		}
	}
	if items > 0 && recorded == 0 {
		return nil
	}
	d := &SetDigests{Instructions: instructionsHash(m.Instructions)}
	for _, list := range Lists {
		var defs []namedHash
		ok := true
		for i, it := range m.Items(list) {
			var named struct {
				Name *string `json:"name"`
			}
			p := itemPrints[list][i]
			if p.JCS == "" || json.Unmarshal(it.Raw, &named) != nil || named.Name == nil {
				ok = false
				break
			}
			defs = append(defs, namedHash{*named.Name, p.JCS})
		}
		digest := ""
		if ok {
			digest, _ = setDigest(defs)
		}
		*ofList(list, &d.Tools, &d.Prompts, &d.Resources, &d.ResourceTemplates) = digest
	}
	return d
}
