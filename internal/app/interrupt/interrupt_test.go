package interrupt

import (
	"bytes"
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
)

func TestASecondSignalExitsAtOnce(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	var stderr bytes.Buffer
	ctx, stop := interruptible(context.Background(), sigs, &stderr, func(code int) { exited <- code })
	defer stop()
	sigs <- syscall.SIGTERM
	<-ctx.Done()
	if cause := context.Cause(ctx); cause == nil || cause.Error() != "interrupted by SIGTERM" {
		t.Errorf("cause %v", cause)
	}
	sigs <- os.Interrupt
	deadline, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case code := <-exited:
		if code != frontend.ExitInterrupted {
			t.Errorf("exit %d, want %d", code, frontend.ExitInterrupted)
		}
	case <-deadline.Done():
		t.Fatal("the second signal did not exit")
	}
	if want := "mcp-surface: SIGTERM: stopping; send it again to exit at once\nmcp-surface: SIGINT again: exiting\n"; stderr.String() != want {
		t.Errorf("stderr:\n%s", cmp.Diff(want, stderr.String()))
	}
}
