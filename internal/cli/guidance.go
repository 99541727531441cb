package cli

import (
	"github.com/mcp-surface/mcp-surface/internal/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/report"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// guidance is what turns a failing check green, for the report's "what
// to do" (report.Options: AcceptLabel, AcceptedByLabel, SnapshotCommands,
// AckYAML): the pull request label that accepts the breaking changes, the
// acknowledgement entries to paste, and each server's snapshot refresh
// command.
type guidance struct {
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
	// maxCommentAcks of them each (the comment), AckAll every one (the job
	// summary).
	Ack, AckAll map[string]string
	// Refresh is one snapshot refresh command per server, in the order of
	// the servers.
	Refresh []refresh
}

// maxCommentAcks bounds the acknowledgement entries per server in the
// comment; the job summary and the log have them all.
const maxCommentAcks = 20

// refresh is the command that rewrites one server's committed snapshot,
// run from the directory the check ran in.
type refresh struct {
	Server, Snapshot, Command string
}

func guidanceOf(res *check.Result, failOn rules.Level, label string, applied bool, refreshes []refresh) *guidance {
	return &guidance{
		AcceptLabel: label, LabelApplied: applied, Accepted: res.Accepted(),
		Acknowledgements: res.Acknowledgements(failOn),
		Ack:              res.AcknowledgementsByServer(failOn, maxCommentAcks),
		AckAll:           res.AcknowledgementsByServer(failOn, 0),
		Refresh:          refreshes,
	}
}

// apply hands the guidance to the renderer: full for the job summary
// (every acknowledgement entry), else for the comment.
func (g *guidance) apply(o *report.Options, full bool) {
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

// refreshCommands are the snapshot refresh commands of the action's
// servers: the command or url input as `snapshot` takes it, or `snapshot
// --server NAME` for a server of the servers: list, each from the working
// directory.
func (a *actionRun) refreshCommands(servers []check.Server, relWork string) []refresh {
	c := a.cfg
	fromList := c.Command == "" && c.URL == ""
	var out []refresh
	for _, s := range servers {
		cmd := check.SnapshotCommand(s, c.Snapshot, fromList, c.Config, len(servers) > 1 || c.Server != "")
		if relWork != "." && relWork != "" {
			cmd = "cd " + cmdline.Word(relWork) + " && " + cmd
		}
		out = append(out, refresh{Server: s.Name, Snapshot: s.Snapshot, Command: cmd})
	}
	return out
}
