package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/spectest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
)

// The real program (Main: it adopts orphans) checks three servers of one
// configuration at once, each of which leaves a daemon behind in a
// session of its own, its parent gone: every daemon is still traced to
// its server, killed and reaped before the program exits, and the report
// is the one --jobs 1 prints.
func TestCheckJobsKillEveryServersDaemons(t *testing.T) {
	repo := gittest.New(t)
	marker := fmt.Sprintf("MCP_SURFACE_TEST_JOBS_MARKER=%d", time.Now().UnixNano())
	var cfg strings.Builder
	cfg.WriteString("servers:\n")
	for _, name := range []string{"alpha", "beta", "gamma"} {
		fmt.Fprintf(&cfg, "  - name: %s\n    command: [%q]\n    env:\n      %s: %s\n      %s: %s\n",
			name, os.Args[0], testserver.EnvVar, testserver.ModeQuietDaemon,
			strings.Split(marker, "=")[0], strings.Split(marker, "=")[1])
	}
	repo.Write(".mcp-surface.yaml", []byte(cfg.String()))
	repo.Commit("three servers")
	var reports []string
	for _, jobs := range []string{"1", "4"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, os.Args[0], "check", "--jobs", jobs, "--baseline", "none",
			"--format", "json", "--schema-dir", spectest.SchemaDir(t))
		cmd.Dir = repo.Dir
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Fatalf("--jobs %s: %v\n%s", jobs, err, stderr.String())
		}
		reports = append(reports, stdout.String())
		if pids := marked(marker); len(pids) > 0 {
			t.Errorf("--jobs %s: processes of the servers outlived the check (a zombie was not reaped, or a daemon not killed): %v", jobs, pids)
			for _, pid := range pids {
				if p, err := os.FindProcess(pid); err == nil {
					_ = p.Kill()
				}
			}
		}
	}
	if reports[0] != reports[1] {
		t.Errorf("--jobs 4 printed another report than --jobs 1:\n%s\nwant:\n%s", reports[1], reports[0])
	}
}

// marked lists the processes whose environment holds marker, with their
// state.
func marked(marker string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, []byte(marker+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}
