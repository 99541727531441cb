//go:build unix

package testserver_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/syncbuf"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// proc is the test binary re-executed as a stdio server.
type proc struct {
	*rawConn
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
	exited chan struct{}
	err    error // valid after exited is closed
}

// startProc re-executes the test binary as a stdio server in mode, in its own
// process group so that cleanup can kill everything it started.
func startProc(t *testing.T, mode string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testserver.EnvFor(mode))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &proc{cmd: cmd, stderr: &syncbuf.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = stdoutW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdoutW.Close()
	p.rawConn = newRawConn(t, stdin, stdoutR)
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			t.Errorf("%s: process did not exit after SIGKILL", mode)
		}
		stdoutR.Close()
	})
	return p
}

// waitExit waits for the process to exit and returns its exit status.
func (p *proc) waitExit(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(timeout):
		t.Fatalf("process did not exit within %v; stderr:\n%s", timeout, p.stderr.String())
	}
	if p.err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	t.Fatalf("wait: %v", p.err)
	return -1
}

func TestExecFull(t *testing.T) {
	t.Parallel()
	p := startProc(t, "full")
	// The raw, legacy handshake, as an old client would do it.
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(p.handshake(), &init); err != nil {
		t.Fatal(err)
	}
	if init.ProtocolVersion != "2025-06-18" || init.ServerInfo.Name != testserver.ServerName {
		t.Errorf("initialize = %+v", init)
	}
	pages := p.toolPages(2)
	total := 0
	for _, res := range pages {
		total += len(decodePage(t, res).Tools)
	}
	if total != 25 || len(pages) != 7 {
		t.Errorf("tools: %d in %d pages, want 25 in 7", total, len(pages))
	}
	p.w.Close()
	if code := p.waitExit(t, 10*time.Second); code != 0 {
		t.Errorf("exit status %d after EOF; stderr:\n%s", code, p.stderr.String())
	}
}

func TestExecStdoutLog(t *testing.T) {
	t.Parallel()
	p := startProc(t, "stdout-log")
	checkStdoutLog(t, p.rawConn)
	p.w.Close()
	if code := p.waitExit(t, 10*time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestExecCrashHandshake(t *testing.T) {
	t.Parallel()
	p := startProc(t, "crash-handshake")
	p.request(1, "initialize", initializeParams)
	if code := p.waitExit(t, 10*time.Second); code != testserver.CrashHandshakeExitCode {
		t.Errorf("exit status %d, want 3", code)
	}
	if !strings.Contains(p.stderr.String(), "fatal: config file missing") {
		t.Errorf("stderr = %q", p.stderr.String())
	}
}

var childPIDRE = regexp.MustCompile(`child-pid=(\d+)`)

func TestExecIgnoreSigterm(t *testing.T) {
	p := startProc(t, "ignore-sigterm")
	p.handshake()
	p.request(2, "tools/list", "{}")
	if n := len(decodePage(t, p.result(2)).Tools); n != 2 {
		t.Errorf("%d tools, want 2", n)
	}
	m := childPIDRE.FindStringSubmatch(p.stderr.String())
	if m == nil {
		t.Fatalf("no child-pid in stderr %q", p.stderr.String())
	}
	child, _ := strconv.Atoi(m[1])
	if pgid, err := syscall.Getpgid(child); err != nil || pgid != p.cmd.Process.Pid {
		t.Errorf("child %d: pgid %d (%v), want %d", child, pgid, err, p.cmd.Process.Pid)
	}

	// Neither EOF nor SIGTERM ends it, nor its child.
	p.w.Close()
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.exited:
		t.Fatalf("exited after EOF+SIGTERM: %v", p.err)
	case <-time.After(300 * time.Millisecond):
	}
	if !testserver.Alive(child) {
		t.Fatal("child died of SIGTERM")
	}

	// SIGKILL to the group ends both.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.waitExit(t, 5*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for testserver.Alive(child) {
		if time.Now().After(deadline) {
			t.Fatalf("child %d still alive after SIGKILL to the group", child)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
