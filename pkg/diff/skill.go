package diff

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/base/jsonptr"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Skills are compared by the URI of their SKILL.md, the identity the
// Skills extension gives them (SEP-2640, "Skill URIs" and "Names": a
// name is a label and may repeat). The frontmatter fields it names,
// the manifest of files with their digests, and the SKILL.md text, which
// goes through the text detectors as a tool description does.

// skills compares the skills of two snapshots. A side whose skills/list
// failed (extension partial) is not compared: unknown is not empty.
func (d *differ) skills() {
	bx, hx := d.base.Ext, d.head.Ext
	if extFailed(bx, "skills/list") || extFailed(hx, "skills/list") {
		return
	}
	bs, hs := extOf(bx).Skills, extOf(hx).Skills
	i, j := 0, 0
	for i < len(bs) || j < len(hs) {
		switch {
		case j >= len(hs) || (i < len(bs) && bs[i].URI < hs[j].URI):
			d.emit(rules.SkillRemoved, subject(finding.KindSkill, bs[i].URI), "",
				fmt.Sprintf("skill %s (%s) is no longer listed: skills/get for it fails", quote(bs[i].Name), quote(bs[i].URI)), jsonString(bs[i].URI), nil)
			i++
		case i >= len(bs) || hs[j].URI < bs[i].URI:
			s := hs[j]
			d.emit(rules.SkillAdded, subject(finding.KindSkill, s.URI), "", fmt.Sprintf("skill %s (%s) is listed", quote(s.Name), quote(s.URI)), nil, jsonString(s.URI))
			fm := frontmatterOf(s)
			d.scanText(subject(finding.KindSkill, s.URI), "/frontmatter/description", nil, fm["description"], false)
			if s.HasText {
				d.scanText(subject(finding.KindSkill, s.URI), "/skillMd", nil, jsonString(s.Text), false)
			}
			j++
		default:
			d.skill(bs[i], hs[j])
			i++
			j++
		}
	}
}

func extFailed(x *manifest.Extensions, method string) bool {
	_, ok := extOf(x).Partial[method]
	return ok
}

// extOf is a snapshot's extensions, none (not nil) for a snapshot
// without.
func extOf(x *manifest.Extensions) *manifest.Extensions {
	if x == nil {
		return &manifest.Extensions{}
	}
	return x
}

func frontmatterOf(s manifest.Skill) map[string]json.RawMessage {
	var fm map[string]json.RawMessage
	_ = json.Unmarshal(s.Frontmatter, &fm)
	for k, v := range fm {
		fm[k] = canonRaw(v)
	}
	return fm
}

// canonRaw re-renders a raw value canonically (frontmatter is canonical
// already; the nested values keep their canonical bytes).
func canonRaw(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return v
	}
	return canon(x)
}

// skill compares one skill listed on both sides.
func (d *differ) skill(b, h manifest.Skill) {
	subj := subject(finding.KindSkill, h.URI)
	bf, hf := frontmatterOf(b), frontmatterOf(h)
	for _, k := range unionKeys(bf, hf) {
		bv, hv := bf[k], hf[k]
		if rawEqual(bv, hv) {
			continue
		}
		p := jsonptr.New("frontmatter", k).String()
		switch k {
		case "name":
			d.emit(rules.SkillNameChanged, subj, p, fmt.Sprintf("skill %s is now named %s", short(bv), short(hv)), bv, hv)
		case "description":
			d.emitText(rules.SkillDescriptionChanged, subj, p, fmt.Sprintf("the description of skill %s changed", quote(h.Name)), bv, hv)
			d.scanText(subj, p, bv, hv, true)
		case "allowed-tools":
			d.emit(rules.SkillAllowedToolsChanged, subj, p, fmt.Sprintf("skill %s asks for other tools: allowed-tools %s → %s", quote(h.Name), short(bv), short(hv)), bv, hv)
		default:
			d.emit(rules.SkillFrontmatterChanged, subj, p, fmt.Sprintf("frontmatter field %s of skill %s changed", quote(k), quote(h.Name)), bv, hv)
		}
	}
	d.skillFiles(subj, h.Name, b.Resources, h.Resources)
	if b.HasText && h.HasText && b.Text != h.Text {
		bt, ht := jsonString(b.Text), jsonString(h.Text)
		d.emitText(rules.SkillTextChanged, subj, "/skillMd", fmt.Sprintf("the SKILL.md text of skill %s changed", quote(h.Name)), bt, ht)
		d.scanText(subj, "/skillMd", bt, ht, true)
	}
}

type skillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// skillFiles compares two skill manifests file by file.
func (d *differ) skillFiles(subj finding.Subject, name string, b, h json.RawMessage) {
	if rawEqual(b, h) {
		return
	}
	var bfs, hfs []skillFile
	bArr := json.Unmarshal(b, &bfs) == nil
	hArr := json.Unmarshal(h, &hfs) == nil
	if !bArr || !hArr {
		d.emit(rules.SkillFileChanged, subj, "/resources",
			fmt.Sprintf("the file manifest of skill %s changed from %s to %s", quote(name), short(b), short(h)), canonRaw(b), canonRaw(h))
		return
	}
	index := func(fs []skillFile) map[string]skillFile {
		m := make(map[string]skillFile, len(fs))
		for _, f := range fs {
			m[f.URI] = f
		}
		return m
	}
	bm, hm := index(bfs), index(hfs)
	uris := unionKeys(bm, hm)
	slices.Sort(uris)
	for _, u := range uris {
		bf, inB := bm[u]
		hf, inH := hm[u]
		p := jsonptr.New("resources", u).String()
		switch {
		case !inH:
			d.emit(rules.SkillFileRemoved, subj, p, fmt.Sprintf("skill %s no longer has the file %s", quote(name), quote(u)), canon(bf.Digest), nil)
		case !inB:
			d.emit(rules.SkillFileAdded, subj, p, fmt.Sprintf("skill %s has a new file %s", quote(name), quote(u)), nil, canon(hf.Digest))
		case bf != hf:
			d.emit(rules.SkillFileChanged, subj, p,
				fmt.Sprintf("file %s of skill %s changed: digest %s → %s, %d → %d bytes", quote(u), quote(name), quote(shortDigest(bf.Digest)), quote(shortDigest(hf.Digest)), bf.Size, hf.Size),
				canon(bf.Digest), canon(hf.Digest))
		}
	}
}

// shortDigest is a digest cut to "sha256:" and 12 hexadecimal characters
// for a message; the finding's before and after keep it whole.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}
