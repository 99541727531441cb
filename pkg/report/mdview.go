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
func (s *mdServer) ShownDetails() []*mdDetail { return kept(s.Details) }

// DetailsOmitted counts the details the budget left out.
func (s *mdServer) DetailsOmitted() int { return len(s.Details) - len(s.ShownDetails()) }

// ShownAcknowledged are the acknowledged rows the budget kept.
func (s *mdServer) ShownAcknowledged() []*mdAck { return kept(s.Acknowledged) }

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
func (t *mdTable) Shown() []*mdRow { return kept(t.Rows) }

// Omitted counts the rows the budget left out.
func (t *mdTable) Omitted() int { return len(t.Rows) - len(t.Shown()) }

// budgeted marks a part of the comment the budget can cut.
type budgeted struct{ cut bool }

func (b *budgeted) wasCut() bool { return b.cut }

// kept are the parts the budget did not cut.
func kept[T interface{ wasCut() bool }](parts []T) []T {
	var out []T
	for _, p := range parts {
		if !p.wasCut() {
			out = append(out, p)
		}
	}
	return out
}

type mdRow struct {
	Icon, What, Breaks, Fix, Rule string
	budgeted
}

type mdDetail struct {
	Summary string
	Entries []mdEntry
	Omitted int
	budgeted
	rank, kind int // the subject's worst level and kind, for the cut order
}

type mdEntry struct {
	Head   string
	Blocks []string
}

type mdAck struct {
	Subject, Rule, Reason string
	budgeted
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
