package testserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Raw modes whose server starts a helper that leaves its process group, in
// a session of its own, as Node's spawn with detached: true, Python's
// start_new_session=True or setsid(1) do. The server itself behaves (lite
// tools, exits on EOF); the helper ignores SIGTERM and outlives it.
const (
	// ModeDetachedHelper: the helper is the server's own child and keeps
	// the server's stdout and stderr open.
	ModeDetachedHelper = "detached-helper"
	// ModeDaemonizedHelper: the helper is started through a middle process
	// that exits at once (a double fork), so it is an orphan before the
	// capture ends; it keeps the server's stdout and stderr open.
	ModeDaemonizedHelper = "daemonized-helper"
	// ModeQuietDaemon: like daemonized-helper, but the helper's stdio is
	// /dev/null: it does not hold the capture up, it only survives it.
	ModeQuietDaemon = "quiet-daemon"

	// ModeDaemon is the helper itself, and ModeDaemonLauncher the middle
	// process; neither is meant to be run directly.
	ModeDaemon         = "daemon"
	ModeDaemonLauncher = "daemon-launcher"
)

// HelperPidPrefix starts the stderr line ("helper-pid=N") in which the
// helper modes name their helper once it ignores SIGTERM.
const HelperPidPrefix = "helper-pid="

// The helper's readiness pipe is its fd 3: it writes "ready PID" there
// once SIGTERM is ignored, then closes it.
const readyFd = 3

// daemonQuietEnv tells the launcher to give the helper /dev/null for stdio.
const daemonQuietEnv = "MCP_SURFACE_TESTSERVER_DAEMON_QUIET"

func runDaemon(ctx context.Context) error {
	signal.Ignore(syscall.SIGTERM)
	if f := os.NewFile(readyFd, "ready"); f != nil {
		fmt.Fprintf(f, "ready %d\n", os.Getpid())
		f.Close()
	}
	// Hold whatever stdout and stderr we were given; write nothing.
	return hangForever(ctx)
}

// runDaemonLauncher starts the helper in a new session, hands it the
// readiness pipe and exits, orphaning it.
func runDaemonLauncher() error {
	ready := os.NewFile(readyFd, "ready")
	cmd, err := selfCommand(ModeDaemon)
	if err != nil {
		return err
	}
	if os.Getenv(daemonQuietEnv) == "" {
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	}
	cmd.ExtraFiles = []*os.File{ready}
	cmd.SysProcAttr = newSession()
	return cmd.Start()
}

// startHelper starts the helper of a helper mode, waits until it ignores
// SIGTERM and names it on stderr.
func (s *rawServer) startHelper() error {
	mode := ModeDaemon
	if s.mode != ModeDetachedHelper {
		mode = ModeDaemonLauncher
	}
	cmd, err := selfCommand(mode)
	if err != nil {
		return err
	}
	if s.mode == ModeQuietDaemon {
		cmd.Env = append(cmd.Env, daemonQuietEnv+"=1")
	} else {
		// The very pipes the client reads, as stdio: 'inherit'.
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	}
	if s.mode == ModeDetachedHelper {
		cmd.SysProcAttr = newSession()
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("testserver: starting the helper: %w", err)
	}
	if s.mode == ModeDetachedHelper {
		go func() { _ = cmd.Wait() }()
	} else if err := cmd.Wait(); err != nil {
		return fmt.Errorf("testserver: the helper's launcher: %w", err)
	}
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(r).ReadString('\n')
		line <- l
	}()
	var got string
	select {
	case got = <-line:
	case <-time.After(30 * time.Second):
		return errors.New("testserver: timed out waiting for the helper")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(got, "ready ")))
	if err != nil {
		return fmt.Errorf("testserver: the helper said %q", got)
	}
	_, err = fmt.Fprintf(s.stderr, "%s%d\n", HelperPidPrefix, pid)
	return err
}

// selfCommand re-executes the current executable in mode.
func selfCommand(mode string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("testserver: finding own executable: %w", err)
	}
	cmd := exec.Command(exe)
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, EnvVar+"=") || strings.HasPrefix(kv, daemonQuietEnv+"=")
	})
	cmd.Env = append(env, EnvFor(mode))
	return cmd, nil
}
