package config

// The diff engine's settings: lifecycle:, rename: and text:.

import (
	"regexp"

	"go.yaml.in/yaml/v3"
)

// Lifecycle configures deprecation markers; empty fields keep the diff's
// defaults.
type Lifecycle struct {
	DeprecatedMetaKey  string
	SunsetMetaKey      string
	DescriptionMarkers []string // nil = defaults
}

// Rename configures rename detection.
type Rename struct {
	// Disabled turns off content-based rename detection (case-only
	// renames are still reported).
	Disabled bool
	// Threshold is the similarity in (0, 1] above which a removed and an
	// added tool are a rename; 0 = default.
	Threshold float64
}

// Text configures the text detectors (the text-* rules of pkg/rules) of
// the diff and the lint; zero values keep the defaults. Its fields are
// those of diff.TextOptions, in the same order: pkg/check converts one
// into the other, so a field added to one and not the other does not
// compile.
type Text struct {
	// InjectionPatterns and SensitivePatterns are RE2 regular expressions
	// added to the built-in ones (text.injectionPatterns,
	// text.sensitivePatterns); each is compiled here, so that a bad one
	// is reported at its line.
	InjectionPatterns []string
	SensitivePatterns []string
	// NoDefaultPatterns drops the built-in patterns
	// (text.defaultPatterns: false).
	NoDefaultPatterns bool
	// LengthSpikeRatio and LengthSpikeMinChars tune text-length-spike.
	LengthSpikeRatio    float64
	LengthSpikeMinChars int
	// EncodedMinLength is the shortest base64/hex run reported.
	EncodedMinLength int
}

func (p *parser) lifecycle(n *yaml.Node) Lifecycle {
	var l Lifecycle
	p.mapping(n, "lifecycle", p.lifecycleKeys(&l))
	return l
}

func (p *parser) lifecycleKeys(l *Lifecycle) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"deprecatedMetaKey": func(v *yaml.Node) {
			if s, ok := p.str(v, "deprecatedMetaKey"); ok {
				l.DeprecatedMetaKey = s
			}
		},
		"sunsetMetaKey": func(v *yaml.Node) {
			if s, ok := p.str(v, "sunsetMetaKey"); ok {
				l.SunsetMetaKey = s
			}
		},
		"descriptionMarkers": func(v *yaml.Node) { l.DescriptionMarkers = p.strings(v, "descriptionMarkers") },
	}
}

func (p *parser) rename(n *yaml.Node) Rename {
	var r Rename
	p.mapping(n, "rename", p.renameKeys(&r))
	return r
}

func (p *parser) renameKeys(r *Rename) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"enabled": func(v *yaml.Node) {
			if b, ok := p.boolean(v, "rename.enabled"); ok {
				r.Disabled = !b
			}
		},
		"threshold": func(v *yaml.Node) {
			if f, ok := p.number(v, "rename.threshold"); ok {
				if f <= 0 || f > 1 {
					p.errf(v, "rename.threshold must be in (0, 1], not %v", f)
					return
				}
				r.Threshold = f
			}
		},
	}
}

func (p *parser) text(n *yaml.Node) Text {
	var t Text
	p.mapping(n, "text", p.textKeys(&t))
	return t
}

func (p *parser) textKeys(t *Text) map[string]func(*yaml.Node) {
	patterns := func(dst *[]string, what string) func(*yaml.Node) {
		return func(v *yaml.Node) {
			if v.Kind != yaml.SequenceNode {
				p.errf(v, "%s must be a list of regular expressions", what)
				return
			}
			for _, e := range v.Content {
				s, ok := p.str(e, what+" entry")
				if !ok {
					continue
				}
				if _, err := regexp.Compile(s); err != nil {
					p.errf(e, "%s: invalid regular expression: %v", what, err)
					continue
				}
				*dst = append(*dst, s)
			}
		}
	}
	return map[string]func(*yaml.Node){
		"injectionPatterns": patterns(&t.InjectionPatterns, "text.injectionPatterns"),
		"sensitivePatterns": patterns(&t.SensitivePatterns, "text.sensitivePatterns"),
		"defaultPatterns": func(v *yaml.Node) {
			if b, ok := p.boolean(v, "text.defaultPatterns"); ok {
				t.NoDefaultPatterns = !b
			}
		},
		"lengthSpikeRatio": func(v *yaml.Node) {
			if f, ok := p.number(v, "text.lengthSpikeRatio"); ok {
				if f < 1 {
					p.errf(v, "text.lengthSpikeRatio must be at least 1, not %v", f)
					return
				}
				t.LengthSpikeRatio = f
			}
		},
		"lengthSpikeMinChars": func(v *yaml.Node) {
			if i, ok := p.integer(v, "text.lengthSpikeMinChars"); ok {
				if i < 1 {
					p.errf(v, "text.lengthSpikeMinChars must be positive, not %d", i)
					return
				}
				t.LengthSpikeMinChars = i
			}
		},
		"encodedMinLength": func(v *yaml.Node) {
			if i, ok := p.integer(v, "text.encodedMinLength"); ok {
				if i < 8 {
					p.errf(v, "text.encodedMinLength must be at least 8, not %d", i)
					return
				}
				t.EncodedMinLength = i
			}
		},
	}
}
