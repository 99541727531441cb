package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Exit codes (DESIGN.md): never 1 for a tool failure, never 2 for a finding.
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitFailure  = 2 // the tool could not do its job
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

var commands = map[string]*command{}

// register adds a subcommand; each command's file calls it from init.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("cli: duplicate command " + c.name)
	}
	commands[c.name] = c
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
			return ExitFailure
		}
		return ExitOK
	}
	if args[0] == "--version" || args[0] == "version" {
		fmt.Fprintln(stdout, "mcp-surface", Version)
		return ExitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "mcp-surface: unknown command %q; run `mcp-surface help` for the list\n", args[0])
		return ExitFailure
	}
	code, err := c.run(ctx, env, args[1:])
	if err == errHelp {
		return ExitOK
	}
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "mcp-surface %s: %s\n", c.name, ue.msg)
		} else {
			fmt.Fprintf(stderr, "mcp-surface %s: %v\n", c.name, err)
		}
		return ExitFailure
	}
	return code
}

// Version is set at build time with -ldflags "-X ...cli.Version=v1.2.3".
var Version = "dev"

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "mcp-surface guards the advertised surface of MCP servers.")
	fmt.Fprintln(w, "\nUsage: mcp-surface COMMAND [flags] [-- SERVER COMMAND...]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
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
