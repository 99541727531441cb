package diff

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/mcp-surface/mcp-surface/pkg/diff/witness"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
	"github.com/mcp-surface/mcp-surface/pkg/spec/clients"
)

// Options tune the comparison. The zero value is usable: every field has a
// documented default.
type Options struct {
	// Now is the clock for sunset dates. The zero time means unknown: a
	// deprecated item removed with a sunset date then counts as removed
	// before its sunset (fail closed).
	Now time.Time
	// Lifecycle says how deprecation is marked (MCP has no standard field).
	Lifecycle Lifecycle
	// ReservedMetaPrefixes are _meta key prefixes whose changes are
	// tool-meta-reserved-key-changed, in addition to the prefixes the
	// specification reserves. nil means DefaultReservedMetaPrefixes; an
	// empty non-nil slice means none.
	ReservedMetaPrefixes []string
	// RenameThreshold is the similarity (0..1] at which a removed and an
	// added tool are reported as a rename. 0 means 0.8; negative disables
	// content-based rename detection (case-only renames are still found).
	RenameThreshold float64
	// Text configures the detectors of model-visible text (text-* rules).
	Text TextOptions
	// SkipFeatureVersionCheck turns off protocol-feature-version-mismatch
	// for fields head introduces (set it when the spec gate runs on head
	// anyway, so the finding is not reported twice).
	SkipFeatureVersionCheck bool
	// Cost turns on the context cost comparison (context-cost-changed and
	// the increase budget). nil leaves it off.
	Cost *CostOptions
	// Policy applies .mcp-surface.yaml (severity overrides, profiles,
	// acknowledgements). nil applies nothing.
	Policy Policy
	// Clients are the client profiles (clients: in .mcp-surface.yaml)
	// under which a tool that base's tool met and head's no longer does is
	// tool-became-client-incompatible. In JSON, their names.
	Clients []clients.Profile
}

// Lifecycle configures deprecation markers.
type Lifecycle struct {
	// DeprecatedMetaKey is the _meta key that marks an item deprecated when
	// its value is anything but false or null. "" means "deprecated".
	DeprecatedMetaKey string
	// SunsetMetaKey is the _meta key holding the sunset date (RFC 3339 or
	// YYYY-MM-DD). "" means "sunset".
	SunsetMetaKey string
	// DescriptionMarkers mark an item deprecated when its description
	// contains one (case-sensitive). nil means DefaultDescriptionMarkers;
	// an empty non-nil slice means none.
	DescriptionMarkers []string
}

// Defaults for Options.
var (
	DefaultDescriptionMarkers   = []string{"DEPRECATED", "@deprecated", "Deprecated:"}
	DefaultReservedMetaPrefixes = []string{"ui/", "ui", "openai/"}
)

// DefaultRenameThreshold is used when Options.RenameThreshold is 0.
const DefaultRenameThreshold = 0.8

// Policy is what .mcp-surface.yaml does to findings (pkg/config implements
// it). Adjust applies severity overrides and profiles to one finding and
// reports whether to keep it; Acknowledge marks acknowledged findings and
// may append findings about the policy itself (expired acknowledgements).
type Policy interface {
	Adjust(f *finding.Finding) bool
	Acknowledge(fs []finding.Finding) []finding.Finding
}

// Result is the outcome of one comparison.
type Result struct {
	// Findings, sorted with finding.Sort. Acknowledged findings are kept
	// (finding.Acknowledged is set).
	Findings []finding.Finding `json:"findings"`
	// WorstSeverity is the worst change severity among the findings,
	// acknowledged ones included (acknowledging a change does not make it
	// compatible); "" when there is no change finding.
	WorstSeverity rules.Severity `json:"worstSeverity"`
	// SuggestedBump is WorstSeverity.Bump(): major, minor, patch or "".
	SuggestedBump string `json:"suggestedBump"`
	// BaseManifestHash and HeadManifestHash are the snapshots' manifest
	// hashes (fingerprints.manifest).
	BaseManifestHash string `json:"baseManifestHash"`
	HeadManifestHash string `json:"headManifestHash"`
	// Incomplete is set when base or head is a partial snapshot: some
	// kind was not compared (see Diff), whatever the findings' levels.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Diff compares two snapshots and reports every change as a finding. It
// is deterministic: the same inputs give the same Result, byte for byte
// once encoded. Diff(m, m) has no findings unless m is partial. nil
// manifests count as empty.
//
// A partial snapshot (manifest.Manifest.Partial) fails closed: a list that
// failed on either side is reported as surface-list-failed, an error of
// its own, and nothing of its kind is compared, since an unknown list read
// as empty would report every item removed (or, on both sides, nothing
// changed). Result.Incomplete says so to callers, who exit as for a tool
// failure: the comparison could not be made whole.
func Diff(base, head *manifest.Manifest, opts Options) *Result {
	if base == nil {
		base = &manifest.Manifest{}
	}
	if head == nil {
		head = &manifest.Manifest{}
	}
	d := newDiffer(base, head, opts)
	d.server()
	d.capabilities()
	unknown := d.listFailures()
	d.unidentified()
	for _, k := range itemKinds {
		if !unknown[k.List] {
			d.items(k)
		}
	}
	if !unknown[manifest.ListTools] {
		d.clientCompat()
	}
	d.skills()
	d.groups(unknown)
	d.withoutTools(unknown[manifest.ListTools], d.cost)

	fs := d.out
	if opts.Policy != nil {
		fs = adjust(fs, opts.Policy)
	}
	d.out = nil
	d.versioning(fs)
	vs := d.out
	if opts.Policy != nil {
		vs = adjust(vs, opts.Policy)
	}
	fs = append(fs, vs...)
	if opts.Policy != nil {
		fs = opts.Policy.Acknowledge(fs)
	}
	// One finding per subject and change: a change repeated across tools
	// stays one finding per tool (grouping is the renderers' business).
	fs = dedupe(fs)
	finding.Sort(fs)

	res := &Result{
		Findings:         fs,
		BaseManifestHash: base.Fingerprints.Manifest,
		HeadManifestHash: head.Fingerprints.Manifest,
		Incomplete:       base.Incomplete() || head.Incomplete(),
	}
	for _, f := range fs {
		if f.Severity.Rank() > res.WorstSeverity.Rank() {
			res.WorstSeverity = f.Severity
		}
	}
	res.SuggestedBump = res.WorstSeverity.Bump()
	return res
}

func adjust(fs []finding.Finding, p Policy) []finding.Finding {
	out := fs[:0]
	for i := range fs {
		if p.Adjust(&fs[i]) {
			out = append(out, fs[i])
		}
	}
	return out
}

// dedupe drops findings whose fingerprint repeats (same rule, subject,
// pointer and values): the first one wins.
func dedupe(fs []finding.Finding) []finding.Finding {
	seen := make(map[string]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		if seen[f.Fingerprint] {
			continue
		}
		seen[f.Fingerprint] = true
		out = append(out, f)
	}
	return out
}

// differ holds the state of one comparison.
type differ struct {
	base, head *manifest.Manifest
	opts       Options
	out        []finding.Finding

	markers       []string
	deprecatedKey string
	sunsetKey     string
	reserved      []string
	renameMin     float64
	text          *textDetectors
	headToolNames map[string]bool // lazily built for cross-tool references
	// schemas are the compiled schemas the witness searches of this
	// comparison share (each distinct one compiled once).
	schemas *witness.Cache
}

func newDiffer(base, head *manifest.Manifest, opts Options) *differ {
	d := &differ{base: base, head: head, opts: opts, schemas: witness.NewCache()}
	d.markers = opts.Lifecycle.DescriptionMarkers
	if d.markers == nil {
		d.markers = DefaultDescriptionMarkers
	}
	d.deprecatedKey = opts.Lifecycle.DeprecatedMetaKey
	if d.deprecatedKey == "" {
		d.deprecatedKey = "deprecated"
	}
	d.sunsetKey = opts.Lifecycle.SunsetMetaKey
	if d.sunsetKey == "" {
		d.sunsetKey = "sunset"
	}
	d.reserved = opts.ReservedMetaPrefixes
	if d.reserved == nil {
		d.reserved = DefaultReservedMetaPrefixes
	}
	d.renameMin = opts.RenameThreshold
	if d.renameMin == 0 {
		d.renameMin = DefaultRenameThreshold
	}
	d.text = compileText(opts.Text)
	return d
}

// emit records one finding. basePtr and headPtr are the JSON Pointers of
// the changed value in base and head ("" with present=false when the value
// does not exist on that side); the finding's Pointer is the head pointer,
// or the base pointer for removals.
func (d *differ) emit(rule string, subj finding.Subject, ptr, msg string, before, after json.RawMessage) *finding.Finding {
	f := finding.New(rule, subj, ptr, msg, nilIfEmpty(before), nilIfEmpty(after))
	if before != nil {
		f.BasePointer = ptr
	}
	if after != nil {
		f.HeadPointer = ptr
	}
	d.out = append(d.out, f)
	return &d.out[len(d.out)-1]
}

// emitMoved is emit for a value whose pointer differs between base and
// head (prompt arguments by index, schema changes).
func (d *differ) emitMoved(rule string, subj finding.Subject, basePtr, headPtr string, hasBase, hasHead bool, msg string, before, after json.RawMessage) *finding.Finding {
	ptr := headPtr
	if !hasHead {
		ptr = basePtr
	}
	f := finding.New(rule, subj, ptr, msg, nilIfEmpty(before), nilIfEmpty(after))
	if hasBase {
		f.BasePointer = basePtr
	}
	if hasHead {
		f.HeadPointer = headPtr
	}
	d.out = append(d.out, f)
	return &d.out[len(d.out)-1]
}

// emitText is emit for a changed text; renderers show its text diff
// (internal/base/textdiff) from the finding's before and after.
func (d *differ) emitText(rule string, subj finding.Subject, ptr, msg string, before, after json.RawMessage) {
	d.emit(rule, subj, ptr, msg, before, after)
}

func nilIfEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}

// headNames returns the names of head's tools and prompts, for the
// cross-tool reference detector.
func (d *differ) headNames() map[string]bool {
	if d.headToolNames == nil {
		d.headToolNames = make(map[string]bool, len(d.head.Tools)+len(d.head.Prompts))
		for _, it := range d.head.Tools {
			d.headToolNames[it.ID] = true
		}
		for _, it := range d.head.Prompts {
			d.headToolNames[it.ID] = true
		}
	}
	return d.headToolNames
}

// pairing is the result of matching two sorted item lists by identity.
type pairing struct {
	both           [][2]manifest.Item
	removed, added []manifest.Item
}

// match merges two item lists sorted by ID.
func match(base, head []manifest.Item) pairing {
	var p pairing
	i, j := 0, 0
	for i < len(base) || j < len(head) {
		switch {
		case j >= len(head) || (i < len(base) && base[i].ID < head[j].ID):
			p.removed = append(p.removed, base[i])
			i++
		case i >= len(base) || head[j].ID < base[i].ID:
			p.added = append(p.added, head[j])
			j++
		default:
			p.both = append(p.both, [2]manifest.Item{base[i], head[j]})
			i++
			j++
		}
	}
	return p
}

// subject names an item of kind (a finding.Kind*) by its identity.
func subject(kind, name string) finding.Subject {
	return finding.Subject{Kind: kind, Name: name}
}

// changedKeys are the keys, sorted, of the members of b or h whose values
// differ (an absent member and a null one are the same).
func changedKeys(b, h object) []string {
	var out []string
	for _, k := range unionKeys(b, h) {
		if !rawEqual(b.get(k), h.get(k)) {
			out = append(out, k)
		}
	}
	return out
}

// unionKeys returns the sorted union of two maps' keys.
func unionKeys[V any](a, b map[string]V) []string {
	seen := make(map[string]bool, len(a)+len(b))
	ks := make([]string, 0, len(a)+len(b))
	for k := range a {
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	for k := range b {
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}
