//go:build unix

package check_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcp-surface/mcp-surface/internal/testkit/gittest"
	"github.com/mcp-surface/mcp-surface/internal/testkit/testserver"
	"github.com/mcp-surface/mcp-surface/pkg/check"
	"github.com/mcp-surface/mcp-surface/pkg/report"
)

// modeServer is a stdio test server in the mode that mode.txt in its
// directory names: it differs between the base and the head.
func modeServer(name, dir string) check.Server {
	return check.Server{Name: name, Dir: dir, Shell: true,
		Command: []string{testserver.EnvVar + "=$(cat mode.txt) exec " + os.Args[0]}}
}

// threeServers is a repository whose base and head differ for three
// servers, none with a committed snapshot: every base is built.
func threeServers(t *testing.T) (*gittest.Repo, string) {
	t.Helper()
	repo := gittest.New(t)
	modes := [][2]string{
		{testserver.ModeToolsOnly, testserver.ModeFull},
		{testserver.ModeFull, testserver.ModeToolsOnly},
		{testserver.ModeFull, testserver.ModeFull},
	}
	for i, m := range modes {
		repo.Write(fmt.Sprintf("s%d/mode.txt", i), []byte(m[0]+"\n"))
	}
	base := repo.Commit("base")
	for i, m := range modes {
		repo.Write(fmt.Sprintf("s%d/mode.txt", i), []byte(m[1]+"\n"))
	}
	repo.Commit("head")
	return repo, base
}

// runJobs is one check of the three servers with jobs, and everything it
// printed: the report in every format, the progress lines and the build
// output.
func runJobs(t *testing.T, repo *gittest.Repo, base string, jobs int) (reports, logs, build string) {
	t.Helper()
	o := options(t, modeServer("a", "s0"), modeServer("b", "s1"), modeServer("c", "s2"))
	o.RepoDir, o.BaseRef, o.Environ = repo.Dir, base, os.Environ()
	o.Build = `if [ -d .git ]; then echo building the head >&2; else echo building the base >&2; fi; sleep 0.1; echo built >&2`
	o.Jobs = jobs
	var out, lines bytes.Buffer
	o.BuildOutput = &out
	o.Log = func(format string, args ...any) { fmt.Fprintf(&lines, format+"\n", args...) }
	res, err := check.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("jobs %d: %v", jobs, err)
	}
	var all strings.Builder
	for _, f := range []string{"json", "text", "markdown", "github", "junit"} {
		b, err := report.RenderBytes(f, res.Report, report.Options{})
		if err != nil {
			t.Fatalf("rendering %s: %v", f, err)
		}
		all.Write(b)
	}
	return all.String(), lines.String(), out.String()
}

// The report, the progress lines and the build output of a check whose
// builds and captures run at once are those of a sequential run, byte
// for byte.
func TestJobsDoNotChangeTheOutput(t *testing.T) {
	repo, base := threeServers(t)
	wantReports, wantLogs, wantBuild := runJobs(t, repo, base, 1)
	if !strings.Contains(wantReports, "prompt-added") || !strings.Contains(wantReports, "prompt-removed") {
		t.Fatalf("the sequential report shows no change:\n%s", wantReports)
	}
	for _, jobs := range []int{4, 0} {
		gotReports, gotLogs, gotBuild := runJobs(t, repo, base, jobs)
		if d := cmp.Diff(wantReports, gotReports); d != "" {
			t.Errorf("jobs %d: report differs from --jobs 1 (-want +got):\n%s", jobs, d)
		}
		if d := cmp.Diff(wantLogs, gotLogs); d != "" {
			t.Errorf("jobs %d: progress lines differ from --jobs 1 (-want +got):\n%s", jobs, d)
		}
		if d := cmp.Diff(wantBuild, gotBuild); d != "" {
			t.Errorf("jobs %d: build output differs from --jobs 1 (-want +got):\n%s", jobs, d)
		}
	}
	if want := "building the head\nbuilt\nbuilding the base\nbuilt\n"; wantBuild != want {
		t.Errorf("build output %q, want the head's, then the base's", wantBuild)
	}
}

// The head's and the base's builds run at once: each waits until the
// other has started, which a sequential run would never see.
func TestBuildsRunAtOnce(t *testing.T) {
	repo, base := threeServers(t)
	sync := t.TempDir()
	o := options(t, modeServer("a", "s0"))
	o.RepoDir, o.BaseRef, o.Jobs = repo.Dir, base, 2
	o.Environ = append(os.Environ(), "SYNC="+sync)
	o.Build = `touch "$SYNC/$(basename "$PWD")"; i=0; while [ "$(ls "$SYNC" | wc -l)" -lt 2 ]; do sleep 0.02; i=$((i+1)); [ $i -lt 1000 ] || exit 9; done`
	if _, err := check.Run(context.Background(), o); err != nil {
		t.Fatalf("the builds did not run at once: %v", err)
	}
}

// A side that fails stops the other at once: the base's build fails
// while the head's still runs, and the head's build (with what it
// started) is killed, not waited for.
func TestFailureStopsTheOtherSide(t *testing.T) {
	repo := gittest.New(t)
	repo.Write("s0/mode.txt", []byte(testserver.ModeFull+"\n"))
	repo.Write("fail-build", []byte("the base does not build\n"))
	base := repo.Commit("base")
	repo.Git("rm", "-q", "fail-build")
	repo.Commit("head")
	pidFile := filepath.Join(t.TempDir(), "pid")
	o := options(t, modeServer("a", "s0"))
	o.RepoDir, o.BaseRef, o.Jobs = repo.Dir, base, 4
	o.Environ = append(os.Environ(), "PIDFILE="+pidFile)
	// The head's build starts a sleep it would wait for, for good: a check
	// that waited for it would never return (the context's bound, far off,
	// ends the test then).
	o.Build = `if [ -f fail-build ]; then sleep 0.3; echo broken >&2; exit 3; fi; sleep 3600 & echo $! > "$PIDFILE"; wait`
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := check.Run(ctx, o)
	if ctx.Err() != nil {
		t.Fatalf("the check waited for the head's build: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "building the base") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("error %v, want the base's build failure", err)
	}
	b, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatalf("the head's build did not start: %v", rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for i := 0; i < 200 && syscall.Kill(pid, 0) == nil && !zombie(pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if syscall.Kill(pid, 0) == nil && !zombie(pid) {
		t.Errorf("the head build's sleep (pid %d) survived the check", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && strings.Contains(string(b), ") Z ")
}
