package infile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// TooLargeError is an input bigger than the limit it was read with.
type TooLargeError struct {
	Path  string
	What  string // what the input is, e.g. "a snapshot file"
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit for %s", e.Path, FormatBytes(e.Limit), e.What)
}

// FormatBytes writes n in the largest binary unit that divides it.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read returns the contents of path, what sort of input it is (for the
// error), at most limit bytes (a larger input
// is a *TooLargeError, found without reading it whole when its size is
// known). Cancelling ctx ends the wait for a FIFO's writer and a read that
// blocks, with ctx's cause.
func Read(ctx context.Context, path, what string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &TooLargeError{Path: path, What: what, Limit: limit}
	}
	f, err := open(ctx, path, fi)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Close interrupts a read that blocks on a FIFO or a terminal (Go's
	// poller holds them); a regular file's reads do not block.
	stop := context.AfterFunc(ctx, func() { f.Close() })
	defer stop()
	var data []byte
	if fi.Mode().IsRegular() {
		data, err = readKnown(f, fi.Size(), limit)
	} else {
		data, err = readStream(f, limit)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("reading %s: %w", path, context.Cause(ctx))
	}
	if errors.Is(err, errOverLimit) || (err == nil && int64(len(data)) > limit) {
		return nil, &TooLargeError{Path: path, What: what, Limit: limit}
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// readKnown reads a regular file of the given size (which may still grow
// while read) up to limit+1 bytes.
func readKnown(r io.Reader, size, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	_, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	return buf.Bytes(), err
}

var errOverLimit = errors.New("over the limit")

// chunkSize is the unit a stream of unknown length is read in.
const chunkSize = 1 << 20

// readStream reads a stream of unknown length up to limit+1 bytes in
// chunks, joined only when it ends within the limit: an endless stream
// (/dev/zero) costs the limit in memory, not the doubling of a growing
// buffer.
func readStream(r io.Reader, limit int64) ([]byte, error) {
	var chunks [][]byte
	var total int64
	lr := io.LimitReader(r, limit+1)
	for {
		c := make([]byte, chunkSize)
		n, err := io.ReadFull(lr, c)
		if n > 0 {
			chunks = append(chunks, c[:n])
			total += int64(n)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if total > limit {
		return nil, errOverLimit
	}
	return bytes.Join(chunks, nil), nil
}

// open opens path for reading. A FIFO's open blocks until a writer comes,
// and no flag makes that wait cancellable while still waiting for the
// writer (O_NONBLOCK reads end of file at once), so the open runs apart
// and a cancelled wait is released by opening the FIFO's other end.
func open(ctx context.Context, path string, fi fs.FileInfo) (*os.File, error) {
	if fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-ctx.Done():
	}
	// A writer that opens and closes at once lets the blocked open return
	// and read end of file; its file is then closed here.
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
	go func() {
		if r := <-done; r.f != nil {
			r.f.Close()
		}
	}()
	return nil, fmt.Errorf("waiting for a writer to %s: %w", path, context.Cause(ctx))
}
