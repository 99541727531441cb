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

func (p *parser) lifecycleKeys(l *Lifecycle) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"deprecatedMetaKey":  set(p, &l.DeprecatedMetaKey, "deprecatedMetaKey", (*parser).str),
		"sunsetMetaKey":      set(p, &l.SunsetMetaKey, "sunsetMetaKey", (*parser).str),
		"descriptionMarkers": func(v *yaml.Node) { l.DescriptionMarkers = p.strings(v, "descriptionMarkers") },
	}
}

func (p *parser) renameKeys(r *Rename) map[string]func(*yaml.Node) {
	return map[string]func(*yaml.Node){
		"enabled": func(v *yaml.Node) {
			if b, ok := p.boolean(v, "rename.enabled"); ok {
				r.Disabled = !b
			}
		},
		"threshold": setIf(p, &r.Threshold, "rename.threshold", (*parser).number,
			func(f float64) bool { return f > 0 && f <= 1 }, "must be in (0, 1]"),
	}
}

func (p *parser) textKeys(t *Text) map[string]func(*yaml.Node) {
	patterns := func(dst *[]string, what string) func(*yaml.Node) {
		return func(v *yaml.Node) {
			for _, e := range p.entries(v, what+" must be a list of regular expressions") {
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
		"lengthSpikeRatio": setIf(p, &t.LengthSpikeRatio, "text.lengthSpikeRatio", (*parser).number,
			func(f float64) bool { return f >= 1 }, "must be at least 1"),
		"lengthSpikeMinChars": setIf(p, &t.LengthSpikeMinChars, "text.lengthSpikeMinChars", (*parser).integer,
			func(i int) bool { return i >= 1 }, "must be positive"),
		"encodedMinLength": setIf(p, &t.EncodedMinLength, "text.encodedMinLength", (*parser).integer,
			func(i int) bool { return i >= 8 }, "must be at least 8"),
	}
}
