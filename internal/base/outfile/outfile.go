package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Error is an output that cannot be written, with the path as given.
type Error struct {
	Path string // as the user gave it
	Dir  string // the directory that refused a new file, when that is the cause
	Err  error
}

func (e *Error) Error() string {
	switch {
	case e.Dir != "" && errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("cannot write %s: directory %s does not exist; create it first or choose another path", e.Path, e.Dir)
	case e.Dir != "" && errors.Is(e.Err, syscall.ENOTDIR):
		return fmt.Sprintf("cannot write %s: %s is not a directory; choose another path", e.Path, e.Dir)
	case e.Dir != "" && isPermission(e.Err):
		return fmt.Sprintf("cannot write %s: directory %s is not writable (%v); choose a writable directory or change its permissions", e.Path, e.Dir, e.Err)
	case errors.Is(e.Err, errIsDir):
		return fmt.Sprintf("cannot write %s: it is a directory; name a file", e.Path)
	}
	return fmt.Sprintf("cannot write %s: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

var errIsDir = errors.New("is a directory")

func isPermission(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// cause strips the *fs.PathError that names a temporary file.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maxLinks bounds the symbolic links followed, as the kernel does.
const maxLinks = 40

// target is where path's bytes go: dest, and whether it is written in
// place (not a regular file) rather than replaced by a rename.
func target(path string) (dest string, inPlace bool, err error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", false, err
	}
	for range maxLinks {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// A new file; creating it names what is wrong with its
			// directory.
			return p, false, nil
		case err != nil:
			return "", false, err
		}
		switch m := fi.Mode(); {
		case m.IsRegular():
			return p, false, nil
		case m.IsDir():
			return "", false, errIsDir
		case m&fs.ModeSymlink == 0:
			return p, true, nil // device, FIFO, socket
		}
		// The links under /proc (/dev/stdout ends there) name open
		// descriptors, not paths: write through them.
		if p == "/proc" || strings.HasPrefix(p, "/proc/") {
			return p, true, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = filepath.Clean(link)
	}
	return "", false, fmt.Errorf("more than %d symbolic links", maxLinks)
}

// shownDir is dest's directory as the user would name it: relative when
// the path was, and no link was followed.
func shownDir(path, dest string) string {
	if abs, err := filepath.Abs(path); err == nil && abs == dest {
		return filepath.Dir(path)
	}
	return filepath.Dir(dest)
}

// Check reports, before any work, whether path can be written: an existing
// device or FIFO is accepted as it is; for a file, its directory must take
// a new file (a probe file is created and removed, which is the only test
// that holds for root, read-only mounts and ACLs alike).
func Check(path string) error {
	dest, inPlace, err := target(path)
	if err != nil {
		return &Error{Path: path, Err: err}
	}
	if inPlace {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".check*")
	if err != nil {
		return &Error{Path: path, Dir: shownDir(path, dest), Err: cause(err)}
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// File is an output being written; Commit makes it visible, Abort drops it.
type File struct {
	path string // as given, for errors
	dest string
	tmp  string // "" when written in place
	f    *os.File
	w    io.Writer // f, unless a test injects faults
	ctx  context.Context
	stop func() bool
	err  error // the first write error
}

// Create starts writing path. ctx bounds the wait for a FIFO's reader and
// interrupts a write that blocks: cancelling it closes the file.
func Create(ctx context.Context, path string) (*File, error) {
	dest, inPlace, err := target(path)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	out := &File{path: path, dest: dest, ctx: ctx}
	if inPlace {
		out.f, err = openInPlace(ctx, dest)
		if err != nil {
			return nil, &Error{Path: path, Err: cause(err)}
		}
	} else {
		out.f, err = os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp*")
		if err != nil {
			return nil, &Error{Path: path, Dir: shownDir(path, dest), Err: cause(err)}
		}
		out.tmp = out.f.Name()
	}
	f := out.f
	out.w = f
	out.stop = context.AfterFunc(ctx, func() { f.Close() })
	return out, nil
}

// fifoPoll is how often a FIFO without a reader is tried again.
const fifoPoll = 20 * time.Millisecond

// openInPlace opens an existing non-regular file for writing. A FIFO is
// opened without blocking (ENXIO until a reader comes), so that the wait
// for its reader can be cancelled; it stays non-blocking, which puts it on
// Go's poller, where Close interrupts a blocked write.
func openInPlace(ctx context.Context, path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	}
	t := time.NewTicker(fifoPoll)
	defer t.Stop()
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for a reader: %w", context.Cause(ctx))
		case <-t.C:
		}
	}
}

func (o *File) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		if o.ctx.Err() != nil {
			err = fmt.Errorf("interrupted: %w", context.Cause(o.ctx))
		}
		o.err = err
	}
	return n, err
}

// Abort drops what was written: the temporary file is removed, the target
// is left as it was (a device or FIFO keeps what it was sent).
func (o *File) Abort() {
	o.stop()
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
	}
}

// Commit finishes the file: a replaced file is synced, given the old
// file's permissions (0644 for a new one), and renamed over the target.
func (o *File) Commit() error {
	interrupted := !o.stop()
	if o.err != nil || interrupted {
		err := o.err
		if interrupted {
			err = fmt.Errorf("interrupted: %w", context.Cause(o.ctx))
		}
		o.Abort()
		return &Error{Path: o.path, Err: cause(err)}
	}
	if o.tmp == "" {
		if err := o.f.Close(); err != nil {
			return &Error{Path: o.path, Err: cause(err)}
		}
		return nil
	}
	err := o.commitRename()
	if err != nil {
		os.Remove(o.tmp)
		return &Error{Path: o.path, Err: cause(err)}
	}
	return nil
}

func (o *File) commitRename() error {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(o.dest); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := o.f.Chmod(mode); err != nil {
		o.f.Close()
		return err
	}
	if err := o.f.Sync(); err != nil {
		o.f.Close()
		return err
	}
	if err := o.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(o.tmp, o.dest); err != nil {
		return err
	}
	// The rename is durable once the directory is synced; a failure here
	// leaves a complete file, so it is not reported.
	if d, err := os.Open(filepath.Dir(o.dest)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Write writes data to path as Create, Write and Commit do.
func Write(ctx context.Context, path string, data []byte) error {
	f, err := Create(ctx, path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return &Error{Path: path, Err: cause(err)}
	}
	return f.Commit()
}
