package lock

import (
	"context"
	"runtime"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/app/clientconfig"
	"github.com/mcp-surface/mcp-surface/pkg/manifest"
)

// fetched is one capture made ahead of its turn: the manifest or the
// error Capture returned (already redacted).
type fetched struct {
	m   *manifest.Manifest
	err error
}

func cacheKey(s clientconfig.Server) string {
	return s.File + "\x00" + s.Name + "\x00" + s.EntryHash
}

// prefetch captures the servers that need, at most o.Jobs at once (0:
// the number of CPUs), before Update or Check walks them in order; the
// walk then finds each result where Capture looks first, so the lock,
// the outcomes and the report are those of a run one server at a time.
// Progress lines are logged here, in the servers' order, before any
// starts. With one job, or one server to capture, nothing is done ahead
// and the walk captures as it goes.
func (o *Options) prefetch(ctx context.Context, servers []clientconfig.Server, need func(clientconfig.Server) bool) {
	n := o.Jobs
	if n <= 0 {
		n = runtime.NumCPU()
	}
	var todo []clientconfig.Server
	seen := map[string]bool{}
	for _, s := range servers {
		k := cacheKey(s)
		if len(s.Missing) > 0 || seen[k] || !need(s) {
			continue
		}
		if _, ok := o.Cache[k]; ok {
			continue
		}
		seen[k] = true
		todo = append(todo, s)
	}
	if n == 1 || len(todo) < 2 {
		return
	}
	for _, s := range todo {
		o.log("capturing %s: %s", Key(s.File, s.Name), s.Shown)
	}
	solo := *o
	solo.Cache, solo.fetched = nil, nil
	results := make([]fetched, len(todo))
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i, s := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			m, err := Capture(ctx, solo, s)
			results[i] = fetched{m, err}
		}()
	}
	wg.Wait()
	o.fetched = make(map[string]fetched, len(todo))
	for i, s := range todo {
		o.fetched[cacheKey(s)] = results[i]
	}
}

// captureLogged is Capture with its progress line, unless prefetch
// already logged it.
func (o *Options) captureLogged(ctx context.Context, s clientconfig.Server) (*manifest.Manifest, error) {
	if _, ok := o.fetched[cacheKey(s)]; !ok {
		o.log("capturing %s: %s", Key(s.File, s.Name), s.Shown)
	}
	return Capture(ctx, *o, s)
}
