package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/base/infile"
	"github.com/mcp-surface/mcp-surface/internal/base/outfile"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
	"github.com/mcp-surface/mcp-surface/pkg/diff/schemadiff"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// DefaultPinsFile is the pins file beside the default snapshot.
const DefaultPinsFile = "mcp-surface.probes.json"

// PinsVersion is the version of the pins file format.
const PinsVersion = 1

// Pins are the pinned shapes of probe results: the file next to the
// snapshot, meant to be committed and reviewed like it.
//
//	{
//	  "probes": {
//	    "sum": {
//	      "method": "tools/call",
//	      "shapes": {"get-sum": {"properties": {...}, "required": [...], "type": "object"}}
//	    }
//	  },
//	  "version": 1
//	}
//
// Shapes are keyed by the probe's target (the tool or prompt name, the
// resource URI: a probe over every listed resource has one per resource).
type Pins struct {
	Probes map[string]PinnedProbe `json:"probes"`
}

// PinnedProbe is the pinned shapes of one probe.
type PinnedProbe struct {
	Method string                     `json:"method"`
	Shapes map[string]json.RawMessage `json:"shapes"`
}

// PinsPath is the pins file of a snapshot: mcp-surface.json →
// mcp-surface.probes.json, snapshots/files.json → snapshots/files.probes.json.
func PinsPath(snapshot string) string {
	if snapshot == "" {
		return DefaultPinsFile
	}
	ext := filepath.Ext(snapshot)
	if ext != ".json" {
		return snapshot + ".probes.json"
	}
	return strings.TrimSuffix(snapshot, ext) + ".probes.json"
}

// parsePins reads a pins file's bytes.
func parsePins(data []byte) (*Pins, error) {
	var f struct {
		Version int                    `json:"version"`
		Probes  map[string]PinnedProbe `json:"probes"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Version != PinsVersion {
		return nil, fmt.Errorf("pins file version %d is not supported (this mcp-surface reads version %d)", f.Version, PinsVersion)
	}
	p := &Pins{Probes: f.Probes}
	if p.Probes == nil {
		p.Probes = map[string]PinnedProbe{}
	}
	return p, nil
}

// ReadPins reads a pins file. A missing file is an error that wraps
// fs.ErrNotExist (no pins yet). It is bounded like a snapshot file.
func ReadPins(path string) (*Pins, error) {
	data, err := infile.Read(context.Background(), path, "a probe pins file", manifest.DefaultMaxFileBytes)
	if err != nil {
		return nil, err
	}
	p, err := parsePins(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Encode renders the pins canonically: keys sorted, two-space indent,
// trailing newline; the same pins give the same bytes.
func (p *Pins) Encode() ([]byte, error) {
	probes := p.Probes
	if probes == nil {
		probes = map[string]PinnedProbe{}
	}
	raw, err := json.Marshal(struct {
		Version int                    `json:"version"`
		Probes  map[string]PinnedProbe `json:"probes"`
	}{PinsVersion, probes})
	if err != nil {
		return nil, err
	}
	canon, err := manifest.Canonicalize(raw)
	if err != nil {
		return nil, err
	}
	return manifest.Indent(canon)
}

// WritePins writes the pins file whole (outfile): never half a file, and
// a device or FIFO written in place.
func WritePins(path string, p *Pins) error {
	data, err := p.Encode()
	if err != nil {
		return err
	}
	return outfile.Write(context.Background(), path, data)
}

// PinsOf derives the pins of a capture: the shape of every result of a
// probe with pin: shape (results only: an error has no shape to pin).
func PinsOf(c *capture.Capture) (*Pins, error) {
	p := &Pins{Probes: map[string]PinnedProbe{}}
	for _, r := range c.Probes {
		if r.Probe.Pin != capture.PinShape {
			continue
		}
		x, ok := exchange(c, r)
		if !ok || x.Error != nil || len(x.Result) == 0 {
			continue
		}
		s, err := valueSchema(shapeTarget(r.Probe.Method, x.Result))
		if err != nil {
			return nil, fmt.Errorf("probe %s: %w", r.Probe.ID, err)
		}
		pp, ok := p.Probes[r.Probe.ID]
		if !ok {
			pp = PinnedProbe{Method: r.Probe.Method, Shapes: map[string]json.RawMessage{}}
		}
		pp.Shapes[r.Target] = s
		p.Probes[r.Probe.ID] = pp
	}
	return p, nil
}

// compareShapes compares the shape of every pinned probe's result with
// its pin, in the output direction.
func compareShapes(c *capture.Capture, o Options) []finding.Finding {
	file := o.PinsFile
	if file == "" {
		file = DefaultPinsFile
	}
	var out []finding.Finding
	for _, r := range c.Probes {
		if r.Probe.Pin != capture.PinShape {
			continue
		}
		x, ok := exchange(c, r)
		if !ok || x.Error != nil || len(x.Result) == 0 {
			continue // the expectation reports it
		}
		subj, ptr := subjectOf(r), pointer(r.Probe.ID)
		var pinned json.RawMessage
		if o.Pins != nil {
			if pp, ok := o.Pins.Probes[r.Probe.ID]; ok && pp.Method == r.Probe.Method {
				pinned = pp.Shapes[r.Target]
			}
		}
		if pinned == nil {
			out = append(out, finding.New(rules.ProbeShapeNotPinned, subj, ptr,
				fmt.Sprintf("%s has pin: shape, but %s holds no shape for it; run `mcp-surface probe --update` and commit the file", describe(r), file), nil, nil))
			continue
		}
		head, err := valueSchema(shapeTarget(r.Probe.Method, x.Result))
		if err != nil {
			continue // not JSON: pkg/spec reports it
		}
		base, err := manifest.Canonicalize(pinned)
		if err != nil {
			base = pinned
		}
		for _, ch := range schemadiff.Compare(base, head, schemadiff.Output, schemadiff.Options{}) {
			rule, msg := ch.Rule, ch.Message
			if _, ok := rules.Lookup(rule); !ok {
				msg, rule = rule+": "+msg, rules.OutputSchemaUndecidable
			}
			p := ptr + ch.HeadPointer
			if ch.After == nil && ch.Before != nil {
				p = ptr + ch.BasePointer
			}
			f := finding.New(rule, subj, p, fmt.Sprintf("%s: the result's shape changed from the one pinned in %s: %s", describe(r), file, msg), ch.Before, ch.After)
			f.BasePointer, f.HeadPointer = ptr+ch.BasePointer, ptr+ch.HeadPointer
			out = append(out, f)
		}
	}
	return out
}
