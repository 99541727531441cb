package infile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test when it does not return in a bound far
// above what it needs: the assertion is that it returns at all.
func within(t *testing.T, f func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type res struct {
		b   []byte
		err error
	}
	done := make(chan res, 1)
	go func() { b, err := f(); done <- res{b, err} }()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(30 * time.Second):
		t.Fatal("the read ignored its context")
		return nil, nil
	}
}

func TestAFileOverTheLimitIsRefusedWithoutReadingIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	f, _ := os.Create(path)
	f.Truncate(1 << 40) // sparse: a terabyte that takes no disk
	f.Close()
	_, err := Read(context.Background(), path, "a snapshot file", 256<<20)
	var te *TooLargeError
	if !errors.As(err, &te) || err.Error() != path+" is larger than 256 MiB, the limit for a snapshot file" {
		t.Errorf("got %v", err)
	}
}

func TestAnEndlessDeviceStopsAtTheLimit(t *testing.T) {
	_, err := Read(context.Background(), "/dev/zero", "a snapshot file", 1<<20)
	var te *TooLargeError
	if !errors.As(err, &te) || te.Limit != 1<<20 {
		t.Errorf("got %v", err)
	}
}

func TestAtTheLimitIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	os.WriteFile(path, []byte("1234"), 0o644)
	if b, err := Read(context.Background(), path, "x", 4); err != nil || string(b) != "1234" {
		t.Errorf("got %q, %v", b, err)
	}
	if _, err := Read(context.Background(), path, "x", 3); err == nil {
		t.Error("a file over the limit was read")
	}
}

func mkfifo(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	return fifo
}

func TestAFIFOWithoutAWriterStopsWithTheContext(t *testing.T) {
	fifo := mkfifo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := within(t, func() ([]byte, error) { return Read(ctx, fifo, "x", 1<<20) })
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for a writer to "+fifo) {
		t.Errorf("got %v", err)
	}
}

func TestASilentWriterStopsWithTheContext(t *testing.T) {
	fifo := mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// The writer opens and then says nothing; cancelling must end the
		// read that waits for it.
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write([]byte("{"))
		cancel()
		<-stop
		w.Close()
	}()
	_, err := within(t, func() ([]byte, error) { return Read(ctx, fifo, "x", 1<<20) })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

func TestAFIFOIsRead(t *testing.T) {
	fifo := mkfifo(t)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write([]byte(`{"tools":[]}`))
			w.Close()
		}
	}()
	b, err := within(t, func() ([]byte, error) { return Read(context.Background(), fifo, "x", 1<<20) })
	if err != nil || string(b) != `{"tools":[]}` {
		t.Errorf("got %q, %v", b, err)
	}
}
