package outfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-surface/mcp-surface/internal/testkit/outfiletest"
)

// entries lists dir, so that a test can see no temporary file is left.
func TestReplacesARegularFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	ctx := context.Background()
	if err := Write(ctx, path, []byte(strings.Repeat("x", 1000))); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(ctx, path, []byte("short")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(got) != "short" || fi.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v, want \"short\" mode 0600", got, fi.Mode().Perm())
	}
	outfiletest.Holds(t, dir, "out.json")
}

func TestANewFileIs0644(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.json")
	if err := Write(context.Background(), path, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
}

// TestDevicesAreWrittenInPlace runs as root (CI containers do): renaming
// over a device replaces it for the whole machine. A null device made in
// a temporary directory goes first; the real /dev/null is only written
// when that one survived.
func TestDevicesAreWrittenInPlace(t *testing.T) {
	null := outfiletest.NullDevice(t)
	dir := filepath.Dir(null)
	ctx := context.Background()
	if err := Check(null); err != nil {
		t.Fatal(err)
	}
	if err := Write(ctx, null, []byte("gone")); err != nil {
		t.Fatal(err)
	}
	if !outfiletest.IsCharDevice(t, null) {
		return
	}
	if names := outfiletest.Names(t, dir); len(names) != 1 {
		t.Fatalf("directory holds %v, want only the device", names)
	}
	if err := Check("/dev/null"); err != nil {
		t.Fatal(err)
	}
	if err := Write(ctx, "/dev/null", []byte("gone")); err != nil {
		t.Fatal(err)
	}
	outfiletest.IsCharDevice(t, "/dev/null")
}

func TestAFIFOIsWrittenInPlace(t *testing.T) {
	fifo, got := outfiletest.FIFO(t)
	want := bytes.Repeat([]byte("frame\n"), 100_000) // more than a pipe holds
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := Write(ctx, fifo, want); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Errorf("the reader got %d bytes, want %d", len(b), len(want))
		}
	case <-ctx.Done():
		t.Fatal("the reader never saw the end of the data")
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", fi.Mode())
	}
}

func TestAFIFOWithoutAReaderStopsWithTheContext(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Write(ctx, fifo, []byte("x")) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cannot write "+fifo+": waiting for a reader") {
			t.Errorf("got %v, want the wait for a reader, ended by the deadline", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the write ignored its context")
	}
}

func TestADescriptorLinkIsWrittenInPlace(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Lstat(path); err != nil {
		t.Skip("no /proc here")
	}
	if err := Write(context.Background(), path, []byte("through the link")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if got, _ := io.ReadAll(r); string(got) != "through the link" {
		t.Errorf("the pipe got %q", got)
	}
}

func TestASymbolicLinkToAFileStaysALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(context.Background(), link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a %v", fi.Mode())
	}
	if got, _ := os.ReadFile(real); string(got) != "new" {
		t.Errorf("the link's target holds %q", got)
	}
}

func TestCheckNamesThePathAndTheFix(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "out.json"), "directory " + filepath.Join(dir, "missing") + " does not exist; create it first"},
		{filepath.Join(file, "out.json"), file + " is not a directory"},
		{dir, "it is a directory; name a file"},
	} {
		err := Check(c.path)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot write "+c.path+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%s) = %v, want %q", c.path, err, c.want)
		}
		if err := Write(context.Background(), c.path, []byte("x")); err == nil || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("Write(%s) = %v, want an error that names no temporary file", c.path, err)
		}
	}
	if err := Check(filepath.Join(dir, "out.json")); err != nil {
		t.Errorf("a writable directory: %v", err)
	}
	outfiletest.Holds(t, dir, "file")
}

func TestACancelledWriteLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	os.WriteFile(path, []byte("old"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	f, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	cancel()
	err = f.Commit()
	if err == nil || !strings.Contains(err.Error(), "cannot write "+path+": interrupted") {
		t.Errorf("Commit after cancel = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file holds %q, want the old content", got)
	}
	outfiletest.Holds(t, dir, "out.json")
}

// faultyWriter passes the first n bytes on, then fails every write with
// err: a disk that fills up part-way.
type faultyWriter struct {
	w   io.Writer
	n   int
	err error
}

func (f *faultyWriter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return f.w.Write(p)
	}
	n, _ := f.w.Write(p[:f.n])
	f.n = 0
	return n, f.err
}

// A write that fails part-way (ENOSPC, injected: see
// TestFullAndReadOnlyFileSystems for a real full file system) leaves the
// old file as it was, no temporary file, and an error that names the file
// and the cause, even when the caller goes on to Commit.
func TestAFailedWriteLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	os.WriteFile(path, []byte("old"), 0o644)
	f, err := Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	f.w = &faultyWriter{w: f.f, n: 10, err: syscall.ENOSPC}
	if _, err := f.Write(bytes.Repeat([]byte("x"), 100)); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write = %v, want ENOSPC", err)
	}
	err = f.Commit()
	if want := "cannot write " + path + ": no space left on device"; err == nil || err.Error() != want {
		t.Errorf("Commit = %v, want %q", err, want)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the file holds %q, want the old content", got)
	}
	outfiletest.Holds(t, dir, "out.json")
}

// Two runs writing the same file at once: whoever renames last wins, and
// a reader at any moment sees one of the files whole, never a mix or a
// part; no temporary file is left.
func TestConcurrentWritersLeaveOneWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	contents := [][]byte{bytes.Repeat([]byte("a"), 200<<10), bytes.Repeat([]byte("b"), 70<<10)}
	if err := Write(context.Background(), path, contents[0]); err != nil {
		t.Fatal(err)
	}
	const rounds = 30
	errs := make(chan error, 2)
	for _, c := range contents {
		go func() {
			for range rounds {
				if err := Write(context.Background(), path, c); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	whole := func(b []byte) bool { return bytes.Equal(b, contents[0]) || bytes.Equal(b, contents[1]) }
	for done := 0; done < 2; {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
			done++
		default:
			if b, err := os.ReadFile(path); err != nil || !whole(b) {
				t.Fatalf("a reader saw %d bytes (%v), not one whole file", len(b), err)
			}
		}
	}
	if b, _ := os.ReadFile(path); !whole(b) {
		t.Errorf("the file holds %d bytes, not one whole file", len(b))
	}
	outfiletest.Holds(t, dir, "out.json")
}
