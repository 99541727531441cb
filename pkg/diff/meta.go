package diff

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// icons compares two icons arrays: a new origin or a new SVG icon is
// tool-icon-origin-changed (whatever the subject), anything else rule.
func (d *differ) icons(subj finding.Subject, rule, p string, b, h json.RawMessage) {
	bo, bsvg := iconOrigins(b)
	ho, hsvg := iconOrigins(h)
	var fresh []string
	for _, o := range ho {
		if !slices.Contains(bo, o) {
			fresh = append(fresh, o)
		}
	}
	if len(fresh) > 0 || (hsvg && !bsvg) {
		why := "an SVG icon appeared"
		if len(fresh) > 0 {
			why = "icons are now served from " + strings.Join(fresh, ", ")
		}
		d.emit(rules.ToolIconOriginChanged, subj, p, why, b, h)
		return
	}
	d.emit(rule, subj, p, changedMsg("icons", b, h), b, h)
}

// iconOrigins returns the distinct origins of an icons array (scheme://host,
// or the scheme alone for data: and other opaque URIs) and whether any
// icon is SVG.
func iconOrigins(raw json.RawMessage) (origins []string, svg bool) {
	for _, it := range parseArray(raw) {
		o := parseObject(it)
		src, _ := o.str("src")
		mt, _ := o.str("mimeType")
		origin := "(invalid)"
		if u, err := url.Parse(src); err == nil {
			switch {
			case u.Host != "":
				origin = strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
			case u.Scheme != "":
				origin = strings.ToLower(u.Scheme) + ":"
			default:
				origin = "(relative)"
			}
			if strings.HasSuffix(strings.ToLower(u.Path), ".svg") ||
				strings.HasPrefix(strings.ToLower(src), "data:image/svg") {
				svg = true
			}
		}
		if strings.Contains(strings.ToLower(mt), "svg") {
			svg = true
		}
		if !slices.Contains(origins, origin) {
			origins = append(origins, origin)
		}
	}
	return origins, svg
}

// toolMeta compares a tool's _meta key by key.
func (d *differ) toolMeta(subj finding.Subject, b, h object) {
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		if d.lifecycleKey(k) {
			continue
		}
		p := ptr("/_meta", k)
		switch {
		case d.reservedKey(k):
			d.emit(rules.ToolMetaReservedKeyChanged, subj, p, changedMsg("reserved _meta key "+quote(k), bv, hv), bv, hv)
		case isNull(bv):
			d.emit(rules.ToolMetaKeyAdded, subj, p, fmt.Sprintf("_meta key %s added", quote(k)), nil, hv)
		case isNull(hv):
			d.emit(rules.ToolMetaKeyRemoved, subj, p, fmt.Sprintf("_meta key %s removed", quote(k)), bv, nil)
		default:
			d.emit(rules.ToolMetaValueChanged, subj, p, changedMsg("_meta key "+quote(k), bv, hv), bv, hv)
		}
	}
}

// itemMeta compares the _meta of a prompt, resource or template key by key.
func (d *differ) itemMeta(subj finding.Subject, rule string, b, h object) {
	for _, k := range changedKeys(b, h) {
		bv, hv := b.get(k), h.get(k)
		if d.lifecycleKey(k) {
			continue
		}
		d.emit(rule, subj, ptr("/_meta", k), changedMsg("_meta key "+quote(k), bv, hv), bv, hv)
	}
}

func (d *differ) lifecycleKey(k string) bool { return k == d.deprecatedKey || k == d.sunsetKey }

// reservedKey reports whether a _meta key has a prefix the specification
// reserves or a configured prefix. A configured prefix without a trailing
// slash matches that exact key. Reserved by the specification: a prefix
// whose second label is "modelcontextprotocol" or "mcp" (2026-07-28, e.g.
// io.modelcontextprotocol/), or in which such a label is followed by
// another one (2025-06-18 wording, e.g. modelcontextprotocol.io/).
func (d *differ) reservedKey(k string) bool {
	for _, p := range d.reserved {
		if p == "" {
			continue
		}
		if strings.HasSuffix(p, "/") {
			if strings.HasPrefix(k, p) {
				return true
			}
		} else if k == p {
			return true
		}
	}
	slash := strings.IndexByte(k, '/')
	if slash <= 0 {
		return false
	}
	labels := strings.Split(k[:slash], ".")
	mcp := func(l string) bool { return l == "modelcontextprotocol" || l == "mcp" }
	if len(labels) >= 2 && mcp(labels[1]) {
		return true
	}
	for _, l := range labels[:len(labels)-1] {
		if mcp(l) {
			return true
		}
	}
	return false
}

// lifecycle is an item's deprecation state.
type lifecycle struct {
	deprecated bool
	marker     string    // pointer of the marker: /_meta/<key> or /description
	sunset     time.Time // zero when absent or unparsable
	sunsetRaw  json.RawMessage
}

func (d *differ) lifecycleOf(o object) lifecycle {
	var l lifecycle
	meta := o.obj("_meta")
	if v := meta.get(d.deprecatedKey); v != nil && string(v) != "false" {
		l.deprecated = true
		l.marker = ptr("/_meta", d.deprecatedKey)
	}
	if desc, ok := o.str("description"); ok && !l.deprecated {
		for _, m := range d.markers {
			if m != "" && strings.Contains(desc, m) {
				l.deprecated = true
				l.marker = "/description"
				break
			}
		}
	}
	if v := meta.get(d.sunsetKey); v != nil {
		l.sunsetRaw = v
		if s, ok := stringValue(v); ok {
			l.sunset = parseDate(s)
		}
	}
	return l
}

// parseDate accepts RFC 3339 and YYYY-MM-DD (midnight UTC).
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t
	}
	return time.Time{}
}
