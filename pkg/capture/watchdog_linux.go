//go:build linux

package capture

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The watchdog: no server outlives the program, whatever ends it.
//
// A capture ends its server in its shutdown, and a second interrupt kills
// every server before the program exits (KillAll); neither runs when the
// program is killed with SIGKILL, or dies of a fault. For those, a program
// that adopts orphans (AdoptOrphans) starts, with its first stdio server,
// a watchdog: this very program re-executed, in a process group of its own
// (so that a signal to the program's group does not reach it), reading a
// pipe whose only write end the program holds. The program tells it each
// server it starts ("+pid starttime") and each one it has reaped ("-pid").
// When the pipe reaches end of file (the kernel closes the program's end
// however it ended, SIGKILL included), the watchdog kills what is left of
// every server still registered, its process group and the descendants
// that left it, and exits. When the program exits normally every server
// has been unregistered already and the watchdog exits at once.
//
// Why not a parent-death signal (PR_SET_PDEATHSIG) on the server: it
// reaches the server process alone, not its process group or what it
// started, whose orphans would then be reparented out of reach; it is
// sent when the thread that started the server ends, not the program (Go
// ends threads of its own accord, after a goroutine locked to one exits);
// and it is cleared when a server execs a set-user-ID program. Nor a pipe
// the server side watches: the server is exec'ed in place (the same pid,
// see execShim), so nothing of ours runs beside it to watch one. The
// watchdog sees the program's end whatever its cause, from outside, and
// can walk the server's process tree while the server still runs.
//
// The one window left is between a server's start and its registration
// (a few system calls, before the server has run a line of its own code).
// A watchdog that could not be started leaves the program as it was
// before: its own shutdowns, KillAll and ReapStrays still apply.

// watchdogArg, as argv[1], makes AdoptOrphans run the watchdog.
const watchdogArg = "mcp-surface-internal-watchdog"

var watchdog struct {
	sync.Mutex
	tried bool
	w     *os.File // the program's end of the pipe; nil without a watchdog
	pid   int      // the watchdog's, once started: no stray (see ReapStrays)
}

// watchStart registers a server just started (pid, not yet waited for, so
// not yet reaped) with the watchdog, starting the watchdog first if needed.
func watchStart(pid int) {
	start, ok := startTime(pid)
	if !ok {
		return
	}
	tellWatchdog(fmt.Sprintf("+%d %d\n", pid, start), true)
}

// watchEnd unregisters a server whose group is gone.
func watchEnd(pid int) { tellWatchdog(fmt.Sprintf("-%d\n", pid), false) }

func tellWatchdog(line string, start bool) {
	watchdog.Lock()
	defer watchdog.Unlock()
	if watchdog.w == nil && start && !watchdog.tried {
		watchdog.tried = true
		watchdog.w, watchdog.pid = startWatchdog()
	}
	if watchdog.w == nil {
		return
	}
	// A line is shorter than PIPE_BUF, so it is written whole or not at
	// all. A watchdog that died makes this fail with EPIPE (not on the
	// standard streams, so no SIGPIPE): the program goes on without it.
	if _, err := watchdog.w.WriteString(line); err != nil {
		watchdog.w.Close()
		watchdog.w = nil
	}
}

// startWatchdog starts the watchdog and returns the pipe to it and its
// pid, or nil.
func startWatchdog() (*os.File, int) {
	adoptions.Lock()
	exe := adoptions.exe
	adoptions.Unlock()
	if exe == "" {
		return nil, 0
	}
	r, w, err := os.Pipe() // close-on-exec: no server inherits either end
	if err != nil {
		return nil, 0
	}
	cmd := exec.Command(exe, watchdogArg)
	cmd.Env = os.Environ()
	cmd.Stdin = r // stdout and stderr: /dev/null, so it holds none of our pipes
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, 0
	}
	// Reaped if it ends first (it dies with its pipe otherwise).
	go func() { _ = cmd.Wait() }()
	return w, cmd.Process.Pid
}

// isWatchdog reports whether pid is this program's watchdog.
func isWatchdog(pid int) bool {
	watchdog.Lock()
	defer watchdog.Unlock()
	return pid != 0 && pid == watchdog.pid
}

// startTime is the process's start time in clock ticks since boot (field
// 22 of /proc/PID/stat): with the pid, it names one process for good.
func startTime(pid int) (uint64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, false
	}
	n, err := strconv.ParseUint(f[19], 10, 64)
	return n, err == nil
}

type watched struct {
	start uint64
	pidfd int // -1 when the server could no longer be opened
}

// runWatchdog is the watchdog's whole life; it never returns.
func runWatchdog() {
	// A Ctrl-C or a hangup is for the program; only the pipe ends us.
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	servers := map[int]watched{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		switch line[0] {
		case '+':
			var pid int
			var start uint64
			if _, err := fmt.Sscanf(line[1:], "%d %d", &pid, &start); err != nil || pid <= 1 {
				continue
			}
			if len(servers) >= maxTracked {
				continue
			}
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				fd = -1
			} else if st, ok := startTime(pid); !ok || st != start {
				unix.Close(fd)
				fd = -1
			}
			servers[pid] = watched{start: start, pidfd: fd}
		case '-':
			pid, err := strconv.Atoi(line[1:])
			if err != nil {
				continue
			}
			if w, ok := servers[pid]; ok {
				if w.pidfd >= 0 {
					unix.Close(w.pidfd)
				}
				delete(servers, pid)
			}
		}
	}
	// The program is gone: end what is left of its servers.
	for pid, w := range servers {
		killServerTree(pid, w)
	}
	os.Exit(0)
}

// killServerTree kills a server whose program is gone: its descendants
// (found from it while it runs, frozen first so that none forks away),
// its process group, and whatever of that group is left.
func killServerTree(leader int, w watched) {
	var procs []int // pidfds
	leaderAlive := w.pidfd >= 0 && unix.PidfdSendSignal(w.pidfd, 0, nil, 0) == nil
	if leaderAlive {
		// Stop the group, then walk the tree from the leader, stopping
		// each descendant as it is found.
		_ = unix.PidfdSendSignal(w.pidfd, unix.SIGSTOP, nil, 0)
		_ = unix.Kill(-leader, unix.SIGSTOP)
		walkDescendants(leader, func(_, fd int) {
			_ = unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0)
			procs = append(procs, fd)
		})
		// The leader runs, so the group is its own: no other group can
		// have its id.
		_ = unix.Kill(-leader, unix.SIGKILL)
		_ = unix.PidfdSendSignal(w.pidfd, unix.SIGKILL, nil, 0)
	}
	for _, fd := range procs {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		unix.Close(fd)
	}
	// The leader had exited already (the program died in the server's
	// shutdown): what is left of its group is found by its group id and
	// its start time (no member of the group started before its leader),
	// never by the bare id, which a new group may have taken.
	for range 10 {
		if killGroupMembers(leader, w.start) == 0 {
			break
		}
	}
}

// killGroupMembers kills the processes of group pgid that started at or
// after start and returns how many it signalled.
func killGroupMembers(pgid int, start uint64) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); !ok || st.pgid != pgid || st.state == 'Z' {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		st, ok := readStat(pid)
		t, tok := startTime(pid)
		if ok && tok && st.pgid == pgid && st.state != 'Z' && t >= start && unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil {
			n++
		}
		unix.Close(fd)
	}
	return n
}
