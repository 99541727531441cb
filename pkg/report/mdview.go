package report

import "github.com/mcp-surface/mcp-surface/pkg/rules"

// The view the template renders: every string is already escaped or ours.
type mdView struct {
	Marker    string
	Headline  string
	Accepted  string
	Servers   []*mdServer
	Accept    *mdAccept
	Shortened string
	Footer    string
}

type mdServer struct {
	Heading      string // several servers: the server's name and verdict
	Counts       []string
	Cost         string // the context cost line (costLine)
	Caution      string
	Compared     string   // Full only
	Notes        []string // Full only
	Breaking     *mdTable
	Folds        []*mdTable // warnings, notes, info
	Details      []*mdDetail
	Acknowledged []*mdAck
	HiddenInfo   string
	InfoHint     string // where the hidden info findings are shown
}

// ShownDetails are the details the budget kept.
func (s *mdServer) ShownDetails() []*mdDetail {
	var out []*mdDetail
	for _, d := range s.Details {
		if !d.cut {
			out = append(out, d)
		}
	}
	return out
}

// DetailsOmitted counts the details the budget left out.
func (s *mdServer) DetailsOmitted() int { return len(s.Details) - len(s.ShownDetails()) }

// ShownAcknowledged are the acknowledged rows the budget kept.
func (s *mdServer) ShownAcknowledged() []*mdAck {
	var out []*mdAck
	for _, a := range s.Acknowledged {
		if !a.cut {
			out = append(out, a)
		}
	}
	return out
}

// AcknowledgedOmitted counts the acknowledged rows left out.
func (s *mdServer) AcknowledgedOmitted() int {
	return len(s.Acknowledged) - len(s.ShownAcknowledged())
}

// mdTable is one table of rows; a fold (warnings, notes) has a Summary
// and is collapsed.
type mdTable struct {
	Summary string
	Rows    []*mdRow
}

// Shown are the rows the budget kept.
func (t *mdTable) Shown() []*mdRow {
	var out []*mdRow
	for _, r := range t.Rows {
		if !r.cut {
			out = append(out, r)
		}
	}
	return out
}

// Omitted counts the rows the budget left out.
func (t *mdTable) Omitted() int { return len(t.Rows) - len(t.Shown()) }

type mdRow struct {
	Icon, What, Breaks, Fix, Rule string
	cut                           bool
}

type mdDetail struct {
	Summary    string
	Entries    []mdEntry
	Omitted    int
	cut        bool
	rank, kind int // the subject's worst level and kind, for the cut order
}

type mdEntry struct {
	Head   string
	Blocks []string
}

type mdAck struct {
	Subject, Rule, Reason string
	cut                   bool
}

// mdAccept says what turns an intended change green.
type mdAccept struct {
	Label    string
	YAML     []mdYAML
	Snapshot []string
	yamlCut  bool
}

// ShownYAML is the acknowledgement lines unless the budget cut them.
func (a *mdAccept) ShownYAML() []mdYAML {
	if a.yamlCut {
		return nil
	}
	return a.YAML
}

// YAMLCut reports whether the budget cut the acknowledgement lines.
func (a *mdAccept) YAMLCut() bool { return a.yamlCut && len(a.YAML) > 0 }

type mdYAML struct{ Heading, Block string }

// levelIcon marks a level in tables and summaries.
func levelIcon(l rules.Level) string { return l.Pick("🔴", "🟠", "🔵", "⚪") }
