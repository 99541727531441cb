package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcp-surface/mcp-surface/pkg/cost"

	"github.com/mcp-surface/mcp-surface/internal/base/canonjson"
	"github.com/mcp-surface/mcp-surface/internal/base/lazyre"
	"github.com/mcp-surface/mcp-surface/pkg/finding"
	"github.com/mcp-surface/mcp-surface/pkg/locate"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// JSONVersion is the version of the JSON report's shape; it grows only by
// additions.
const JSONVersion = 1

// jsonReport is the JSON report, described by
// schema/report.schema.json. Field names are a public contract: add,
// never rename.
type jsonReport struct {
	Findings      []jsonFinding `json:"findings"`
	Summary       jsonSummary   `json:"summary"`
	Servers       []jsonServer  `json:"servers"`
	Tool          jsonTool      `json:"tool"`
	ReportVersion int           `json:"reportVersion"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type jsonSummary struct {
	Summary
	// FailOn is the level the run fails at ("none" when it never does).
	FailOn string `json:"failOn"`
	// Failed is whether an unacknowledged finding is at or above FailOn.
	Failed bool `json:"failed"`
}

type jsonFinding struct {
	finding.Finding
	Server   string           `json:"server"`
	Category Category         `json:"category"`
	Location *locate.Location `json:"location,omitempty"`
	TextDiff string           `json:"textDiff,omitempty"`
}

type jsonServer struct {
	Name     string  `json:"name"`
	Command  string  `json:"command,omitempty"`
	Base     *Side   `json:"base,omitempty"`
	Head     *Side   `json:"head,omitempty"`
	Summary  Summary `json:"summary"`
	Failed   bool    `json:"failed"`
	Snapshot string  `json:"snapshot,omitempty"`
	// SnapshotCurrent: the committed snapshot matches the head surface.
	SnapshotCurrent bool              `json:"snapshotCurrent,omitempty"`
	Subjects        []finding.Subject `json:"subjects,omitempty"`
	Notes           []string          `json:"notes,omitempty"`
	// ContextCost is the context cost of both surfaces (pkg/cost's
	// tables), so that a publish step renders the same cost line.
	ContextCost *jsonCost `json:"contextCost,omitempty"`
}

func failOnName(l rules.Level) string {
	if l == "" {
		return "none"
	}
	return string(l)
}

// renderJSON writes the JSON report: every finding (info included), the
// summary, one entry per server. Server text is kept exactly (it is
// data), but hidden characters are written as \u escapes so the file is
// safe to print.
func renderJSON(w io.Writer, r *Report, o Options) error {
	out := jsonReport{
		Findings:      []jsonFinding{},
		Summary:       jsonSummary{Summary: r.Summary(), FailOn: failOnName(o.FailOn), Failed: r.Failed(o.FailOn)},
		Servers:       []jsonServer{},
		Tool:          jsonTool{Name: ToolName, Version: r.Version},
		ReportVersion: JSONVersion,
	}
	for _, s := range r.sections() {
		out.Servers = append(out.Servers, jsonServer{
			Name: s.Server, Command: s.Command, Base: s.Base, Head: s.Head,
			Summary: s.Summary(), Failed: s.Failed(o.FailOn), Snapshot: s.Snapshot, SnapshotCurrent: s.SnapshotCurrent,
			Subjects: s.Subjects, Notes: s.Notes, ContextCost: costOf(s),
		})
		for _, it := range s.Items() {
			f := it.Finding
			if f.Tags == nil {
				f.Tags = []string{}
			}
			var loc *locate.Location
			if !it.Location.IsZero() {
				loc = &it.Location
			}
			out.Findings = append(out.Findings, jsonFinding{
				Finding: f, Server: it.Server, Category: it.Category, Location: loc, TextDiff: it.TextDiff,
			})
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSONHidden(buf.Bytes()))
	return err
}

var (
	ruleIDPattern = lazyre.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	hexPattern    = lazyre.New(`^[0-9a-f]{1,64}$`)
)

// DecodeJSON reads a JSON report back into a Report, for a publishing
// step that renders what an unprivileged job found. The input is treated
// as untrusted: unknown levels, categories, servers and malformed rule IDs
// or fingerprints are refused; text is escaped when rendered, as always.
func DecodeJSON(data []byte) (*Report, error) {
	var in jsonReport
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("json report: %w", err)
	}
	if in.ReportVersion < 1 || in.ReportVersion > JSONVersion {
		return nil, fmt.Errorf("json report: reportVersion %d is not supported (this mcp-surface reads 1 to %d)", in.ReportVersion, JSONVersion)
	}
	r := &Report{Version: in.Tool.Version}
	index := map[string]int{}
	for _, s := range in.Servers {
		if _, dup := index[s.Name]; dup {
			return nil, fmt.Errorf("json report: server %q listed twice", s.Name)
		}
		index[s.Name] = len(r.Servers)
		r.Servers = append(r.Servers, Section{
			Server: s.Name, Command: s.Command, Base: s.Base, Head: s.Head,
			Snapshot: s.Snapshot, SnapshotCurrent: s.SnapshotCurrent, Subjects: s.Subjects, Notes: s.Notes,
			Locations: map[string]locate.Location{},
		})
		if c := s.ContextCost; c != nil {
			sec := &r.Servers[len(r.Servers)-1]
			sec.CostBase, sec.CostHead = c.Base, c.Head
		}
	}
	for i, f := range in.Findings {
		si, ok := index[f.Server]
		if !ok {
			return nil, fmt.Errorf("json report: finding %d names server %q, which is not in servers", i, f.Server)
		}
		if err := checkFinding(f); err != nil {
			return nil, fmt.Errorf("json report: finding %d: %w", i, err)
		}
		vals := []*json.RawMessage{&f.Before, &f.After}
		if f.Witness != nil {
			w := *f.Witness // not shared with the decoded input
			f.Witness = &w
			vals = append(vals, &w.Value)
		}
		for _, v := range vals {
			if len(*v) > 0 {
				var buf bytes.Buffer
				if err := json.Compact(&buf, *v); err != nil {
					return nil, fmt.Errorf("json report: finding %d: %w", i, err)
				}
				*v = unescapeCanonical(buf.Bytes())
			}
		}
		s := &r.Servers[si]
		s.Findings = append(s.Findings, f.Finding)
		if f.Location != nil && !f.Location.IsZero() {
			s.Locations[f.Fingerprint] = *f.Location
		}
	}
	return r, nil
}

// unescapeCanonical undoes what WriteJSON did to a canonical value: when
// v is a canonical value with its hidden characters written as \u
// escapes, it returns the canonical bytes the producer made (and that the
// fingerprint covers); any other value is returned as it is.
func unescapeCanonical(v []byte) []byte {
	c, err := canonjson.Canonicalize(v)
	if err != nil || !bytes.Equal(EscapeJSONHidden(c), v) {
		return v
	}
	return c
}

func checkFinding(f jsonFinding) error {
	switch f.Level {
	case rules.LevelError, rules.LevelWarning, rules.LevelNote, rules.LevelInfo:
	default:
		return fmt.Errorf("unknown level %q", f.Level)
	}
	switch f.Category {
	case CategorySpec, CategoryLint, CategoryChange:
	default:
		return fmt.Errorf("unknown category %q", f.Category)
	}
	if want := CategoryOf(f.Rule); f.Category != want {
		return fmt.Errorf("rule %q is a %s rule, not %s", f.Rule, want, f.Category)
	}
	if f.Severity != "" && f.Severity.Rank() == 0 {
		return fmt.Errorf("unknown severity %q", f.Severity)
	}
	if !ruleIDPattern().MatchString(f.Rule) {
		return fmt.Errorf("rule %q is not a rule ID", f.Rule)
	}
	if !hexPattern().MatchString(f.Fingerprint) {
		return fmt.Errorf("fingerprint %q is not hexadecimal", f.Fingerprint)
	}
	if w := f.Witness; w != nil {
		if len(w.Value) == 0 || !json.Valid(w.Value) {
			return errors.New("witness without a JSON value")
		}
		if !(w.Accepts == finding.SideBase && w.Rejects == finding.SideHead) && !(w.Accepts == finding.SideHead && w.Rejects == finding.SideBase) {
			return fmt.Errorf("witness accepts %q and rejects %q: want base and head, one each", w.Accepts, w.Rejects)
		}
	}
	if f.Location != nil && f.Location.Line < 0 {
		return fmt.Errorf("location line %d", f.Location.Line)
	}
	return nil
}

type jsonCost struct {
	Base *cost.Table `json:"base,omitempty"`
	Head *cost.Table `json:"head,omitempty"`
}

func costOf(s *Section) *jsonCost {
	if s.CostHead == nil {
		return nil
	}
	return &jsonCost{Base: s.CostBase, Head: s.CostHead}
}
