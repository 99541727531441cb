package rules

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Doc is a rule's documentation as `explain --format json` prints it:
// Tags is never null, empty fields other than Tags are left out.
type Doc struct {
	ID        string   `json:"id"`
	Kind      Kind     `json:"kind"`
	Severity  Severity `json:"severity,omitempty"`
	Level     Level    `json:"level"`
	Direction string   `json:"direction,omitempty"`
	Tags      []string `json:"tags"`
	Summary   string   `json:"summary"`
	Help      string   `json:"help"`
}

// DocOf is the documentation of r.
func DocOf(r Rule) Doc {
	tags := r.Tags
	if tags == nil {
		tags = []string{}
	}
	return Doc{r.ID, r.Kind, r.Severity, r.Level, r.Direction, tags, r.Summary, r.Help}
}

// WriteText writes a rule's documentation as text: the ID, its
// classification one field a line, then the help text.
func WriteText(w io.Writer, r Rule) error {
	var b strings.Builder
	fmt.Fprintln(&b, r.ID)
	fmt.Fprintf(&b, "  kind:      %s\n", r.Kind)
	if r.Severity != "" {
		fmt.Fprintf(&b, "  severity:  %s (level %s)\n", r.Severity, r.Level)
	} else {
		fmt.Fprintf(&b, "  level:     %s\n", r.Level)
	}
	if r.Direction != "" {
		fmt.Fprintf(&b, "  direction: %s\n", r.Direction)
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(&b, "  tags:      %s\n", strings.Join(r.Tags, ", "))
	}
	fmt.Fprintf(&b, "  summary:   %s\n\n%s\n", r.Summary, r.Help)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes v (a Doc or a list of them) as indented JSON, HTML
// characters unescaped.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteList writes every rule, one a line: ID, level, severity (or kind)
// and summary in aligned columns; as JSON a list of Doc.
func WriteList(w io.Writer, asJSON bool) error {
	all := All()
	if asJSON {
		docs := make([]Doc, len(all))
		for i, r := range all {
			docs[i] = DocOf(r)
		}
		return WriteJSON(w, docs)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range all {
		sev := string(r.Severity)
		if sev == "" {
			sev = string(r.Kind)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Level, sev, r.Summary)
	}
	return tw.Flush()
}
