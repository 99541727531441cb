// Package finding defines the one shape every result takes, whatever
// produced it (spec gate, lint, diff); the JSON report writes it as
// schema/report.schema.json describes.
package finding

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Subject kinds.
const (
	KindTool             = "tool"
	KindPrompt           = "prompt"
	KindResource         = "resource"
	KindResourceTemplate = "resource-template"
	KindServer           = "server"
	// KindSkill is a skill of the Skills extension, named by the URI of
	// its SKILL.md; KindGroup a group of a groups extension, by name.
	KindSkill = "skill"
	KindGroup = "group"
)

// kindOrder puts what clients call first: tools, then prompts,
// resources, templates, the skills and groups of the extensions, and the
// server itself.
var kindOrder = []string{KindTool, KindPrompt, KindResource, KindResourceTemplate, KindSkill, KindGroup, KindServer}

// Kinds are the subject kinds in that order (a copy).
func Kinds() []string { return slices.Clone(kindOrder) }

// KindRank is a subject kind's place in the order every report lists
// kinds in (tools first, the server last); an unknown kind comes after
// them all.
func KindRank(kind string) int {
	if i := slices.Index(kindOrder, kind); i >= 0 {
		return i
	}
	return len(kindOrder)
}

// Subject names what a finding is about: a tool, prompt, resource or
// resource template by its identity, or the server itself.
type Subject struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

func (s Subject) String() string {
	if s.Kind == KindServer && s.Name == "" {
		return "server"
	}
	return s.Kind + " " + s.Name
}

// Finding is one result. Field names are a public contract (JSON report):
// add, never rename.
type Finding struct {
	Rule     string         `json:"rule"`
	Level    rules.Level    `json:"level"`
	Severity rules.Severity `json:"severity,omitempty"`
	Tags     []string       `json:"tags"`
	Subject  Subject        `json:"subject"`
	// Pointer is a JSON Pointer into the subject (for spec findings, into the
	// result that carried it). For changes it is the head pointer, or the
	// base pointer when the thing was removed.
	Pointer     string `json:"pointer"`
	BasePointer string `json:"basePointer,omitempty"`
	HeadPointer string `json:"headPointer,omitempty"`
	Message     string `json:"message"`
	// Before and After are canonical JSON values where they exist.
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
	// Revision is the protocol revision the finding was judged under, when
	// it matters (spec findings).
	Revision string `json:"revision,omitempty"`
	// Fingerprint is the finding's identity (Fingerprint): one change
	// repeated across several tools is one finding per tool, each with its
	// own fingerprint; only text and markdown show them as one row.
	Fingerprint string `json:"fingerprint"`
	// Acknowledged is set when .mcp-surface.yaml acknowledges the finding;
	// acknowledged findings never fail a run.
	Acknowledged string `json:"acknowledged,omitempty"`
	// Witness, on a schema change, is the proof: a whole instance that one
	// side's schema accepts and the other's rejects, checked by the
	// validator. nil when no witness was found or none applies.
	Witness *Witness `json:"witness,omitempty"`
}

// Sides of a comparison, as a Witness names them.
const (
	SideBase = "base"
	SideHead = "head"
)

// Witness is a complete instance at a schema's root (a tool's whole
// arguments object for inputSchema, its whole structuredContent for
// outputSchema) that the schema of side Accepts validates and the schema
// of side Rejects does not, each read in the dialect it declares.
type Witness struct {
	// Value is the instance, canonical JSON.
	Value json.RawMessage `json:"value"`
	// Accepts is SideBase or SideHead; Rejects is the other.
	Accepts string `json:"accepts"`
	Rejects string `json:"rejects"`
	// Formats, when not empty, says that the value holds only while
	// format is an annotation: no value was found that a client asserting
	// formats would also judge so.
	Formats string `json:"formats,omitempty"`
}

// New fills Level, Severity and Tags from the rule table and computes the
// fingerprint. It panics on an unknown rule ID (a programming error caught
// by the table tests).
func New(ruleID string, subj Subject, pointer, message string, before, after json.RawMessage) Finding {
	r := rules.MustLookup(ruleID)
	f := Finding{
		Rule:     r.ID,
		Level:    r.Level,
		Severity: r.Severity,
		Tags:     slices.Clone(r.Tags),
		Subject:  subj,
		Pointer:  pointer,
		Message:  message,
		Before:   before,
		After:    after,
	}
	if f.Tags == nil {
		f.Tags = []string{}
	}
	f.Fingerprint = Fingerprint(f.Rule, subj, pointer, before, after)
	return f
}

// Fingerprint is hex(SHA-256(id|kind|name|pointer|before|after))[:16], built
// from identity only, never from message text. before and after must be
// canonical JSON (or nil).
func Fingerprint(rule string, subj Subject, pointer string, before, after json.RawMessage) string {
	h := sha256.New()
	for i, s := range []string{rule, subj.Kind, subj.Name, pointer, string(before), string(after)} {
		if i > 0 {
			h.Write([]byte{'|'})
		}
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Sort orders findings deterministically: worst level first, then subject,
// pointer, rule, fingerprint.
func Sort(fs []Finding) { slices.SortStableFunc(fs, Compare) }

// Compare is Sort's order: worst level first, then subject, pointer,
// rule, fingerprint.
func Compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(b.Level.Rank(), a.Level.Rank()),
		cmp.Compare(a.Subject.Kind, b.Subject.Kind),
		cmp.Compare(a.Subject.Name, b.Subject.Name),
		strings.Compare(a.Pointer, b.Pointer),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Fingerprint, b.Fingerprint),
	)
}

// AtOrAbove reports whether any unacknowledged finding is at or above level
// l. An empty l ("none") never matches.
func AtOrAbove(fs []Finding, l rules.Level) bool {
	if l == "" {
		return false
	}
	for _, f := range fs {
		if f.Acknowledged == "" && f.Level.Rank() >= l.Rank() {
			return true
		}
	}
	return false
}
