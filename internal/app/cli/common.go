package cli

import (
	"embed"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcp-surface/mcp-surface/internal/app/frontend"
	"github.com/mcp-surface/mcp-surface/pkg/rules"
)

// commonFlags are shared by every command that reports findings.
type commonFlags struct {
	format string
	failOn string
	config string
}

func (c *commonFlags) register(fs *flag.FlagSet, defaultFormat string) {
	fs.StringVar(&c.format, "format", defaultFormat, "output format: text|json|markdown|sarif|github|junit")
	fs.StringVar(&c.failOn, "fail-on", "error", "exit 1 when a finding is at or above this level: error|warning|note|none (breaking, risky accepted)")
	fs.StringVar(&c.config, "config", "", "configuration file (default .mcp-surface.yaml when present)")
}

// failLevel parses --fail-on; "" means none.
func (c *commonFlags) failLevel() (rules.Level, error) {
	l, err := rules.ParseLevel(c.failOn)
	if err != nil {
		return "", usagef("--fail-on: %v", err)
	}
	return l, nil
}

//go:embed help/*.txt
var helpFiles embed.FS

// help is a command's usage text, help/NAME.txt: its arguments, then what
// it does.
func help(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("cli: no help/" + name + ".txt")
	}
	return strings.TrimSuffix(string(b), "\n")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints its usage to w.
func newFlagSet(name, usage string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp-surface "+name, flag.ContinueOnError)
	// A mistake is one line (parseFlags says it); the flags are listed
	// only when asked for (-h).
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	usages.Store(fs, func() {
		fs.SetOutput(w)
		defer fs.SetOutput(io.Discard)
		fmt.Fprintf(w, "Usage: mcp-surface %s %s\n\nFlags:\n", name, usage)
		fs.PrintDefaults()
	})
	return fs
}

// usages holds each flag set's full usage, printed on -h.
var usages sync.Map // *flag.FlagSet → func()

// flagError is a flag parsing error on one line: the flag package's
// words, a suggestion for a mistyped flag, and where the list is.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
		msg = "unknown flag " + name + frontend.DidYouMean("--"+strings.TrimLeft(name, "-"), names)
	}
	return usagef("%s; run `%s -h` for the flags", msg, fs.Name())
}

// parseFlags parses args; -h prints usage and yields errHelp (exit 0).
// Flags may follow the arguments (`validate x.json --format json`): the
// standard parser stops at the first argument, so parsing resumes after
// each one until "--", after which everything is an argument. fs.Args()
// is then every argument, in order.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				if p, ok := usages.Load(fs); ok {
					p.(func())()
				}
				return errHelp
			}
			return flagError(fs, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" && !isFlagValue(fs, args[:used-1]) {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parsing "--" alone leaves exactly the arguments in fs.Args().
	return fs.Parse(append([]string{"--"}, positional...))
}

// parseServerFlags parses the flags of a command whose only arguments are
// the server command after --, and returns that command.
func parseServerFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	flags, cmd := splitDashDash(args)
	if err := parseFlags(fs, flags); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q: put the server command after --", fs.Arg(0))
	}
	return cmd, nil
}

// isFlagValue reports whether the argument after before is the value of
// a flag (as in `--output --`) rather than the end of the flags: before
// ends with a non-boolean flag given without "=".
func isFlagValue(fs *flag.FlagSet, before []string) bool {
	if len(before) == 0 {
		return false
	}
	last := before[len(before)-1]
	name := strings.TrimLeft(last, "-")
	if !strings.HasPrefix(last, "-") || name == "" || len(last)-len(name) > 2 || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// errHelp signals that usage was printed on request.
var errHelp = &usageError{"help requested"}

// logf formats a progress line whose arguments may hold server text.
func logf(format string, args ...any) string {
	return frontend.LogText(fmt.Sprintf(format, args...))
}
