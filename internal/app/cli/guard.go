package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/guard"
	"github.com/mcp-surface/mcp-surface/internal/app/lock"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

func runGuard(ctx context.Context, env *Env, args []string) (int, error) {
	fs := newFlagSet("guard", help("guard"), env.Stderr)
	lockFile := fs.String("lock", lock.DefaultFile, "the lock file")
	server := fs.String("server", "", "the lock entry: CONFIG:NAME as the lock records them (needed when the lock has several)")
	onChange := fs.String("on-change", string(guard.ModeBlock), "what a risky or breaking change gets: block|fail|warn")
	logFile := fs.String("log", "", "append every decision to FILE as a JSON line")
	maxBytes := fs.Int64("max-bytes", guard.DefaultMaxBytes, "the longest message carried, either way")
	upstream := fs.String("url", "", "a streamable HTTP server to stand in front of (with --listen), instead of -- CMD")
	listen := fs.String("listen", "", "with --url: the loopback HOST:PORT the client connects to")
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return 0, err
	}
	mode := guard.Mode(*onChange)
	switch {
	case *upstream == "" && (len(cmd) == 0 || !slices.Contains(args, "--")):
		return 0, usagef("no server command: give it after --, e.g. `mcp-surface guard -- node server.js` (or --url URL --listen 127.0.0.1:PORT)")
	case *upstream != "" && (len(cmd) > 0 || *listen == ""):
		return 0, usagef("--url needs --listen HOST:PORT, and no command after --")
	case fs.NArg() > 0:
		return 0, usagef("unexpected argument %q: the server command goes after --", fs.Arg(0))
	case !slices.Contains(guard.Modes, mode):
		return 0, usagef("--on-change %q: use block, fail or warn", *onChange)
	case *maxBytes <= 0:
		return 0, usagef("--max-bytes %d: give a positive number of bytes", *maxBytes)
	case *upstream == "" && *listen != "":
		return 0, usagef("--listen goes with --url (a streamable HTTP server); a server started with -- CMD speaks to the client on stdio")
	}
	if *upstream != "" {
		if u, uerr := url.Parse(*upstream); uerr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return 0, usagef("--url %q: give the server's MCP endpoint as an http:// or https:// URL", *upstream)
		}
		if _, _, herr := net.SplitHostPort(*listen); herr != nil {
			return 0, usagef("--listen %q: give HOST:PORT, e.g. 127.0.0.1:8931", *listen)
		}
	}
	l, err := lock.ReadFile(ctx, *lockFile, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("no lock file %s: write it with `mcp-surface lock`, or name it with --lock", *lockFile)
	}
	if err != nil {
		return 0, fmt.Errorf("%w (write it with `mcp-surface lock`, or name it with --lock)", err)
	}
	e, err := guard.Select(l, *server)
	if err != nil {
		return 0, usagef("%s: %v", *lockFile, err)
	}
	logger := &guard.Logger{Stderr: env.Stderr}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return 0, fmt.Errorf("--log: %w", err)
		}
		defer f.Close()
		logger.File = f
	}
	opts := guard.Options{Entry: e, All: l, Mode: mode, Version: Version, Log: logger}
	if *upstream != "" {
		ln, lerr := guard.ListenLoopback(*listen)
		if lerr != nil {
			return 0, usagef("%v", lerr)
		}
		fmt.Fprintf(env.Stderr, "mcp-surface guard: listening on http://%s for %s\n", ln.Addr(), frontend.LogText(e.Key()))
		err = guard.RunHTTP(ctx, guard.HTTPConfig{Upstream: *upstream, Listener: ln, Options: opts, MaxBytes: *maxBytes})
	} else {
		err = guard.Run(ctx, guard.Config{Server: capture.Command{Argv: cmd, Env: serverEnv(env, nil)}, Session: guard.NewSession(opts),
			MaxBytes: *maxBytes, Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr})
	}
	if lerr := logger.Err(); lerr != nil && err == nil {
		err = fmt.Errorf("--log %s: %w", *logFile, lerr)
	}
	if errors.Is(err, guard.ErrChanged) {
		fmt.Fprintf(env.Stderr, "mcp-surface guard: %s\n", frontend.LogText(err.Error()))
		return frontend.ExitFindings, nil
	}
	return frontend.ExitOK, err
}
