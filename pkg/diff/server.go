package diff

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/textdiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

var serverSubject = finding.Subject{Kind: finding.KindServer}

// server compares the protocol versions, serverInfo and instructions
// (protocol-* and server-* rules).
func (d *differ) server() {
	d.protocol()

	bi, hi := parseObject(d.base.ServerInfo), parseObject(d.head.ServerInfo)
	for _, k := range changedKeys(bi, hi) {
		b, h := bi.get(k), hi.get(k)
		p := ptr("/serverInfo", k)
		switch k {
		case "name":
			d.emit(rules.ServerNameChanged, serverSubject, p, fmt.Sprintf("server name changed from %s to %s", short(b), short(h)), b, h)
		case "title":
			d.emitText(rules.ServerTitleChanged, serverSubject, p, changedMsg("server title", b, h), b, h)
		case "description":
			d.emitText(rules.ServerDescriptionChanged, serverSubject, p, changedMsg("server description", b, h), b, h)
			d.scanText(serverSubject, p, b, h, true)
		case "websiteUrl":
			d.emit(rules.ServerWebsiteUrlChanged, serverSubject, p, fmt.Sprintf("server website changed from %s to %s", short(b), short(h)), b, h)
		case "icons":
			d.icons(serverSubject, rules.ServerIconsChanged, p, b, h)
		case "version":
			d.emit(rules.ServerVersionChanged, serverSubject, p, fmt.Sprintf("server version changed from %s to %s", short(b), short(h)), b, h)
		default:
			d.emit(rules.ServerUnknownFieldChanged, serverSubject, p, fmt.Sprintf("serverInfo field %q changed", k), b, h)
		}
	}

	b, h := d.base.Instructions, d.head.Instructions
	switch {
	case rawEqual(b, h):
	case isNull(b):
		d.emitText(rules.ServerInstructionsAdded, serverSubject, "/instructions", "server instructions added", nil, h)
		d.scanText(serverSubject, "/instructions", nil, h, true)
	case isNull(h):
		d.emitText(rules.ServerInstructionsRemoved, serverSubject, "/instructions", "server instructions removed", b, nil)
	default:
		d.emitText(rules.ServerInstructionsChanged, serverSubject, "/instructions", textChangedMsg("server instructions", b, h), b, h)
		d.scanText(serverSubject, "/instructions", b, h, true)
	}
}

// changedMsg describes an added, removed or changed value.
func changedMsg(what string, b, h json.RawMessage) string {
	switch {
	case isNull(b):
		return what + " added: " + short(h)
	case isNull(h):
		return what + " removed (was " + short(b) + ")"
	}
	return what + " changed from " + short(b) + " to " + short(h)
}

// textChangedMsg describes a text change by its size, the text diff
// carrying the detail.
func textChangedMsg(what string, b, h json.RawMessage) string {
	bs, _ := stringValue(b)
	hs, _ := stringValue(h)
	ins, del := textdiff.WordDelta(bs, hs)
	return fmt.Sprintf("%s changed (+%d -%d words)", what, ins, del)
}

// versionSet is the set of protocol versions a snapshot shows support for.
func versionSet(supported []string, negotiated string) []string {
	if len(supported) > 0 {
		return supported
	}
	if negotiated != "" {
		return []string{negotiated}
	}
	return nil
}

func (d *differ) protocol() {
	b, h := d.base, d.head
	// A list of supported versions is a claim; a session at the revision
	// is the proof. A revision base showed and head does not is withdrawn
	// only when head's trial of it failed; without a trial, the missing
	// listing is a warning that says so.
	listed := len(b.SupportedVersions) > 0 || len(h.SupportedVersions) > 0
	bs := versionSet(b.SupportedVersions, b.ProtocolVersion)
	hs := versionSet(h.SupportedVersions, h.ProtocolVersion)
	for _, v := range bs {
		if slices.Contains(hs, v) {
			continue
		}
		tr, tried := h.Trial(v)
		switch {
		case tried && tr.Accepted():
		case tried:
			d.emit(rules.ProtocolVersionNoLongerSupported, serverSubject, "/supportedVersions",
				fmt.Sprintf("protocol version %s is no longer supported: a session of head at %s failed (%s)", v, v, tr.Error), jsonString(v), nil)
		case listed:
			d.emit(rules.ProtocolVersionNoLongerListed, serverSubject, "/supportedVersions",
				fmt.Sprintf("protocol version %s is no longer listed by head, and no session tried it: whether clients of %s still connect is unknown", v, v), jsonString(v), nil)
		}
	}
	if listed {
		for _, v := range hs {
			if !slices.Contains(bs, v) {
				d.emit(rules.ProtocolVersionSupportAdded, serverSubject, "/supportedVersions",
					fmt.Sprintf("protocol version %s is now supported", v), nil, jsonString(v))
			}
		}
	}
	bv, hv := b.ProtocolVersion, h.ProtocolVersion
	if bv == "" || hv == "" || bv == hv {
		return
	}
	if hv < bv { // revisions are dates, YYYY-MM-DD
		d.emit(rules.ProtocolVersionDowngraded, serverSubject, "/protocolVersion",
			fmt.Sprintf("negotiated protocol version went down from %s to %s", bv, hv), jsonString(bv), jsonString(hv))
	} else {
		d.emit(rules.ProtocolVersionUpgraded, serverSubject, "/protocolVersion",
			fmt.Sprintf("negotiated protocol version went up from %s to %s", bv, hv), jsonString(bv), jsonString(hv))
	}
}

// versioning reports the versioning rules (server-version-*), judged on the
// findings after severity overrides (fs).
func (d *differ) versioning(fs []finding.Finding) {
	incompatible := false
	for _, f := range fs {
		if f.Severity == rules.SeverityBreaking || f.Severity == rules.SeverityRisky {
			if r, ok := rules.Lookup(f.Rule); ok && !r.HasTag("versioning") {
				incompatible = true
				break
			}
		}
	}
	bi, hi := parseObject(d.base.ServerInfo), parseObject(d.head.ServerInfo)
	bs, bok := bi.str("version")
	hs, hok := hi.str("version")
	if !bok || !hok {
		return
	}
	p := "/serverInfo/version"
	bsv, bparsed := parseSemver(bs)
	hsv, hparsed := parseSemver(hs)
	if bparsed && hparsed && compareSemver(hsv, bsv) < 0 {
		d.emit(rules.ServerVersionDecreased, serverSubject, p,
			fmt.Sprintf("server version went down from %q to %q", bs, hs), jsonString(bs), jsonString(hs))
	}
	if !incompatible {
		return
	}
	if bs == hs {
		d.emit(rules.ServerVersionNotBumped, serverSubject, p,
			fmt.Sprintf("breaking or risky changes, but the server version is still %q", hs), jsonString(bs), jsonString(hs))
		return
	}
	if bparsed && hparsed {
		bumped := hsv.major > bsv.major
		if bsv.major == 0 && hsv.major == 0 {
			bumped = hsv.minor > bsv.minor
		}
		if !bumped {
			d.emit(rules.ServerMajorVersionNotBumped, serverSubject, p,
				fmt.Sprintf("breaking or risky changes, but the version went from %q to %q without a major bump", bs, hs), jsonString(bs), jsonString(hs))
		}
	}
}

type semver struct {
	major, minor, patch int
	pre                 []string
}

// parseSemver accepts MAJOR[.MINOR[.PATCH]][-PRE][+BUILD] with an optional
// leading v.
func parseSemver(s string) (semver, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	var v semver
	if i := strings.IndexByte(s, '-'); i >= 0 {
		if i == len(s)-1 {
			return v, false
		}
		v.pre = strings.Split(s[i+1:], ".")
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return v, false
	}
	nums := [3]int{}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p == "" {
			return v, false
		}
		nums[i] = n
	}
	v.major, v.minor, v.patch = nums[0], nums[1], nums[2]
	return v, true
}

func compareSemver(a, b semver) int {
	for _, c := range [][2]int{{a.major, b.major}, {a.minor, b.minor}, {a.patch, b.patch}} {
		if c[0] != c[1] {
			if c[0] < c[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a.pre) == 0 && len(b.pre) == 0:
		return 0
	case len(a.pre) == 0:
		return 1
	case len(b.pre) == 0:
		return -1
	}
	for i := 0; i < len(a.pre) && i < len(b.pre); i++ {
		x, y := a.pre[i], b.pre[i]
		if x == y {
			continue
		}
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		switch {
		case xerr == nil && yerr == nil:
			if xn < yn {
				return -1
			}
			return 1
		case xerr == nil:
			return -1
		case yerr == nil:
			return 1
		case x < y:
			return -1
		default:
			return 1
		}
	}
	switch {
	case len(a.pre) < len(b.pre):
		return -1
	case len(a.pre) > len(b.pre):
		return 1
	}
	return 0
}

// fieldSince says in which protocol revisions an item field exists, for
// protocol-feature-version-mismatch on fields head introduces. Revisions
// not listed in knownRevisions are not judged.
var knownRevisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

type fieldRange struct{ from, until string } // until "" = still defined

var fieldRevisions = map[string]map[string]fieldRange{
	"tools": {
		"annotations": {from: "2025-03-26"}, "title": {from: "2025-06-18"},
		"outputSchema": {from: "2025-06-18"}, "_meta": {from: "2025-06-18"},
		"icons": {from: "2025-11-25"}, "execution": {from: "2025-11-25", until: "2025-11-25"},
	},
	"prompts": {
		"title": {from: "2025-06-18"}, "_meta": {from: "2025-06-18"}, "icons": {from: "2025-11-25"},
	},
	"resources": {
		"title": {from: "2025-06-18"}, "_meta": {from: "2025-06-18"}, "icons": {from: "2025-11-25"},
	},
	"resourceTemplates": {
		"title": {from: "2025-06-18"}, "_meta": {from: "2025-06-18"}, "icons": {from: "2025-11-25"},
	},
	"serverInfo": {
		"title": {from: "2025-06-18"}, "description": {from: "2025-11-25"},
		"icons": {from: "2025-11-25"}, "websiteUrl": {from: "2025-11-25"},
	},
}

// featureMismatch reports a field that head introduces although head's
// negotiated revision does not define it.
func (d *differ) featureMismatch(section string, subj finding.Subject, field string, value json.RawMessage) {
	if d.opts.SkipFeatureVersionCheck {
		return
	}
	rev := d.head.ProtocolVersion
	if !slices.Contains(knownRevisions, rev) {
		return
	}
	fr, ok := fieldRevisions[section][field]
	if !ok {
		return
	}
	if rev >= fr.from && (fr.until == "" || rev <= fr.until) {
		return
	}
	if _, ok := rules.Lookup(rules.ProtocolFeatureVersionMismatch); !ok {
		return
	}
	p := ptr("", field)
	if section == "serverInfo" {
		p = "/serverInfo" + p
	}
	d.emit(rules.ProtocolFeatureVersionMismatch, subj, p,
		fmt.Sprintf("%s appeared, but protocol revision %s does not define it", field, rev), nil, jsonString(field))
}

// outputSchemaMismatch reports a non-object outputSchema root that head
// introduces under a revision before 2026-07-28.
func (d *differ) outputSchemaMismatch(subj finding.Subject, base, head json.RawMessage) {
	if d.opts.SkipFeatureVersionCheck || isNull(head) {
		return
	}
	rev := d.head.ProtocolVersion
	if !slices.Contains(knownRevisions, rev) || rev >= "2026-07-28" {
		return
	}
	nonObject := func(s json.RawMessage) bool {
		if isNull(s) {
			return false
		}
		t, _ := parseObject(s).str("type")
		return t != "object"
	}
	if !nonObject(head) || nonObject(base) {
		return
	}
	if _, ok := rules.Lookup(rules.ProtocolFeatureVersionMismatch); !ok {
		return
	}
	t := parseObject(head).get("type")
	d.emit(rules.ProtocolFeatureVersionMismatch, subj, "/outputSchema/type",
		fmt.Sprintf("outputSchema root is not an object, which protocol revision %s does not allow", rev), nil, t)
}
