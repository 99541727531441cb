package check

import (
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// Guidance is what turns a failing check green, for the report's "what
// to do" (report.Options: AcceptLabel, AcceptedByLabel, SnapshotCommands,
// AckYAML): the pull request label that accepts the breaking changes, the
// acknowledgement entries to paste, and each server's snapshot refresh
// command.
type Guidance struct {
	// AcceptLabel is the label that accepts breaking changes, and
	// LabelApplied whether the pull request carries it; Accepted is the
	// number of breaking changes it acknowledged.
	AcceptLabel  string
	LabelApplied bool
	Accepted     int
	// Acknowledgements is YAML for .mcp-surface.yaml: an entry for every
	// unacknowledged finding at or above fail-on (a comment names the
	// server when there are several); empty when nothing fails. For the
	// log.
	Acknowledgements []byte
	// Ack and AckAll are the same entries by server name: Ack at most
	// MaxCommentAcks of them each (the comment), AckAll every one (the job
	// summary).
	Ack, AckAll map[string]string
	// Refresh is one snapshot refresh command per server, in the order of
	// the servers.
	Refresh []Refresh
}

// MaxCommentAcks bounds the acknowledgement entries per server in the
// comment; the job summary and the log have them all.
const MaxCommentAcks = 20

// Refresh is the command that rewrites one server's committed snapshot,
// run from the directory the check ran in.
type Refresh struct {
	Server, Snapshot, Command string
}

// Guidance is the result's guidance at failOn: label is the accepting
// label and applied whether the pull request carries it; refreshes are
// the servers' snapshot refresh commands.
func (r *Result) Guidance(failOn rules.Level, label string, applied bool, refreshes []Refresh) *Guidance {
	return &Guidance{
		AcceptLabel: label, LabelApplied: applied, Accepted: r.Accepted(),
		Acknowledgements: r.Acknowledgements(failOn),
		Ack:              r.AcknowledgementsByServer(failOn, MaxCommentAcks),
		AckAll:           r.AcknowledgementsByServer(failOn, 0),
		Refresh:          refreshes,
	}
}

// Apply hands the guidance to the renderer: full for the job summary
// (every acknowledgement entry), else for the comment. A nil Guidance
// changes nothing.
func (g *Guidance) Apply(o *report.Options, full bool) {
	if g == nil {
		return
	}
	o.AcceptLabel = g.AcceptLabel
	o.AcceptedByLabel = g.LabelApplied && g.Accepted > 0
	o.AckYAML = g.Ack
	if full {
		o.AckYAML = g.AckAll
	}
	if len(g.Refresh) > 0 {
		o.SnapshotCommands = map[string]string{}
		for _, r := range g.Refresh {
			o.SnapshotCommands[r.Server] = r.Command
		}
	}
}
