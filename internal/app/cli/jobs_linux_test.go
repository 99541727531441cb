package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
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
	threeServersConfig(t, repo.Dir, [3]string{testserver.ModeQuietDaemon, testserver.ModeQuietDaemon, testserver.ModeQuietDaemon}, marker)
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
		noneOutlived(t, marker, "--jobs "+jobs+": processes of the servers outlived the check (a zombie was not reaped, or a daemon not killed)")
	}
	if reports[0] != reports[1] {
		t.Errorf("--jobs 4 printed another report than --jobs 1:\n%s\nwant:\n%s", reports[1], reports[0])
	}
}

var pids = regexp.MustCompile(`pid [0-9]+`)

// unownedLine is the diagnostic of an orphan that reached the program
// while captures overlapped: whether the cancelled third server got as far
// as starting its daemon, and whether that happened while the first
// capture ran, is timing, so the line is left out of the comparison.
var unownedLine = regexp.MustCompile(`(?m)^warning: [0-9]+ orphaned process\(es\) \(pid [0-9 ,]+\) appeared while this and other captures ran;[^\n]*\n`)

// The real program (Main: it adopts orphans) snapshots and validates
// three servers at once, the second of which fails its handshake, the
// first leaving a daemon behind: it exits 2 naming the second, prints and
// writes what --jobs 1 does (the first server's snapshot, no other), and
// no process of the servers outlives it, the third's included, which was
// cancelled or captured in vain. The third daemonizes too: cancelled
// while it starts its daemon, the daemon reaches the program when no
// capture can claim it (after they ended, or while they overlapped), and
// the program kills it before it exits (capture.ReapStrays).
func TestJobsFailureNamesTheFirstAndLeavesNoProcess(t *testing.T) {
	for _, cmd := range [][]string{
		{"snapshot"},
		{"validate", "--schema-dir", spectest.SchemaDir(t)},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			dir := t.TempDir()
			marker := fmt.Sprintf("MCP_SURFACE_TEST_JOBS_MARKER=%d", time.Now().UnixNano())
			threeServersConfig(t, dir, [3]string{testserver.ModeQuietDaemon, testserver.ModeCrashHandshake, testserver.ModeQuietDaemon}, marker)
			var runs []string
			for _, jobs := range []string{"1", "3"} {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				c := exec.CommandContext(ctx, os.Args[0], append(cmd, "--jobs", jobs)...)
				c.Dir = dir
				c.Env = append(os.Environ(), mainEnv+"=1")
				var stdout, stderr bytes.Buffer
				c.Stdout, c.Stderr = &stdout, &stderr
				err := c.Run()
				cancel()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != frontend.ExitFailure {
					t.Fatalf("--jobs %s: %v, want exit %d\n%s", jobs, err, frontend.ExitFailure, stderr.String())
				}
				if !strings.Contains(stderr.String(), "capturing beta (") || strings.Contains(stderr.String(), "gamma") {
					t.Errorf("--jobs %s: the error must name beta, and only beta:\n%s", jobs, stderr.String())
				}
				files := snapshotFiles(t, dir)
				if files[1] != "" || files[2] != "" || (cmd[0] == "snapshot") != (files[0] != "") {
					t.Errorf("--jobs %s: snapshot files written: alpha %t, beta %t, gamma %t; want alpha's alone, by snapshot",
						jobs, files[0] != "", files[1] != "", files[2] != "")
				}
				if err := os.RemoveAll(dir + "/snapshots/alpha.json"); err != nil {
					t.Fatal(err)
				}
				// The pids of the daemons killed differ from run to run.
				runs = append(runs, pids.ReplaceAllString(unownedLine.ReplaceAllString(stdout.String()+"\x00"+stderr.String(), ""), "pid N"))
				noneOutlived(t, marker, "--jobs "+jobs+": processes of the servers outlived the run")
			}
			if runs[0] != runs[1] {
				t.Errorf("--jobs 3 printed another output than --jobs 1:\n%q\nwant:\n%q", runs[1], runs[0])
			}
		})
	}
}
