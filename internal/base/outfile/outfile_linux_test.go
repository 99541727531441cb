package outfile

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcp-surface/mcp-surface/internal/testkit/outfiletest"
)

// tmpfsEnv names, in the re-executed test, the directory to mount a small
// tmpfs on.
const tmpfsEnv = "MCP_SURFACE_TEST_OUTFILE_TMPFS"

// On a real file system that fills up (a 64 KiB tmpfs) and then is made
// read-only, a write leaves the old file as it was, no temporary file, and
// an error naming the file and the cause. The tmpfs is mounted in a mount
// namespace of the test's own (unshare -m), so nothing is mounted for the
// machine; that needs root (CI has it) and unshare(1), and the test is
// skipped without them (TestAFailedWriteLeavesTheOldFile injects the
// fault instead). As root, a directory's permissions do not stop a write,
// so the read-only case is a read-only mount; TestAReadOnlyDirectory
// covers the permissions for other users.
func TestFullAndReadOnlyFileSystems(t *testing.T) {
	if dir := os.Getenv(tmpfsEnv); dir != "" {
		fullAndReadOnly(t, dir)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1)")
	}
	cmd := exec.Command(unshare, "-m", "--propagation", "private", os.Args[0], "-test.run=^TestFullAndReadOnlyFileSystems$", "-test.v")
	cmd.Env = append(os.Environ(), tmpfsEnv+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil && strings.Contains(string(out), "unshare failed"):
		t.Skipf("no mount namespace here: %s", out)
	case err != nil:
		t.Fatalf("in a mount namespace: %v\n%s", err, out)
	case strings.Contains(string(out), "--- SKIP"):
		t.Skipf("%s", out)
	case !strings.Contains(string(out), "--- PASS: TestFullAndReadOnlyFileSystems"):
		t.Fatalf("the test did not run in the namespace:\n%s", out)
	}
}

func fullAndReadOnly(t *testing.T, dir string) {
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("mounting a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, syscall.MNT_DETACH)
	path := filepath.Join(dir, "out.json")
	ctx := context.Background()
	if err := Write(ctx, path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	intact := func(what string) {
		t.Helper()
		if got, _ := os.ReadFile(path); string(got) != "old" {
			t.Errorf("%s: the file holds %d bytes, want the old content", what, len(got))
		}
		if names := outfiletest.Names(t, dir); len(names) != 1 {
			t.Errorf("%s: directory holds %v", what, names)
		}
	}
	err := Write(ctx, path, bytes.Repeat([]byte("x"), 256<<10))
	if want := "cannot write " + path + ": no space left on device"; err == nil || err.Error() != want {
		t.Errorf("a full file system: %v, want %q", err, want)
	}
	intact("a full file system")
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remounting read-only: %v", err)
	}
	err = Write(ctx, path, []byte("new"))
	if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+path+": directory "+dir+" is not writable (read-only file system)") {
		t.Errorf("a read-only file system: %v", err)
	}
	intact("a read-only file system")
}

// A directory the user may not write to (as root, permissions stop
// nothing: see TestFullAndReadOnlyFileSystems).
func TestAReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("permissions do not stop root")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	os.WriteFile(path, []byte("old"), 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := Write(context.Background(), path, []byte("new"))
	if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+path+": directory "+dir+" is not writable (permission denied)") {
		t.Errorf("Write = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file holds %q, want the old content", got)
	}
}
