//go:build linux

package capture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A server's process group holds everything it starts, unless a descendant
// leaves it: a helper started in a session of its own (setsid, Node's
// detached spawn, Python's start_new_session) is out of reach of the group
// signals. Such descendants are found here by parentage, while the server
// still runs, and by the pipes they hold, once it is gone. Each is held by
// a pidfd from the moment it is found, so that a pid reused after it exits
// is never signalled.

// maxTracked bounds the descendants followed, against a fork bomb.
const maxTracked = 4096

type trackedProc struct {
	pid, pidfd int
}

// tracked is the set of descendants one shutdown follows. Its methods are
// called by that shutdown alone.
type tracked struct {
	procs []trackedProc
	// adopted are children of this process, reparented to it as a
	// subreaper, that this capture may own (see AdoptOrphans).
	adopted *adoption
}

// trackDescendants finds every descendant of leader by walking the process
// tree from it, and ends the capture's adoption a (nil without one).
func trackDescendants(leader int, a *adoption) *tracked {
	t := &tracked{adopted: endAdoption(a)}
	walkDescendants(leader, func(pid, fd int) {
		t.procs = append(t.procs, trackedProc{pid: pid, pidfd: fd})
		claim(pid)
	})
	return t
}

// walkDescendants walks the process tree from leader, breadth first, and
// gives visit each descendant with a pidfd opened on it, until maxTracked
// were visited. A pid is read before its pidfd is opened: one that is no
// longer the child seen (gone, its pid reused) is passed over.
func walkDescendants(leader int, visit func(pid, pidfd int)) {
	seen := map[int]bool{leader: true}
	queue := []int{leader}
	for n := 0; len(queue) > 0 && n < maxTracked; {
		parent := queue[0]
		queue = queue[1:]
		for _, pid := range childrenOf(parent) {
			if seen[pid] {
				continue
			}
			seen[pid] = true
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue // gone already
			}
			if st, ok := readStat(pid); !ok || st.ppid != parent {
				unix.Close(fd)
				continue
			}
			visit(pid, fd)
			n++
			queue = append(queue, pid)
		}
	}
}

// childrenOf lists the children that pid's main thread started. A child
// started by another thread is listed under that thread; reading every
// thread's list was measured to slow a Go server's exit by some 10ms, so
// only the main thread's is read (where Node and Python start theirs).
// Helpers missed here are still found by the pipes they hold, or adopted.
func childrenOf(pid int) []int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

type procStat struct {
	state           byte
	ppid, pgid, sid int
}

// readStat parses /proc/PID/stat. The command name is in parentheses and
// may contain anything, so fields are counted from the last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 4 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	sid, err3 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgid: pgid, sid: sid}, true
}

// running reports whether the process behind pidfd is alive and not a
// zombie; pid must be the pidfd's process.
func running(pid, pidfd int) (procStat, bool) {
	if unix.PidfdSendSignal(pidfd, 0, nil, 0) != nil {
		return procStat{}, false
	}
	st, ok := readStat(pid)
	return st, ok && st.state != 'Z' && st.state != 'X'
}

// killEscaped kills the tracked descendants still running outside group
// pgid (the group itself has been sent SIGKILL) and the orphans adopted
// for this capture, and returns their pids.
func (t *tracked) killEscaped(pgid int) []int {
	var killed []int
	for _, p := range t.procs {
		st, ok := running(p.pid, p.pidfd)
		if !ok || st.pgid == pgid {
			continue
		}
		if unix.PidfdSendSignal(p.pidfd, unix.SIGKILL, nil, 0) == nil {
			killed = append(killed, p.pid)
		}
	}
	return append(killed, t.adopted.kill(t)...)
}

// killPipeHolders kills every other process that holds one of files' pipes:
// after the server is gone, only something it started can. It returns
// their pids.
func (t *tracked) killPipeHolders(files []*os.File) []int {
	inodes := map[string]bool{}
	for _, f := range files {
		fi, err := f.Stat()
		if err != nil {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			inodes[fmt.Sprintf("pipe:[%d]", st.Ino)] = true
		}
	}
	if len(inodes) == 0 {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var killed []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || !holdsPipe(pid, inodes) {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		// Checked again through the pidfd's lifetime: the pid may have
		// been reused between the scan and the open.
		if !holdsPipe(pid, inodes) || unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) != nil {
			unix.Close(fd)
			continue
		}
		t.procs = append(t.procs, trackedProc{pid: pid, pidfd: fd})
		claim(pid)
		killed = append(killed, pid)
	}
	return killed
}

func holdsPipe(pid int, inodes map[string]bool) bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if link, err := os.Readlink(dir + "/" + fd.Name()); err == nil && inodes[link] {
			return true
		}
	}
	return false
}

// reap waits, at most d in all, until every tracked process has exited,
// and reaps those that are this process's children (adopted as a
// subreaper); the others are reaped by their own parent or reaper.
func (t *tracked) reap(d time.Duration) {
	if len(t.procs) == 0 {
		return
	}
	deadline := time.Now().Add(d)
	for _, p := range t.procs {
		// A pidfd is readable once its process has exited.
		for {
			ms := int(time.Until(deadline) / time.Millisecond)
			if ms < 0 {
				ms = 0
			}
			fds := []unix.PollFd{{Fd: int32(p.pidfd), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, ms)
			if err == unix.EINTR {
				continue
			}
			if err == nil && n > 0 {
				var info unix.Siginfo
				_ = unix.Waitid(unix.P_PIDFD, p.pidfd, &info, unix.WEXITED|unix.WNOHANG, nil)
			}
			break
		}
	}
}

func (t *tracked) release() {
	for _, p := range t.procs {
		unix.Close(p.pidfd)
		unclaim(p.pid)
	}
	t.procs = nil
}

// Adoption. Without help, a descendant orphaned before shutdown (the
// classic daemon forks twice and lets the middle process exit) is
// reparented to init and cannot be traced to its server. AdoptOrphans makes
// this process the subreaper of its descendants, so that such orphans
// become its children, and starts each stdio server as a subreaper of its
// own (see execShim): an orphan of the server's tree then becomes the
// server's child, found by parentage like any other descendant, whatever
// other captures run at the same time. Only what reaches this process
// (the orphans of a server that exited before its shutdown began) is of
// unknown origin; it is attributed to a capture only when no other capture
// overlapped it.

var adoptions struct {
	sync.Mutex
	on   bool
	live map[*adoption]bool
	// exe is this program, re-executed as the exec shim ("" for none).
	exe string
	// claimed counts, per pid, the captures tracking it: an orphan one
	// capture followed from its server's tree is never another's.
	claimed map[int]int
}

// shimArg, as argv[1], makes AdoptOrphans the exec shim: argv[2] is the
// server's executable, argv[3:] its argv.
const shimArg = "mcp-surface-internal-exec-as-subreaper"

// execShim makes this process a child subreaper and replaces it with the
// server (the attribute survives execve, unlike fork): the server then
// adopts every orphan of its own tree. It never returns.
func execShim(args []string) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "mcp-surface: becoming a child subreaper before starting %s: %v\n", args[0], err)
		os.Exit(127)
	}
	err := unix.Exec(args[0], args[1:], os.Environ())
	fmt.Fprintf(os.Stderr, "mcp-surface: starting %s: %v\n", args[0], err)
	os.Exit(127)
}

// viaShim rewrites cmd to start through the exec shim when orphans are
// adopted. A program the shim could not start is left to cmd.Start, so
// that its error is the one a direct start reports.
func viaShim(cmd *exec.Cmd) {
	adoptions.Lock()
	exe := adoptions.exe
	adoptions.Unlock()
	if exe == "" || cmd.Err != nil {
		return
	}
	path := cmd.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(cmd.Dir, path)
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || unix.Access(path, unix.X_OK) != nil {
		return
	}
	cmd.Args = append([]string{exe, shimArg, cmd.Path}, cmd.Args...)
	cmd.Path = exe
}

// claim and unclaim keep adoptions.claimed.
func claim(pid int) {
	adoptions.Lock()
	if adoptions.claimed == nil {
		adoptions.claimed = map[int]int{}
	}
	adoptions.claimed[pid]++
	adoptions.Unlock()
}

func unclaim(pid int) {
	adoptions.Lock()
	if adoptions.claimed[pid]--; adoptions.claimed[pid] <= 0 {
		delete(adoptions.claimed, pid)
	}
	adoptions.Unlock()
}

// adoption is one capture's view of this process's children.
type adoption struct {
	leader     int          // the server's pid, once started
	before     map[int]bool // children of ours when the capture started
	overlapped bool         // another capture ran at the same time
	orphans    []trackedProc
	unowned    []int
}

// AdoptOrphans makes this process a child subreaper (Linux's
// PR_SET_CHILD_SUBREAPER): every descendant orphaned from now on is
// reparented to it instead of to init. Stdio captures then also find
// helpers that a server daemonized (and whose parent exited) before
// shutdown, kill them and reap them.
//
// It changes the whole process, for good, which is why it is opt-in: any
// orphan of any child becomes this process's child, and a zombie until
// someone reaps it. Captures reap only what they kill or what belongs to
// their server's process group.
//
// Each stdio server is then started through this very program, which
// re-executes itself as a shim that makes the server a subreaper too and
// execs it in place (same pid, argv and environment). An orphan of the
// server's tree becomes the server's child and is attributed to its
// capture by parentage, so captures may overlap. An orphan that reaches
// this process instead (its server exited before its shutdown) is
// attributed to a capture when it is a child of ours in a session other
// than ours that appeared while that capture ran and no other capture was
// running; if captures overlapped, it is named in a diagnostic instead,
// and left to ReapStrays, which the program calls once every capture has
// ended (as it kills an orphan that arrives after its capture ended).
//
// The first stdio server also starts a watchdog (this program again, see
// watchdog_linux.go) that kills every server still running when the
// program ends without stopping them, SIGKILL included.
//
// Call it first thing in main, before any other work: in the shim and
// the watchdog it never returns. Call it from a program that starts no detached processes
// of its own during captures (such as the mcp-surface command), not from
// a library. Without the program's path (os.Executable) servers start
// directly, as without the shim.
func AdoptOrphans() error {
	if len(os.Args) > 2 && os.Args[1] == shimArg {
		execShim(os.Args[2:])
	}
	if len(os.Args) == 2 && os.Args[1] == watchdogArg {
		runWatchdog()
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("becoming a child subreaper: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	adoptions.Lock()
	adoptions.on = true
	adoptions.exe = exe
	adoptions.Unlock()
	return nil
}

// beginAdoption registers a capture about to start its server, and notes
// the children this process has before it (nil when AdoptOrphans was not
// called). Call started with the server's pid, or endAdoption if it did not
// start.
func beginAdoption() *adoption {
	adoptions.Lock()
	defer adoptions.Unlock()
	if !adoptions.on {
		return nil
	}
	if adoptions.live == nil {
		adoptions.live = map[*adoption]bool{}
	}
	a := &adoption{before: map[int]bool{}}
	for _, pid := range childrenOf(os.Getpid()) {
		a.before[pid] = true
	}
	for other := range adoptions.live {
		other.overlapped = true
		a.overlapped = true
	}
	adoptions.live[a] = true
	return a
}

func (a *adoption) started(leader int) {
	if a == nil {
		return
	}
	adoptions.Lock()
	a.leader = leader
	adoptions.Unlock()
}

// endAdoption unregisters a capture that is shutting down and collects the
// orphans it may own.
func endAdoption(a *adoption) *adoption {
	if a == nil {
		return nil
	}
	adoptions.Lock()
	defer adoptions.Unlock()
	delete(adoptions.live, a)
	if a.leader == 0 {
		return a
	}
	if adoptions.claimed == nil {
		adoptions.claimed = map[int]int{}
	}
	leaders := map[int]bool{a.leader: true}
	for other := range adoptions.live {
		leaders[other.leader] = true
	}
	self := os.Getpid()
	me, ok := readStat(self)
	if !ok {
		return a
	}
	for _, pid := range childrenOf(self) {
		if a.before[pid] || leaders[pid] || adoptions.claimed[pid] > 0 {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.sid == me.sid {
			continue
		}
		if a.overlapped {
			a.unowned = append(a.unowned, pid)
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); !ok || st.ppid != self {
			unix.Close(fd)
			continue
		}
		a.orphans = append(a.orphans, trackedProc{pid: pid, pidfd: fd})
		adoptions.claimed[pid]++
	}
	return a
}

// kill kills the orphans attributed to the capture, hands them to t for
// reaping, and returns their pids.
func (a *adoption) kill(t *tracked) []int {
	if a == nil {
		return nil
	}
	var killed []int
	for _, p := range a.orphans {
		t.procs = append(t.procs, p)
		if _, ok := running(p.pid, p.pidfd); ok && unix.PidfdSendSignal(p.pidfd, unix.SIGKILL, nil, 0) == nil {
			killed = append(killed, p.pid)
		}
	}
	a.orphans = nil
	return killed
}

// unownedPids are adopted processes that may belong to this capture or to
// one that overlapped it.
func (t *tracked) unownedPids() []int {
	if t.adopted == nil {
		return nil
	}
	return t.adopted.unowned
}

// ReapStrays kills and reaps, for at most d, every child this process
// still has: once every capture has ended (Capture.Wait, WaitShutdowns),
// a child of a program that adopts orphans and starts nothing detached of
// its own is an orphan no capture claimed, such as the daemon of a server
// whose capture was cancelled while it was starting one, which reaches
// this process only after its capture ended. A child that appears while
// it sweeps (a middle process forking its daemon) is swept too; it
// returns once a look finds none (at once when there was none), or when d
// is over. It returns the pids killed; without AdoptOrphans it does
// nothing.
func ReapStrays(d time.Duration) []int {
	adoptions.Lock()
	on := adoptions.on
	adoptions.Unlock()
	if !on {
		return nil
	}
	var killed []int
	deadline := time.Now().Add(d)
	self := os.Getpid()
	// Every server has been reaped, so whatever it orphaned has been
	// reparented already: no child at the first look means none will come.
	// After a sweep that killed some, look again a little later, for a
	// middle process that forked before it was killed.
	for swept := false; time.Now().Before(deadline); swept = true {
		if swept {
			time.Sleep(20 * time.Millisecond)
		}
		// The watchdog is no stray: it ends with its pipe, once we exit.
		kids := slices.DeleteFunc(childrenOf(self), isWatchdog)
		if len(kids) == 0 {
			break
		}
		for _, pid := range kids {
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue
			}
			if st, ok := readStat(pid); ok && st.ppid == self {
				if unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil {
					killed = append(killed, pid)
				}
				var info unix.Siginfo
				ms := max(int(time.Until(deadline)/time.Millisecond), 0)
				fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
				if n, err := unix.Poll(fds, ms); err == nil && n > 0 {
					_ = unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil)
				}
			}
			unix.Close(fd)
		}
	}
	return killed
}
