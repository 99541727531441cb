package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/internal/app/version"
	"github.com/mcp-surface/mcp-surface/pkg/capture"
)

// Env is what a command may use from the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Environ is the whole environment, for the server commands we start.
	Environ func() []string
	// IsTerminal reports whether Stdout is a terminal (colour); nil: no.
	IsTerminal func() bool
}

// command is one subcommand. run returns an exit code; errors that stop the
// tool are reported by returning a *usageError or any error (exit 2).
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *Env, args []string) (int, error)
}

// commands is every subcommand, in the order `mcp-surface help` lists
// them: from a command's name to its code in one grep.
var commands = []command{
	{"action", "run as a GitHub Actions step: inputs from INPUT_*, verdict as comment, summary, annotations and SARIF", runAction},
	{"capture", "record a server's surface and write its snapshot", runCapture},
	{"check", "capture, validate and compare with a baseline: the whole pipeline", runCheck},
	{"cost", "count the tokens the surface puts into the model's context: per tool and in all", runCost},
	{"diff", "compare two snapshots and report breaking changes", runDiff},
	{"explain", "print a rule's documentation (--list for every rule)", runExplain},
	{"guard", "stand between a client and a locked server: keep what changed since the lock away from the model", runGuard},
	{"init", "set a repository up: the first snapshot, the workflow that checks pull requests, the refresh script", runInit},
	{"lock", "for teams that use servers: pin every server the client configurations declare, and check them for drift", runLock},
	{"probe", "call the declared probes and validate their real results", runProbe},
	{"schemas", "list the published MCP schemas, or fetch them into the cache ahead of time", runSchemas},
	{"snapshot", "write or verify the committed snapshot (mcp-surface.json, or each server's of the servers: list)", runSnapshot},
	{"validate", "check a server or a snapshot against the published MCP schema, and lint it", runValidate},
}

// lookupCommand finds a subcommand by name.
func lookupCommand(name string) (*command, bool) {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i], true
		}
	}
	return nil, false
}

// usageError is a mistake in the command line: exit 2 with the message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// Run is the whole program: main only calls it.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return RunEnv(ctx, args, &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv})
}

// RunEnv is Run with the whole environment given (main passes os.Environ,
// so that server commands inherit it).
func RunEnv(ctx context.Context, args []string, env *Env) int {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	stdout, stderr := env.Stdout, env.Stderr
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		if len(args) == 0 {
			return frontend.ExitFailure
		}
		return frontend.ExitOK
	}
	if args[0] == "--version" || args[0] == "version" {
		info := version.Get()
		fmt.Fprintln(stdout, "mcp-surface", info)
		if info.Version == version.Devel && info.Commit == "" {
			// go run, and builds with -buildvcs=false, record no commit.
			fmt.Fprintln(stderr, "mcp-surface: this build records no version or commit (go run and -buildvcs=false builds do not); build it with `go build` in a git checkout, or install a release")
		}
		return frontend.ExitOK
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		var names []string
		for _, c := range commands {
			names = append(names, c.name)
		}
		fmt.Fprintf(stderr, "mcp-surface: unknown command %q%s; run `mcp-surface help` for the list\n", frontend.LogText(args[0]), frontend.DidYouMean(args[0], names))
		return frontend.ExitFailure
	}
	// Captures hand their servers' shutdown to the background (see
	// captureFlags.options); whatever path a command took, no server
	// outlives the command.
	defer capture.WaitShutdowns()
	code, err := c.run(ctx, env, args[1:])
	if err == errHelp {
		return frontend.ExitOK
	}
	if err != nil {
		err = frontend.SnapshotHint(err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "mcp-surface %s: %s\n", c.name, frontend.LogText(ue.msg))
		} else {
			fmt.Fprintf(stderr, "mcp-surface %s: %s\n", c.name, frontend.LogText(err.Error()))
		}
		return frontend.ExitFailure
	}
	return code
}

// Version is this binary's version as one token (see internal/app/version).
var Version = version.Get().Short()

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "mcp-surface guards the advertised surface of MCP servers.")
	fmt.Fprintln(w, "\nUsage: mcp-surface COMMAND [flags] [-- SERVER COMMAND...]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nFlags may come before or after the arguments; everything after -- is the server's")
	fmt.Fprintln(w, "command, untouched. FILE outputs may be - (stdout), a device or a FIFO, written in place.")
	fmt.Fprintln(w, "A first Ctrl-C (SIGINT, SIGTERM) stops the command cleanly; a second exits at once (130).")
	fmt.Fprintln(w, "\nRun `mcp-surface COMMAND -h` for a command's flags.")
}

// splitDashDash separates flags from the server command after "--".
func splitDashDash(args []string) (flags, cmd []string) {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}
