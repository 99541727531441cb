// Package outfiletest holds what the tests of outputs share (internal/base/outfile
// itself and the commands that write through it): a null device of the
// test's own, to write to before the machine's /dev/null is risked, and the
// checks that a device is still one and that nothing was left beside it.
package outfiletest

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// NullDevice makes a null device (character device 1:3) in a new
// temporary directory and returns its path; it skips the test where
// device nodes cannot be made (they need root, as CI containers have).
func NullDevice(t testing.TB) string {
	t.Helper()
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a device node here (%v): the test needs root", err)
	}
	return null
}

// FIFO makes a named pipe in a new temporary directory and starts its
// reader: the channel gets everything written to the pipe once the writer
// closes it (nil if it could not be opened). It skips the test where
// named pipes cannot be made.
func FIFO(t testing.TB) (string, <-chan []byte) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	return fifo, got
}

// IsCharDevice fails the test unless path is still a character device,
// and reports whether it is.
func IsCharDevice(t testing.TB, path string) bool {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("%s is now %v, want a character device", path, fi.Mode())
		return false
	}
	return true
}

// Holds fails the test unless dir holds exactly the files named (sorted):
// a write left nothing beside them, no temporary file.
func Holds(t testing.TB, dir string, names ...string) {
	t.Helper()
	if got := Names(t, dir); !slices.Equal(got, names) {
		t.Errorf("%s holds %v, want only %v", dir, got, names)
	}
}

// Names lists the names in dir, sorted.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
