package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// --shutdown-grace sets the limit only when given: a server's
// shutdownGrace in the configuration applies otherwise.
func TestShutdownGraceFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, 0},
		{[]string{"--shutdown-grace", "250ms"}, 250 * time.Millisecond},
		{[]string{"--shutdown-grace=2s"}, 2 * time.Second},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var cf captureFlags
		cf.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if err := cf.checkLimits(); err != nil {
			t.Errorf("%v: %v", tc.args, err)
		}
		if got := cf.limits().ShutdownGrace; got != tc.want {
			t.Errorf("%v: ShutdownGrace = %v, want %v", tc.args, got, tc.want)
		}
	}
	for _, bad := range []string{"0", "-1s", "soon"} {
		r := run(t, nil, "capture", "--shutdown-grace", bad, "--", "x")
		if r.code != frontend.ExitFailure || !strings.Contains(r.stderr, "shutdown-grace") {
			t.Errorf("--shutdown-grace %s: exit %d, stderr %q; want exit 2 naming the flag", bad, r.code, r.stderr)
		}
	}
}

// The commands overlap a server's shutdown with their own work, but every
// server is reaped before RunEnv returns: a server that ignores both EOF
// and SIGTERM is gone when the command is, whichever command and whether
// it succeeded or not.
func TestCommandsReapTheirServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := t.TempDir()
	for i, args := range [][]string{
		{"capture", "--protocol-version", "2025-06-18", "--shutdown-grace", "300ms", "-o", filepath.Join(dir, "a.json")},
		{"snapshot", "--protocol-version", "2025-06-18", "-o", filepath.Join(dir, "b.json"), "--frames", filepath.Join(dir, "frames.jsonl")},
		{"validate", "--schema-dir", spectest.SchemaDir(t), "--fail-on", "none", "--protocol-version", "2025-06-18", "--shutdown-grace", "300ms"},
		{"capture", "--protocol-version", "2025-06-18", "-o", filepath.Join(dir, "no-such-dir", "c.json")},
	} {
		marker := fmt.Sprintf("MCP_SURFACE_TEST_MARKER=grace-%d-%d", i, time.Now().UnixNano())
		env := append(serverEnvFor(testserver.ModeIgnoreSigterm), marker)
		r := run(t, env, append(append(args, "--"), serverCmd()...)...)
		if r.code == frontend.ExitFailure && i < 3 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		noneOutlived(t, marker, fmt.Sprintf("%v: server processes still running after the command returned", args))
	}
}

// noneOutlived fails the test, saying what, when a process whose
// environment holds marker is left, and kills every such process.
func noneOutlived(t *testing.T, marker, what string) {
	t.Helper()
	pids := marked(marker)
	if len(pids) == 0 {
		return
	}
	t.Errorf("%s: %v", what, pids)
	for _, pid := range pids {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}

// marked lists the processes, zombies included, whose environment holds
// marker (none where there is no /proc).
func marked(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && strings.Contains(string(env), marker+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}
