package check

import (
	"context"
	"io"
	"sync"
)

// jobs runs the builds and captures of one Run: at most n at a time, one
// after the other in the order of a sequential run when n is 1. The first
// failure cancels everything else (the context's cause is that failure)
// and is the error every later step returns, so that a failure of one
// side stops the other and is the one reported.
type jobs struct {
	n      int
	sem    chan struct{}
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu    sync.Mutex
	first error
}

func newJobs(ctx context.Context, n int) *jobs {
	ctx, cancel := context.WithCancelCause(ctx)
	return &jobs{n: n, sem: make(chan struct{}, n), ctx: ctx, cancel: cancel}
}

// slot runs f while holding one of the n slots: a build or a capture.
func (j *jobs) slot(f func() error) error {
	select {
	case j.sem <- struct{}{}:
	case <-j.ctx.Done():
		return context.Cause(j.ctx)
	}
	defer func() { <-j.sem }()
	return f()
}

// fail records the first failure and cancels the rest.
func (j *jobs) fail(err error) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.first == nil {
		j.first = err
		j.cancel(err)
	}
	return j.first
}

// all runs fs, at once unless n is 1, and returns the first failure of
// the whole Run (not necessarily one of fs's) if any of them failed.
func (j *jobs) all(fs ...func() error) error {
	if j.n == 1 {
		for _, f := range fs {
			if err := f(); err != nil {
				return j.fail(err)
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	failed := make([]error, len(fs))
	for i, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(); err != nil {
				failed[i] = j.fail(err)
			}
		}()
	}
	wg.Wait()
	for _, err := range failed {
		if err != nil {
			return err
		}
	}
	return nil
}

// stop releases the context once the Run is over.
func (j *jobs) stop() { j.cancel(nil) }

// ordered prints what concurrent tasks print in task order, as if they
// had run one after the other: the first unfinished task prints at once,
// the output of the tasks after it waits in their buffers until every
// task before them is done. Printing is serialized: the caller's Log and
// BuildOutput see one call at a time.
type ordered struct {
	mu      sync.Mutex
	cur     int
	done    []bool
	pending [][]func()
}

func newOrdered(tasks int) *ordered {
	return &ordered{done: make([]bool, tasks), pending: make([][]func(), tasks)}
}

// emit prints (calls print) for task i now if it is the current task,
// else when its turn comes.
func (q *ordered) emit(i int, print func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i == q.cur {
		print()
		return
	}
	q.pending[i] = append(q.pending[i], print)
}

// finish ends task i: the next unfinished task's output is printed and
// that task becomes the current one.
func (q *ordered) finish(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done[i] = true
	for q.cur < len(q.done) && q.done[q.cur] {
		q.cur++
		if q.cur < len(q.done) {
			for _, p := range q.pending[q.cur] {
				p()
			}
			q.pending[q.cur] = nil
		}
	}
}

// flush prints, in order, what unfinished tasks still hold (a Run that
// stopped early).
func (q *ordered) flush() {
	for i := range q.done {
		q.finish(i)
	}
}

// log is task i's Log.
func (q *ordered) log(i int, log func(string, ...any)) func(string, ...any) {
	return func(format string, args ...any) {
		q.emit(i, func() { log(format, args...) })
	}
}

// writer is task i's BuildOutput (nil when w is).
func (q *ordered) writer(i int, w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return taskWriter{q: q, i: i, w: w}
}

type taskWriter struct {
	q *ordered
	i int
	w io.Writer
}

func (t taskWriter) Write(p []byte) (int, error) {
	b := append([]byte(nil), p...)
	t.q.emit(t.i, func() { _, _ = t.w.Write(b) })
	return len(p), nil
}
