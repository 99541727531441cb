package capture

import (
	"os/exec"
	"sync"
)

// live is every stdio server this process started and has not yet
// reaped, so that KillAll can end them when the program must exit at
// once (a second Ctrl-C) instead of leaving them running.
var live = struct {
	sync.Mutex
	cmds map[*exec.Cmd]bool
}{cmds: map[*exec.Cmd]bool{}}

func liveAdd(cmd *exec.Cmd) {
	live.Lock()
	live.cmds[cmd] = true
	live.Unlock()
}

func liveRemove(cmd *exec.Cmd) {
	live.Lock()
	delete(live.cmds, cmd)
	live.Unlock()
}

// KillAll sends SIGKILL to the process group of every stdio server this
// process started and has not reaped yet, wherever its capture is (still
// starting, mid-list, shutting down). It is for a program about to exit
// without the orderly shutdown; captures still running see their server
// die and return. It returns how many servers it signalled.
func KillAll() int {
	live.Lock()
	defer live.Unlock()
	for cmd := range live.cmds {
		signalGroup(cmd, sigKill)
	}
	return len(live.cmds)
}
