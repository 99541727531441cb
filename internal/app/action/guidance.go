package action

import (
	"github.com/mcp-surface/mcp-surface/internal/base/cmdline"
	"github.com/mcp-surface/mcp-surface/pkg/check"
)

// refreshCommands are the snapshot refresh commands of the action's
// servers: the command or url input as `snapshot` takes it, or `snapshot
// --server NAME` for a server of the servers: list, each from the working
// directory.
func (a *actionRun) refreshCommands(servers []check.Server, relWork string) []check.Refresh {
	c := a.cfg
	fromList := c.Command == "" && c.URL == ""
	var out []check.Refresh
	for _, s := range servers {
		cmd := check.SnapshotCommand(s, c.Snapshot, fromList, c.Config, len(servers) > 1 || c.Server != "")
		if relWork != "." && relWork != "" {
			cmd = "cd " + cmdline.Word(relWork) + " && " + cmd
		}
		out = append(out, check.Refresh{Server: s.Name, Snapshot: s.Snapshot, Command: cmd})
	}
	return out
}
